//! The one schema checker of the project: JSON values against a document's schemas (read as
//! JSON, so the browser build carries no typed OpenAPI model), for OpenAPI 3.0 and for 3.1's
//! JSON Schema 2020-12 alike. The mock validates requests and its answers with it
//! ([`Validator::check`]), the example generator accepts a schema's own examples and calls its
//! values exact with it ([`Validator::verdict`]), and the try-it form checks what is typed into
//! a parameter with its scalar keywords ([`check_scalar`]).
//!
//! Enforced: `type` (one or a list, `"null"`, 3.0's `nullable`), `enum`, `const`, `format`
//! (int32, int64, date-time, date, time, uuid, ipv4, ipv6, uri, email; looser formats are
//! accepted, or asserted in the [`Validator::strict`] reading), string lengths and `pattern`
//! (ECMA-262, rewritten by [`ecma_to_regex`]), number bounds (boolean and numeric
//! `exclusive*`) and `multipleOf`, array sizes, `uniqueItems`, `items`, `prefixItems`,
//! `contains` with `min/maxContains`, object `required` (with `readOnly`/`writeOnly` by
//! [`Direction`]), `properties`, `patternProperties`, `additionalProperties`, `propertyNames`,
//! `dependentRequired`, `dependentSchemas`, `min/maxProperties`, `allOf`/`anyOf`/`oneOf`/`not`,
//! `if`/`then`/`else`, `unevaluatedProperties` and `unevaluatedItems` (what each schema
//! evaluates is kept while one of the value's schemas asks: `marks`), boolean schemas, and
//! references: `$ref` with sibling keywords and `$dynamicRef` (3.1), resolved as JSON Schema
//! 2020-12 says, against the base URI that the nearest `$id`s give (URNs too), to `$anchor`s,
//! `$dynamicAnchor`s through the dynamic scope, and JSON pointers (`scope`). Count keywords
//! written as decimals (`"maxItems": 2.0`) count.
//!
//! Knowingly not enforced (values pass): `content*`, `discriminator` mappings, `$recursiveRef`
//! (2019-09), a custom meta-schema's `$vocabulary` (every vocabulary is on), loose formats
//! (hostname, uri-reference, byte, ...; email is read leniently; the strict reading asserts
//! them), patterns with no rewrite (look-arounds, back-references) or too large to compile,
//! and the misses of approximated ones (`\p{..}`) that a wider reading does not settle. A pass
//! that leans on one of those is unsure, and an unsure pass never counts against a value: in
//! `oneOf` (too many matches), `not`, `if` and `maxContains`. References to other documents
//! read the [`Resources`] lent with [`Validator::resources`] (nothing is fetched), and are
//! otherwise reported as a broken document. Keywords apply to the values they are about, as in
//! JSON Schema: `minLength` without `type` checks strings and lets numbers through.
//!
//! Work is bounded: at most [`MAX_DEPTH`] nested levels, [`MAX_STEPS`] schema visits per value
//! (or the budget a [`Validator::verdict`] is given, past which the answer is unsure), 32
//! references in a chain, and a schema that reaches itself for the same value (through `$ref`
//! or `$dynamicRef`) is reported instead of followed; the identifiers are indexed once per
//! check, and only when a reference needs them, over at most [`MAX_INDEXED`] values.

//!
//! Where: this file holds the entry points and the walk over one schema's keywords;
//! `references` follows `$ref` and `$dynamicRef` with their base URIs, `combinators` the
//! keywords that apply subschemas in place, `read_write` the `readOnly`/`writeOnly` exemptions,
//! `keywords` the keywords of each value type, `marks` what `unevaluated*` sees, `scope` the
//! identifiers, `pattern` the ECMA-262 rewrite, `pattern_tree` and `matcher` its reading and
//! running.

#![deny(missing_docs)]

mod format;
mod keywords;
mod marks;
mod matcher;
mod pattern;
pub mod pattern_tree;
mod problem;
mod scope;
mod uri;
mod values;

mod combinators;
mod read_write;
mod references;

#[cfg(all(test, not(target_arch = "wasm32")))]
mod cross_check;
#[cfg(test)]
mod tests;

use playground_openapi::json::Key;
use std::borrow::Cow;

use serde_json::Value;

pub use keywords::check_scalar;
use marks::Marks;
pub use matcher::MAX_PATTERN_STEPS;
pub use pattern::{MAX_COUNT, Pattern, Patterns, Translation, compile_patterns, ecma_to_regex};
use playground_openapi::schema::Direction;
use problem::{Fail, Found};
pub use problem::{Problem, Step};
use scope::{Index, Place};
pub use scope::{MAX_INDEXED, Resources};
pub use values::same;
use values::{KNOWN_TYPES, UNENFORCED, child, describe, has_type, is_integral, type_error, usize_of};

/// Nested schema levels (one per value level and one per `allOf`/`$ref`/… step) checked before
/// giving up with "nested too deep".
pub const MAX_DEPTH: usize = 128;

/// Schema visits for one value before giving up (pathological `anyOf` nests).
pub const MAX_STEPS: usize = 1_000_000;

/// Keywords that say something about a schema without constraining it: a `$ref` whose siblings
/// are all of these is read as the target alone, without copying it.
const ANNOTATIONS: [&str; 11] = [
    "description",
    "title",
    "summary",
    "example",
    "examples",
    "default",
    "deprecated",
    "externalDocs",
    "xml",
    "$comment",
    "discriminator",
];

/// Keywords beside a `$ref` that name or hold schemas without constraining the value (3.1):
/// with only these and [`ANNOTATIONS`] beside it, a `$ref` reads as its target alone.
const IDENTIFIERS: [&str; 8] =
    ["$id", "$anchor", "$dynamicAnchor", "$schema", "$defs", "definitions", "$vocabulary", "$comment"];

/// Keywords only JSON Schema 2020-12 has: a `$ref` beside which or in whose target one is
/// written is read as 2020-12 says (its siblings apply besides the target, in place) in the
/// default reading too, where older habits would lay them over the target.
const MODERN: [&str; 7] =
    ["$id", "$anchor", "$dynamicAnchor", "$dynamicRef", "$defs", "unevaluatedProperties", "unevaluatedItems"];

/// A schema with its `$ref`s followed, and the last reference's target and text.
type Resolved<'s, 'a> = (Cow<'s, Value>, Option<(&'a Value, String)>);

/// Reads schemas of one document; compiled `pattern`s are shared.
#[derive(Debug, Clone, Copy)]
pub struct Validator<'a> {
    doc: &'a Value,
    patterns: &'a Patterns,
    direction: Option<Direction>,
    formats: Formats,
    /// The strict reading ([`Validator::strict`]).
    strict: bool,
    /// The document is OpenAPI 3.0 (Swagger 2 arrives converted to it).
    openapi_3_0: bool,
    /// Other documents `$ref`s may name.
    resources: Option<&'a Resources>,
}

/// How string `format`s are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Formats {
    /// As annotations: no format constrains a value (how most validators read them unless
    /// told otherwise).
    Ignored,
    /// The formats defined strictly enough are enforced; the loose ones let values through,
    /// unsurely.
    Lenient,
    /// The loose formats this crate can read are asserted too.
    Strict,
}

/// What a [`Validator::verdict`] finds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// The value satisfies the schema.
    Valid,
    /// The value passed, but only because a keyword is not enforced or not read in full (a
    /// loose format, a pattern that does not compile, `unevaluatedProperties`), or the check
    /// stopped at its caps: a stricter reader might refuse it.
    Unsure,
    /// The value breaks the schema (or the schema is broken).
    Invalid,
}

/// The state of one [`Validator::check`]: how deep it is, how much it has done, which
/// referenced schemas it is inside of for which values (to stop at cycles), and whether a pass
/// so far is less than sure.
#[derive(Debug)]
struct Walk {
    depth: usize,
    steps: usize,
    /// Schema visits allowed.
    max_steps: usize,
    /// The check stopped at [`Walk::max_steps`] or [`MAX_DEPTH`] somewhere.
    capped: bool,
    active: Vec<(*const Value, *const Value)>,
    /// The checks so far passed something only because a keyword is not enforced.
    lax: bool,
    /// A `oneOf` on the way passed more than one branch when the keywords this validator does
    /// not enforce (loose formats, discriminators) are counted as passing, as most validators
    /// count them.
    ambiguous: bool,
    /// The check goes on past a part of an object or a list that fails, to find every
    /// problem ([`Validator::problems`]); never inside a combinator's branch.
    go_on: bool,
    /// The most problems gathered.
    limit: usize,
    /// The base URIs of the schemas entered, innermost last: where references resolve from,
    /// and the dynamic scope of `$dynamicRef`. Empty: the document's own base, "".
    bases: Vec<String>,
    /// The identifiers of the document and its resources, once a reference needs them.
    index: Option<Index>,
    /// What the schemas applied so far to the value being checked evaluated, when one of them
    /// has `unevaluatedProperties` or `unevaluatedItems`.
    marks: Option<Marks>,
}

impl Walk {
    fn new(max_steps: usize) -> Self {
        Self {
            depth: 0,
            steps: 0,
            max_steps,
            capped: false,
            active: Vec::new(),
            lax: false,
            ambiguous: false,
            go_on: false,
            limit: 1,
            bases: Vec::new(),
            index: None,
            marks: None,
        }
    }

    /// The base URI references resolve from here.
    fn base(&self) -> &str {
        self.bases.last().map_or("", String::as_str)
    }
}

impl<'a> Validator<'a> {
    /// A validator that requires every `required` property whatever its `readOnly` or
    /// `writeOnly` (the Petstore mock's rule; see [`Validator::direction`]) and gives the
    /// document the benefit of the doubt (see [`Validator::strict`]). `patterns` keeps the
    /// compiled patterns: compiled before ([`compile_patterns`]) or as they are met.
    #[must_use]
    pub fn new(doc: &'a Value, patterns: &'a Patterns) -> Self {
        let openapi_3_0 = doc.key("openapi").and_then(Value::as_str).is_some_and(|v| v.starts_with("3.0"));
        Self {
            doc,
            patterns,
            direction: None,
            formats: Formats::Lenient,
            strict: false,
            openapi_3_0,
            resources: None,
        }
    }

    /// Lends the documents that `$ref`s to other addresses read (the document itself has the
    /// address ""; its `$id`s name its parts). Without them such a reference is reported as a
    /// broken document.
    #[must_use]
    pub fn resources(self, resources: &'a Resources) -> Self {
        Self { resources: Some(resources), ..self }
    }

    /// Reads `readOnly` and `writeOnly` for values travelling `direction`: a request may leave
    /// out a required `readOnly` property, a response a required `writeOnly` one.
    #[must_use]
    pub fn direction(self, direction: Direction) -> Self {
        Self { direction: Some(direction), ..self }
    }

    /// Reads the document as strictly as a validator might, where the default reading gives it
    /// the benefit of the doubt (the mock's: it does not refuse what some real server would
    /// take). Loose formats are asserted where this crate can read them: email addresses as
    /// RFC 5321's dot-atom, host names, URI references, IRIs, durations and base64. `nullable`
    /// adds null to a `type` and to nothing else (OpenAPI 3.0.3): null must still pass the
    /// schema's `enum` and combinators, and `nullable` without `type` allows nothing. A
    /// `$ref`'s siblings are ignored in a 3.0 document, as 3.0 says (but for `readOnly` and
    /// `writeOnly`, which still say what was meant), and hold besides the target in a 3.1
    /// one, rather than replacing its keywords. The generator's reading: a value it calls exact
    /// must pass everywhere.
    #[must_use]
    pub fn strict(self) -> Self {
        Self { formats: Formats::Strict, strict: true, ..self }
    }

    /// Checks `value` against `schema`; `path` names the value in messages ("" for the body).
    ///
    /// # Errors
    /// What the value breaks first, in words naming it.
    pub fn check(&self, schema: &Value, value: &Value, path: &str) -> Result<(), String> {
        Ok(self.check_at(schema, value, path, schema, &mut Walk::new(MAX_STEPS))?)
    }

    /// What `value` breaks of `schema`, each problem with where it is and its keyword; empty
    /// when the value is valid. The check goes on past a field or an item that fails, so every
    /// part's problem is listed (one per part: the first it breaks), up to `limit` (at least
    /// one); the first is the one [`Validator::check`] reports. A combinator's branches are
    /// checked to their first problem: a value that matches no `anyOf` branch has the first
    /// branch's.
    #[must_use]
    pub fn problems(&self, schema: &Value, value: &Value, path: &str, limit: usize) -> Vec<Problem> {
        let mut walk = Walk::new(MAX_STEPS);
        walk.limit = limit.max(1);
        walk.go_on = walk.limit > 1;
        self.check_at(schema, value, path, schema, &mut walk).err().map_or_else(Vec::new, Fail::into_problems)
    }

    /// Whether `value` satisfies `schema`, telling a sure pass from one that leans on a keyword
    /// not read in full. At most `budget` schema visits are made (and taken off it); a check
    /// that runs out, or nests past [`MAX_DEPTH`], is [`Verdict::Unsure`] rather than failed.
    #[must_use]
    pub fn verdict(&self, schema: &Value, value: &Value, budget: &mut usize) -> Verdict {
        if *budget == 0 {
            return Verdict::Unsure;
        }
        let mut walk = Walk::new(*budget);
        let result = self.check_at(schema, value, "", schema, &mut walk);
        *budget = budget.saturating_sub(walk.steps);
        match result {
            _ if walk.capped => Verdict::Unsure,
            Ok(()) if walk.lax => Verdict::Unsure,
            Ok(()) => Verdict::Valid,
            Err(_) => Verdict::Invalid,
        }
    }

    /// As [`Validator::check`], and also refused when a `oneOf` would match more than one
    /// branch for a validator that does not assert formats: for values the mock serves as they
    /// are written (a document's examples), which every client must read as valid.
    pub fn check_unambiguous(&self, schema: &Value, value: &Value, path: &str) -> Result<(), String> {
        self.check(schema, value, path)?;
        // Formats as most validators read them: annotations, so a branch that fails only on a
        // format passes.
        let blind = Self { formats: Formats::Ignored, ..*self };
        let mut walk = Walk::new(MAX_STEPS);
        // The strict check passed, so the blind one can only fail on a `oneOf` that matches
        // more: that is the ambiguity looked for.
        let _ = blind.check_at(schema, value, path, schema, &mut walk);
        if walk.ambiguous {
            return Err(format!(
                "{} matches more than one of the shapes a oneOf allows, counting formats as passing.",
                if path.is_empty() { "The value" } else { path }
            ));
        }
        Ok(())
    }

    /// Checks one schema against one value; `root` is the outermost schema applied to this
    /// value (where `readOnly` flags of sibling `allOf` branches are looked up).
    fn check_at(
        &self,
        schema: &Value,
        value: &Value,
        path: &str,
        root: &Value,
        walk: &mut Walk,
    ) -> Result<(), Fail> {
        self.check_in(schema, None, value, path, root, walk)
    }

    /// [`Validator::check_at`] of a schema whose base URI `entered` is known (it was entered
    /// from elsewhere), else found from the current one and the schema's `$id`.
    fn check_in(
        &self,
        schema: &Value,
        entered: Option<String>,
        value: &Value,
        path: &str,
        root: &Value,
        walk: &mut Walk,
    ) -> Result<(), Fail> {
        let name = if path.is_empty() { "The body" } else { path };
        walk.steps += 1;
        if walk.steps > walk.max_steps {
            walk.capped = true;
            return Err(Fail::new(
                "schema",
                format!("{name} is too complex to check; the checker stops after {} steps.", walk.max_steps),
            ));
        }
        if walk.depth >= MAX_DEPTH {
            walk.capped = true;
            return Err(Fail::new(
                "schema",
                format!("{name} is nested too deep to check; the checker stops at {MAX_DEPTH} levels."),
            ));
        }
        let bases = walk.bases.len();
        match entered {
            Some(base) => walk.bases.push(base),
            None if !self.openapi_3_0 => walk.bases.extend(scope::own_base(schema, walk.base())),
            None => {}
        }
        let result = self.check_resolved(schema, value, path, name, root, walk);
        walk.bases.truncate(bases);
        result
    }

    /// [`Validator::check_at`] past its bounds: references followed, cycles spotted.
    fn check_resolved(
        &self,
        schema: &Value,
        value: &Value,
        path: &str,
        name: &str,
        root: &Value,
        walk: &mut Walk,
    ) -> Result<(), Fail> {
        let (schema, target) = self
            .resolve_schema(schema, walk)
            .map_err(|e| Fail::new("schema", format!("The document is broken: {e}.")))?;
        let visit =
            target.map(|(t, reference)| ((std::ptr::from_ref(t), std::ptr::from_ref(value)), reference));
        if let Some((key, reference)) = &visit {
            if walk.active.contains(key) {
                return Err(looped(reference));
            }
            walk.active.push(*key);
        }
        walk.depth += 1;
        let result = self.apply(&schema, value, path, name, root, walk);
        walk.depth -= 1;
        if visit.is_some() {
            walk.active.pop();
        }
        result
    }

    /// Applies a schema to a value, keeping what it evaluates of an object or a list when a
    /// schema of the value asks ([`Marks`]): its own `unevaluated*`, or one that applies it in
    /// place, whose marks it joins when it passes.
    fn apply(
        &self,
        schema: &Value,
        value: &Value,
        path: &str,
        name: &str,
        root: &Value,
        walk: &mut Walk,
    ) -> Result<(), Fail> {
        let outer = walk.marks.take();
        let inherited = outer.as_ref().is_some_and(|m| m.is_of(value));
        let asks = matches!(value, Value::Object(_) | Value::Array(_))
            && (schema.key("unevaluatedProperties").is_some() || schema.key("unevaluatedItems").is_some());
        walk.marks = (inherited || asks).then(|| Marks::of(value));
        let result = self.apply_keywords(schema, value, path, name, root, walk);
        let mine = std::mem::replace(&mut walk.marks, outer);
        if inherited
            && result.is_ok()
            && let (Some(mine), Some(outer)) = (mine, walk.marks.as_mut())
        {
            outer.join(mine);
        }
        result
    }

    /// Applies the keywords of a resolved schema, in the order the messages have always used:
    /// combinators, `enum`/`const`, `type`, then the keywords of the value's own type.
    fn apply_keywords(
        &self,
        schema: &Value,
        value: &Value,
        path: &str,
        name: &str,
        root: &Value,
        walk: &mut Walk,
    ) -> Result<(), Fail> {
        match schema {
            Value::Object(_) => {}
            Value::Bool(false) => return Err(Fail::new("false", format!("{name} is not allowed here."))),
            _ => return Ok(()),
        }
        let (types, _) = playground_openapi::schema::types(schema);
        let null_named = match schema.key("type") {
            Some(Value::String(t)) => t == "null",
            Some(Value::Array(list)) => list.iter().any(|t| t == "null"),
            _ => false,
        };
        // An unknown type name (Swagger 2's `file`, a typo) constrains nothing rather than all.
        let unknown = types.iter().any(|t| !KNOWN_TYPES.contains(t));
        let typed = (null_named || !types.is_empty()) && !unknown;
        walk.lax |=
            unknown || UNENFORCED.iter().any(|k| schema.key(k).is_some_and(|v| v != &Value::Bool(true)));
        if value.is_null() {
            // 3.0's `nullable` reads as `anyOf: [schema, {type: null}]`: null passes whatever
            // else the schema says (its `enum`, its `allOf`); strictly, it only lets null past
            // the schema's own `type`.
            let nullable = schema.key("nullable").and_then(Value::as_bool) == Some(true);
            if nullable && !self.strict {
                return Ok(());
            }
            if typed && !null_named && !nullable {
                return Err(Fail::of_type(expected(&types), format!("{name} must not be null.")));
            }
        }
        self.check_combinators(schema, value, path, name, root, walk)?;
        keywords::check_listed(schema, value, name)?;
        if typed && !value.is_null() && !types.iter().any(|t| has_type(t, value)) {
            return Err(Fail::of_type(expected(&types), type_error(&types, null_named, value, name)));
        }
        match value {
            Value::Number(n) => keywords::check_number(schema, n, &types, name, &keywords::shown(n)),
            Value::String(text) => self.check_string(schema, text, name, walk),
            Value::Array(items) => self.check_array(schema, items, name, path, walk),
            Value::Object(_) => self.check_object(schema, value, name, path, root, walk),
            Value::Null | Value::Bool(_) => Ok(()),
        }
    }
}

/// The problem of a schema that reaches itself, through `reference`, for the same value.
fn looped(reference: &str) -> Fail {
    Fail::new(
        "schema",
        format!("The document is broken: the schema {reference} contains itself without end."),
    )
}

/// The first of a schema's types that this checker knows, for [`Problem::expected`].
fn expected(types: &[&str]) -> Option<&'static str> {
    types.iter().find_map(|t| KNOWN_TYPES.iter().copied().find(|k| k == t))
}
