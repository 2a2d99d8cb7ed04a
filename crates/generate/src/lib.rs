//! Data generated from a schema: valid against it, the same for the same seed.
//!
//! The mock of any document answers an operation without an example with [`generate`], and the
//! try-it module fills a panel's first values and the reference's Example blocks with it. The
//! schema is read as a conjunction of parts (`shape.rs`): `$ref` targets, their 3.1 siblings and
//! `allOf` members together, so `allOf` is generated as one merged schema. A value comes, in
//! order, from the schema's own `example`/`examples[0]`/`default` when it validates, its
//! `const`/`enum`, a branch of its `oneOf`/`anyOf` merged with the rest, else its type and
//! limits. Every value is checked against the schema with `playground_validate` (`check.rs`)
//! before it is called exact.
//!
//! - Reproducible without `rand`: a splitmix generator seeded by the caller.
//! - Strings fit their `format` and `pattern` (walked from the pattern's tree, the checker's
//!   `pattern_tree`, and confirmed by `playground_validate`), and look like data by name
//!   (emails, names, cities, ISBNs, prices; ids are letters and digits).
//! - `oneOf` with a discriminator: open objects that every branch would accept are set apart by
//!   a property another branch refuses (`set_apart`); an optional property or list item whose
//!   discriminator would name a value its property refuses is left out (`misnamed`).
//! - Direction: `readOnly` properties are left out of requests and `writeOnly` ones out of
//!   answers. Depth, node counts and sizes are bounded.
//!
//! Tests: `src/tests/` (keywords, structure, arbitrary schemas) and `src/tests/corpus.rs`, which
//! validates every schema of `crates/mock/tests/fixtures/public/` (and of the corpus cache when
//! it is there; `PLAYGROUND_GENERATE_CORPUS`, `PLAYGROUND_GENERATE_DOCS`,
//! `PLAYGROUND_GENERATE_VERBOSE` and `PLAYGROUND_GENERATE_LIST` choose what it reads and shows).
//! `make bench-generate` runs it over every schema of the `make bench-mock-any` documents.

#![deny(missing_docs)]

mod check;
mod object;
mod pattern;
mod scalar;
mod shape;
#[cfg(test)]
mod tests;

use playground_openapi::json::Key;
use serde_json::Value;

use playground_openapi::schema::Direction;
use shape::Shape;

/// Nesting where optional properties and items stop; one more level and objects and lists
/// are left empty.
const MAX_DEPTH: usize = 12;
/// Nesting from which optional properties that reach other schemas through `$ref` are left out.
const SOFT_DEPTH: usize = 6;
/// JSON values in one generated value at most.
const MAX_NODES: usize = 2_000;
/// From this many values on, optional properties and items are left out.
const SOFT_NODES: usize = 1_500;
/// Values built in all, tries that were thrown away included, before tries stop.
const MAX_WORK: usize = 40_000;
/// Notes kept at most.
const MAX_NOTES: usize = 16;

/// A value generated from a schema, and what it could not honour.
#[derive(Debug, Clone, PartialEq)]
pub struct Generated {
    /// The value.
    pub value: Value,
    /// `false` when a cap or an unsatisfiable keyword made the value possibly invalid.
    pub exact: bool,
    /// What the value could not honour, in words ("a string of at least 1000000 characters
    /// is shortened to 4096"); empty when `exact`.
    pub notes: Vec<String>,
}

/// A value for `schema` (a schema object or a local `$ref`), read in `doc` (the whole
/// OpenAPI 3.0 or 3.1 document as JSON): the same for the same `(doc, schema, seed,
/// direction)` on every platform, valid against the schema unless [`Generated::exact`] says
/// otherwise. A request value leaves out `readOnly` properties (required ones too), a response
/// value `writeOnly` ones.
///
/// Bounded: 12 levels, 2,000 values, strings of 256 characters unless `minLength` asks for
/// more (4,096 at most), lists of 1 to 3 items unless `minItems` asks for more (1,000 at
/// most). A broken or contradictory schema gives a best-effort value and a note.
#[must_use]
pub fn generate(doc: &Value, schema: &Value, seed: u64, direction: Direction) -> Generated {
    let mut run = Run::new(doc, seed, direction);
    let value = run.value(Shape::of(doc, schema), Ctx::default());
    if run.exact {
        run.budget = check::CHECK_BUDGET;
        run.unverified = false;
        if !run.check(schema, &value) {
            run.note("the value does not satisfy every keyword of the schema".to_owned());
        } else if run.unverified {
            run.note(
                "the value could not be checked in full (a keyword or pattern the checker does \
                 not read in full, or a schema too large to check)"
                    .to_owned(),
            );
        }
    }
    Generated { value, exact: run.exact, notes: run.notes }
}

/// `value` without the properties `direction` leaves out, wherever `schema` declares them: a
/// stored item's `writeOnly` fields (a password) are not in the answers that show it.
pub fn prune(doc: &Value, schema: &Value, value: &mut Value, direction: Direction) {
    let mut run = Run::new(doc, 0, direction);
    run.prune(value, &Shape::of(doc, schema), 0);
}

/// Whether a `oneOf`/`anyOf` branch allows null alone (`{type: null}`, `{const: null}`,
/// `{enum: [null]}`).
fn null_only(branch: &Value) -> bool {
    match branch.key("type") {
        Some(Value::String(t)) => t == "null",
        Some(Value::Array(types)) => !types.is_empty() && types.iter().all(|t| t == "null"),
        _ => {
            branch.key("const").is_some_and(Value::is_null)
                || branch
                    .key("enum")
                    .and_then(Value::as_array)
                    .is_some_and(|e| !e.is_empty() && e.iter().all(Value::is_null))
        }
    }
}

/// splitmix64: small, fast and the same on every platform.
#[derive(Debug, Clone)]
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (0 when `n` is 0).
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            return 0;
        }
        // usize is at most 64 bits on the targets built here.
        usize::try_from(self.next() % (n as u64)).unwrap_or(0)
    }

    /// A number in `low..=high` (`low` when the range is empty).
    fn between(&mut self, low: i128, high: i128) -> i128 {
        if high <= low {
            return low;
        }
        let span = high.abs_diff(low).saturating_add(1);
        let draw = (u128::from(self.next()) << 64) | u128::from(self.next());
        low.saturating_add(i128::try_from(draw % span).unwrap_or(0))
    }
}

/// Where in the value the walk is.
#[derive(Debug, Clone, Default)]
struct Ctx<'a> {
    /// Nesting: 0 for the value itself.
    depth: usize,
    /// The property (or list property) this value is for: a hint for plausible values.
    name: Option<&'a str>,
    /// Leave out the schema's own examples and defaults (a retry that needs another value).
    fresh: bool,
    /// A discriminator property and the value it must take.
    forced: Option<(&'a str, String)>,
    /// The forced value names the `oneOf`/`anyOf` branch this value was chosen as, so a value
    /// that cannot carry it is misnamed; one inherited through `allOf` (a base schema generated
    /// for itself) only suggests a value.
    chosen: bool,
}

impl<'a> Ctx<'a> {
    fn child(&self, name: Option<&'a str>) -> Self {
        Ctx { depth: self.depth + 1, name, fresh: self.fresh, forced: None, chosen: false }
    }
}

/// What a thrown-away try must give back.
#[derive(Debug)]
struct Mark {
    nodes: usize,
    notes: usize,
    exact: bool,
    misnamed: usize,
}

/// One generation: the document, the random source, the budgets and what went wrong.
#[derive(Debug)]
struct Run<'a> {
    doc: &'a Value,
    rng: Rng,
    direction: Direction,
    /// Values in the value being built.
    nodes: usize,
    /// Values built in all.
    work: usize,
    /// Schema visits left to the checks.
    budget: usize,
    /// A check met something it could not read and let it pass.
    unverified: bool,
    exact: bool,
    notes: Vec<String>,
    /// Values whose discriminator property could not take the name its `discriminator` maps to
    /// the branch (Spotify's `type: {enum: [track]}` under an implicit mapping to
    /// `TrackObject`): valid JSON Schema that a client reading the discriminator refuses.
    misnamed: usize,
    /// `$ref`s of the schemas being generated, outermost first.
    refs: Vec<&'a str>,
}

impl<'a> Run<'a> {
    fn new(doc: &'a Value, seed: u64, direction: Direction) -> Self {
        Run {
            doc,
            rng: Rng(seed),
            direction,
            nodes: 0,
            work: 0,
            budget: check::CHECK_BUDGET,
            unverified: false,
            exact: true,
            notes: Vec::new(),
            misnamed: 0,
            refs: Vec::new(),
        }
    }

    /// Records what the value could not honour; the value is no longer exact.
    fn note(&mut self, text: String) {
        self.exact = false;
        if self.notes.len() < MAX_NOTES && !self.notes.contains(&text) {
            self.notes.push(text);
        }
    }

    fn mark(&self) -> Mark {
        Mark { nodes: self.nodes, notes: self.notes.len(), exact: self.exact, misnamed: self.misnamed }
    }

    fn reset(&mut self, mark: &Mark) {
        self.nodes = mark.nodes;
        self.notes.truncate(mark.notes);
        self.exact = mark.exact;
        self.misnamed = mark.misnamed;
    }

    /// Whether the budgets leave room for what is optional.
    fn roomy(&self, depth: usize) -> bool {
        depth < MAX_DEPTH && self.nodes < SOFT_NODES && self.work < MAX_WORK
    }

    /// The value for `shape`.
    fn value(&mut self, mut shape: Shape<'a>, ctx: Ctx<'a>) -> Value {
        self.work += 1;
        if self.nodes >= MAX_NODES {
            self.note(format!("the value stops at {MAX_NODES} nested values"));
            return Value::Null;
        }
        for problem in std::mem::take(&mut shape.problems) {
            self.note(format!("{problem}; the value ignores it"));
        }
        if shape.never {
            self.note("a schema allows no value at all".to_owned());
            return Value::Null;
        }
        let base = self.refs.len();
        self.refs.extend(shape.refs.iter().copied());
        let value = self.value_in(shape, ctx);
        self.refs.truncate(base);
        value
    }

    fn value_in(&mut self, shape: Shape<'a>, mut ctx: Ctx<'a>) -> Value {
        if !ctx.fresh
            && let Some(value) = self.given(&shape)
        {
            return value;
        }
        if let Some(value) = self.enumerated(&shape) {
            return value;
        }
        if let Some((part, key)) = shape.open_choice() {
            return self.choose(shape, part, key, ctx);
        }
        if let Some(part) = shape.open_condition() {
            // The `then` way: a value that satisfies `if` and `then` satisfies the whole.
            let mut merged = Shape { refs: Vec::new(), ..shape };
            for key in ["if", "then"] {
                if let Some(schema) = part.key(key) {
                    merged.add(self.doc, schema, 0);
                }
            }
            merged.decided.extend(part.key("if"));
            return self.value(merged, ctx);
        }
        if ctx.forced.is_none() {
            ctx.forced = self.inherited_discriminator(&shape);
        }
        let nots: Vec<&'a Value> = shape.get("not").collect();
        if nots.is_empty() {
            return self.typed(&shape, ctx);
        }
        let mark = self.mark();
        let mut tries = 0;
        loop {
            let value = self.typed(&shape, Ctx { fresh: ctx.fresh || tries > 0, ..ctx.clone() });
            if !nots.iter().any(|n| self.check(n, &value)) {
                return value;
            }
            tries += 1;
            if tries >= 8 || self.work >= MAX_WORK {
                self.note("no value was found that avoids the schema's `not`".to_owned());
                return value;
            }
            self.reset(&mark);
        }
    }

    /// The schema's own example, first of its `examples` or default, when it validates
    /// (`readOnly`/`writeOnly` properties of the other direction taken out first).
    fn given(&mut self, shape: &Shape<'a>) -> Option<Value> {
        let mut candidates = shape.examples();
        candidates.extend(shape.get("default"));
        for candidate in candidates {
            let size = nodes_in(candidate);
            if self.nodes + size > MAX_NODES {
                continue;
            }
            let mut value = candidate.clone();
            self.prune(&mut value, shape, 0);
            if self.check_shape(shape, &value) {
                self.nodes += size;
                return Some(value);
            }
        }
        None
    }

    /// A value of the schema's `const` or `enum` (all of them, across the parts) that
    /// satisfies the rest, by seed; `None` when the schema has neither.
    fn enumerated(&mut self, shape: &Shape<'a>) -> Option<Value> {
        let mut lists = shape.parts.iter().filter_map(|p| match (p.key("const"), p.key("enum")) {
            (Some(c), _) => Some(std::slice::from_ref(c)),
            (None, Some(Value::Array(list))) => Some(list.as_slice()),
            _ => None,
        });
        let first = lists.next()?;
        let others: Vec<&[Value]> = lists.collect();
        let common: Vec<&'a Value> = first
            .iter()
            .filter(|v| others.iter().all(|list| list.iter().any(|o| playground_validate::same(o, v))))
            .collect();
        let mut fitting = Vec::new();
        for value in &common {
            if self.check_shape(shape, value) {
                fitting.push(*value);
            }
        }
        // Null is allowed here, but a value says more.
        let non_null: Vec<&'a Value> = fitting.iter().copied().filter(|v| !v.is_null()).collect();
        let pool = if non_null.is_empty() { &fitting } else { &non_null };
        let chosen = match pool.get(self.rng.below(pool.len())) {
            Some(value) => (*value).clone(),
            None => {
                self.note("no value of the schema's enum satisfies the rest of it".to_owned());
                common.first().copied().or(first.first()).map_or(Value::Null, Value::clone)
            }
        };
        self.nodes += nodes_in(&chosen);
        Some(chosen)
    }

    /// A value of one branch of `part`'s `oneOf`/`anyOf` (picked by seed) merged with the rest
    /// of the shape; the next branches are tried (4 in all) when one contradicts the rest or,
    /// for `oneOf`, gives a value another branch accepts too.
    fn choose(&mut self, shape: Shape<'a>, part: &'a Value, key: &'static str, ctx: Ctx<'a>) -> Value {
        let Some(list) = part.key(key) else { return Value::Null };
        let branches = list.as_array().map_or(&[][..], Vec::as_slice);
        let discriminator = part.key("discriminator").or_else(|| shape.get("discriminator").next());
        if branches.is_empty() {
            self.note(format!("an empty {key} allows no value"));
            let mut rest = shape;
            rest.decided.push(list);
            return self.value(rest, ctx);
        }
        // A branch that allows only null (`Optional[str]`'s `{type: null}`) is taken last: a value
        // says more.
        let mut start = self.rng.below(branches.len());
        if let Some(offset) = (0..branches.len())
            .find(|k| branches.get((start + k) % branches.len()).is_some_and(|b| !null_only(b)))
        {
            start = (start + offset) % branches.len();
        }
        let mark = self.mark();
        let mut first: Option<(Value, usize, Vec<String>, bool, usize)> = None;
        for attempt in 0..branches.len().min(4) {
            let index = (start + attempt) % branches.len();
            let Some(branch) = branches.get(index) else { break };
            let mut merged = Shape { refs: Vec::new(), problems: Vec::new(), ..shape.clone() };
            merged.decided.push(list);
            merged.add(self.doc, branch, 0);
            let mut branch_ctx = Ctx { fresh: ctx.fresh || attempt > 0, ..ctx.clone() };
            if let Some(forced) = discriminator.and_then(|d| discriminator_for(d, branch)) {
                branch_ctx.forced = Some(forced);
                branch_ctx.chosen = true;
            }
            let whole = merged.clone();
            let mut value = self.value(merged, branch_ctx);
            // A branch that contradicts the rest of the schema (a note) gives way to the next.
            let clean = self.exact || !mark.exact;
            let mut unique = key != "oneOf"
                || !branches.iter().enumerate().any(|(j, other)| j != index && self.check(other, &value));
            if clean
                && !unique
                && let Some(apart) = self.set_apart(&whole, branches, index, &value)
            {
                value = apart;
                unique = true;
            }
            if clean && unique {
                return value;
            }
            // Keep the first try, or a later one that contradicts nothing when the first did.
            let better = first.as_ref().is_none_or(|f| clean && !f.3 && mark.exact);
            if better {
                let notes = self.notes.get(mark.notes..).map(<[String]>::to_vec).unwrap_or_default();
                first = Some((value, self.nodes, notes, self.exact, self.misnamed));
            }
            self.reset(&mark);
            if self.work >= MAX_WORK {
                break;
            }
        }
        let Some((value, nodes, notes, exact, misnamed)) = first else { return Value::Null };
        self.nodes = nodes;
        self.exact = exact;
        self.misnamed = misnamed;
        for note in notes {
            self.note(note);
        }
        if exact || !mark.exact {
            self.note("the value matches more than one branch of a oneOf".to_owned());
        }
        value
    }

    /// For a schema that extends one with a `discriminator` through `allOf` (`Cat: allOf:
    /// [Pet, ...]`): the discriminator property and this schema's name in the mapping.
    fn inherited_discriminator(&self, shape: &Shape<'a>) -> Option<(&'a str, String)> {
        let outermost = *shape.refs.first()?;
        let part = shape.parts.iter().find(|p| {
            p.key("discriminator").is_some() && p.key("oneOf").is_none() && p.key("anyOf").is_none()
        })?;
        let discriminator = part.key("discriminator")?;
        discriminator_for(discriminator, &serde_json::json!({ "$ref": outermost }))
    }

    /// A value of the shape's type (picked by seed when it allows several).
    fn typed(&mut self, shape: &Shape<'a>, ctx: Ctx<'a>) -> Value {
        self.nodes += 1;
        match self.kind(shape) {
            Kind::Null => Value::Null,
            Kind::Boolean => Value::Bool(self.rng.below(2) == 0),
            Kind::Integer => self.integer(shape, ctx.name),
            Kind::Number => self.number(shape, ctx.name),
            Kind::String => Value::String(self.string(shape, ctx.name)),
            Kind::Array => self.array(shape, &ctx),
            Kind::Object => self.object(shape, &ctx),
        }
    }

    fn kind(&mut self, shape: &Shape<'a>) -> Kind {
        let (set, unknown) = shape.types();
        for name in unknown {
            self.note(format!("the type {name:?} is not a JSON Schema type; the value ignores it"));
        }
        let set = if set == 0 {
            self.note("the schema's types exclude each other".to_owned());
            shape.parts.iter().find_map(|p| playground_openapi::schema::primary_type(p)).map_or(
                shape::STRING,
                |t| match t {
                    "object" => shape::OBJECT,
                    "array" => shape::ARRAY,
                    "integer" => shape::INTEGER,
                    "number" => shape::FRACTION,
                    "boolean" => shape::BOOLEAN,
                    _ => shape::STRING,
                },
            )
        } else {
            set
        };
        let hinted = set & hints(shape);
        let pool = if hinted != 0 {
            hinted
        } else if set == shape::ANY {
            shape::STRING
        } else if set & !shape::NULL != 0 {
            set & !shape::NULL
        } else {
            set
        };
        let integral = matches!(shape.format(), Some("int32" | "int64"));
        let kinds: Vec<Kind> = [
            (shape::OBJECT, Kind::Object),
            (shape::ARRAY, Kind::Array),
            (shape::STRING, Kind::String),
            (shape::INTEGER | shape::FRACTION, Kind::Number),
            (shape::BOOLEAN, Kind::Boolean),
            (shape::NULL, Kind::Null),
        ]
        .into_iter()
        .filter(|(bits, _)| pool & bits != 0)
        .map(|(bits, kind)| match kind {
            Kind::Number if pool & bits == shape::INTEGER || integral => Kind::Integer,
            other => other,
        })
        .collect();
        // A schema that names its type gets one of them; an open one the one its keywords suggest.
        let pick = if set == shape::ANY || kinds.len() < 2 { 0 } else { self.rng.below(kinds.len()) };
        kinds.get(pick).copied().unwrap_or(Kind::String)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Null,
    Boolean,
    Integer,
    Number,
    String,
    Array,
    Object,
}

/// The types a schema's keywords suggest (`properties` an object, `items` a list...).
fn hints(shape: &Shape<'_>) -> u8 {
    let mut bits = 0;
    let object = ["properties", "required", "additionalProperties", "patternProperties", "minProperties"];
    if shape.has_any(&object) || shape.has_any(&["maxProperties", "propertyNames", "discriminator"]) {
        bits |= shape::OBJECT;
    }
    if shape.has_any(&["items", "prefixItems", "minItems", "maxItems", "uniqueItems", "contains"]) {
        bits |= shape::ARRAY;
    }
    let numeric_format = matches!(shape.format(), Some("int32" | "int64" | "float" | "double"));
    if shape.has_any(&["minLength", "maxLength", "pattern"]) || (shape.format().is_some() && !numeric_format)
    {
        bits |= shape::STRING;
    }
    if shape.has_any(&["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"])
        || numeric_format
    {
        bits |= shape::INTEGER | shape::FRACTION;
    }
    // Only the most telling kind: an object over a list over a string over a number.
    [shape::OBJECT, shape::ARRAY, shape::STRING, shape::INTEGER | shape::FRACTION]
        .into_iter()
        .find(|b| bits & b != 0)
        .unwrap_or(0)
}

/// The discriminator property and the value that names `branch` (a `$ref`): its key in the
/// mapping, else the referenced schema's name.
fn discriminator_for<'a>(discriminator: &'a Value, branch: &Value) -> Option<(&'a str, String)> {
    let property = discriminator.key("propertyName")?.as_str()?;
    let reference = branch.key("$ref")?.as_str()?;
    let name = reference.rsplit('/').next()?;
    let mapped = discriminator.key("mapping").and_then(Value::as_object).and_then(|mapping| {
        mapping.iter().find_map(|(key, target)| {
            let target = target.as_str()?;
            (target == reference || target == name).then(|| key.clone())
        })
    });
    Some((property, mapped.unwrap_or_else(|| playground_openapi::pointer::unescape_segment(name))))
}

/// How many JSON values `value` holds, itself included.
fn nodes_in(value: &Value) -> usize {
    match value {
        Value::Array(items) => 1 + items.iter().map(nodes_in).sum::<usize>(),
        Value::Object(map) => 1 + map.values().map(nodes_in).sum::<usize>(),
        _ => 1,
    }
}

/// A short description of a value for notes.
fn describe(value: &Value) -> String {
    let text = value.to_string();
    if text.chars().count() > 40 {
        format!("{}… ({})", text.chars().take(40).collect::<String>(), playground_openapi::json::kind(value))
    } else {
        text
    }
}
