//! A stored item made from a request: what the client sent, what the server makes, and nothing
//! invented, as a real server's create or replace answers.
//!
//! - The server makes the id, the `readOnly` properties (generated; `null` when their schema
//!   names null, as a `deleted_at` is until it is made; a replace keeps the old item's) and
//!   the date-times named for creation or update (`created_at`, `createdAt`, `date_created`,
//!   `updatedAt`, `last_modified`, ...): those take the time of the request from the mock's
//!   [`Clock`](crate::Clock) (a replace keeps the old creation time; a patch sets the update
//!   time), or a generated date without one. What a client sends for them is not taken, unless
//!   the request's schema lets the client set a time.
//! - An optional property the client left out stays out, unless the description says what it
//!   is then: its `default` (FastAPI's `List[str] = []` is `default: []`), an example (the
//!   property's, or the item's) that is `null` or empty, or `null` when its schema names null
//!   (FastAPI's `Optional[str] = None` is `anyOf [string, null]`, written with `default: null`
//!   or, by FastAPI 0.115, without a default). So do the properties left out of an object the
//!   client sent (FastAPI's `Optional[Publisher]`), as pydantic fills them.
//! - A required property the client did not send (the answer's schema may ask for more than the
//!   request's) takes its default, the old item's value (a replace), `null` when its schema names
//!   null, else generated data, so the item stays valid. An item that still is not valid (a
//!   `minProperties`, a `oneOf`) is made as before: generated data with the client's fields over
//!   it.

use playground_openapi::json::Key;
use serde_json::{Map, Value};

use super::clock::moment;
use super::generate::generate;
use super::resources::{Resource, properties};
use super::spec::{Operation, Spec};
use playground_openapi::pointer::resolve;
use playground_openapi::schema::Direction;

/// Names, lowercase and without `_` or `-`, of date-times set when an item is created.
const CREATED: [&str; 16] = [
    "created",
    "createdat",
    "createdon",
    "createddate",
    "createdtime",
    "createddatetime",
    "createdtimestamp",
    "creationdate",
    "creationtime",
    "creationtimestamp",
    "datecreated",
    "timecreated",
    "createtime",
    "createdate",
    "insertedat",
    "addedat",
];

/// Names, lowercase and without `_` or `-`, of date-times set whenever an item changes.
const UPDATED: [&str; 22] = [
    "updated",
    "updatedat",
    "updatedon",
    "updateddate",
    "updatedtime",
    "updatetime",
    "updatedate",
    "dateupdated",
    "timeupdated",
    "lastupdated",
    "lastupdatedat",
    "modified",
    "modifiedat",
    "modifiedon",
    "modifieddate",
    "modifiedtime",
    "datemodified",
    "timemodified",
    "lastmodified",
    "lastmodifiedat",
    "lastmodifieddate",
    "modificationdate",
];

/// When the server sets a time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum When {
    Created,
    Updated,
}

/// Who makes a property's value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Maker {
    /// The client, or the description's default.
    Client,
    /// The resource's id, written last.
    Id,
    /// The server: a `readOnly` property.
    ReadOnly,
    /// The server: the time of the request, in `format` (`date-time` or `date`); `settable`
    /// when the request's schema lets the client send it.
    Time { when: When, format: &'static str, settable: bool },
}

/// One declared property of the item.
struct Field<'a> {
    name: &'a str,
    schema: &'a Value,
    required: bool,
    maker: Maker,
    /// Its `default`, when that fits it.
    default: Option<&'a Value>,
    /// Its schema names null (`nullable`, a `null` type or branch) and takes it.
    nullable: bool,
    /// An example of it (its own or the item's) that is `null` or empty.
    empty_example: Option<&'a Value>,
}

/// Makes the items of one resource for one operation.
pub(crate) struct Making<'a> {
    pub spec: &'a Spec,
    pub resource: &'a Resource,
    /// The operation's JSON request schema (the item inside its wrapper), which says what a
    /// client may set.
    pub request: Option<&'a Value>,
    /// The time of the request, in milliseconds since 1970.
    pub now: Option<i64>,
    pub seed: u64,
}

impl<'a> Making<'a> {
    /// How `op` makes items of `resource`.
    pub(crate) fn new(
        spec: &'a Spec,
        resource: &'a Resource,
        op: &'a Operation,
        now: Option<i64>,
        seed: u64,
    ) -> Self {
        let body = op.body.as_ref().and_then(|body| {
            let json = body.content.iter().find(|(media, _)| playground_http::form::is_json(media));
            json.or_else(|| body.content.first()).and_then(|(_, schema)| schema.as_ref())
        });
        let request = match (&resource.wrapper, body) {
            (Some(wrapper), Some(body)) => properties(spec, body)
                .into_iter()
                .find(|(name, _)| name == wrapper)
                .map(|(_, schema)| schema)
                .or(Some(body)),
            (None, body) => body,
            (_, None) => None,
        };
        Self { spec, resource, request, now, seed }
    }

    /// A created item (`old` is `None`) or the item that replaces `old`, with its id.
    pub(crate) fn item(&self, id: &str, body: Option<Value>, old: Option<&Value>) -> Value {
        let resource: &'a Resource = self.resource;
        let Some(schema) = &resource.item_schema else {
            let mut item = body.unwrap_or_else(|| Value::Object(Map::new()));
            self.resource.set_id(&mut item, id);
            return item;
        };
        let seed = self.seed ^ super::hash(&format!("{}#{id}", self.resource.collection));
        let mut generated = generate(&self.spec.doc, schema, seed, Direction::Response).value;
        if !generated.is_object() {
            generated = Value::Object(Map::new());
        }
        let fields = self.fields(schema);
        let validator = self.spec.validator().direction(Direction::Response);
        let body = body.map(|mut body| {
            self.fill_defaults(schema, &mut body, 0);
            body
        });
        let lean = self.lean(&fields, generated.clone(), old, seed);
        let lean = self.finish(schema, &fields, lean, body.as_ref(), old, id);
        if validator.check(schema, &lean, "").is_ok() {
            return lean;
        }
        let full = self.finish(schema, &fields, generated, body.as_ref(), old, id);
        if validator.check(schema, &full, "").is_ok() { full } else { lean }
    }

    /// A patched item with its update times set, but for those the patch sets itself where the
    /// client may.
    pub(crate) fn touch(&self, item: &mut Value, patch: Option<&Value>) {
        let resource: &'a Resource = self.resource;
        let (Some(schema), Some(now)) = (&resource.item_schema, self.now) else { return };
        let sent = |name: &str| patch.and_then(|p| p.get(name)).is_some();
        let Value::Object(target) = item else { return };
        for field in self.fields(schema) {
            if let Maker::Time { when: When::Updated, format, settable } = field.maker
                && !(settable && sent(field.name))
                && let Some(value) = self.time(&field, now, format)
            {
                target.insert(field.name.to_owned(), value);
            }
        }
    }

    /// The declared properties of the item, with who makes each.
    fn fields(&self, schema: &'a Value) -> Vec<Field<'a>> {
        let spec = self.spec;
        let required = required(spec, schema);
        let item_examples: Vec<&Value> = parts(spec, schema).into_iter().filter_map(example).collect();
        let validator = spec.validator().direction(Direction::Response);
        properties(spec, schema)
            .into_iter()
            .map(|(name, prop)| {
                let prop_parts = parts(spec, prop);
                let read_only =
                    prop_parts.iter().any(|p| p.key("readOnly").and_then(Value::as_bool) == Some(true));
                let maker = if self.resource.id_field.as_deref() == Some(name) {
                    Maker::Id
                } else if let (Some(when), Some(format)) = (when(name), time_format(spec, &prop_parts)) {
                    Maker::Time { when, format, settable: !read_only && self.settable(name) }
                } else if read_only {
                    Maker::ReadOnly
                } else {
                    Maker::Client
                };
                let (default, nullable) = left_out(spec, prop, &prop_parts);
                let empty_example = prop_parts
                    .iter()
                    .copied()
                    .filter_map(example)
                    .chain(item_examples.iter().filter_map(|e| e.get(name)))
                    .find(|e| is_empty(e))
                    .filter(|e| validator.check(prop, e, "").is_ok());
                let required = required.contains(&name);
                Field { name, schema: prop, required, maker, default, nullable, empty_example }
            })
            .collect()
    }

    /// Whether the client may send the property: the request's schema declares it (and not
    /// read-only), or declares no properties at all (nothing says otherwise).
    pub(crate) fn settable(&self, name: &str) -> bool {
        let declared = self.request.map(|request| properties(self.spec, request)).unwrap_or_default();
        declared.is_empty()
            || declared.into_iter().any(|(n, prop)| {
                n == name
                    && !parts(self.spec, prop)
                        .iter()
                        .any(|p| p.key("readOnly").and_then(Value::as_bool) == Some(true))
            })
    }

    /// The generated item with only what a server makes of nothing: required properties,
    /// defaults, `null` or empty examples, what the server makes (the old item's, when there is
    /// one); every other declared property left out. What the schema declares elsewhere (a
    /// `oneOf` branch's properties) stays as generated.
    fn lean(&self, fields: &[Field<'_>], generated: Value, old: Option<&Value>, seed: u64) -> Value {
        let Value::Object(mut item) = generated else { return generated };
        let kept = |name: &str| old.and_then(|o| o.get(name)).cloned();
        // A property the generated item lacks (it came from the item's example): its own.
        let own = |field: &Field<'_>| {
            let seed = seed ^ super::hash(field.name);
            generate(&self.spec.doc, field.schema, seed, Direction::Response).value
        };
        for field in fields {
            let name = field.name;
            let value = match field.maker {
                Maker::Id => continue,
                // A server-made field that may be null (`deleted_at`) is null until it is made.
                Maker::ReadOnly => kept(name)
                    .or_else(|| field.default.cloned())
                    .or_else(|| field.nullable.then_some(Value::Null))
                    .or_else(|| (!item.contains_key(name)).then(|| own(field))),
                Maker::Time { .. } => kept(name)
                    .or_else(|| field.default.cloned())
                    .or_else(|| field.nullable.then_some(Value::Null)),
                Maker::Client if field.required => field
                    .default
                    .cloned()
                    .or_else(|| kept(name))
                    .or_else(|| field.nullable.then_some(Value::Null))
                    .or_else(|| (!item.contains_key(name)).then(|| own(field))),
                Maker::Client => {
                    let empty = field.empty_example.cloned();
                    match field.default.cloned().or(empty).or_else(|| field.nullable.then_some(Value::Null)) {
                        Some(value) => Some(value),
                        None => {
                            item.remove(name);
                            continue;
                        }
                    }
                }
            };
            if let Some(value) = value {
                item.insert(name.to_owned(), value);
            }
        }
        Value::Object(item)
    }

    /// `base` with the client's fields over it (each kept unless it makes a valid item
    /// invalid; none the server makes), the server's times and the id.
    fn finish(
        &self,
        schema: &Value,
        fields: &[Field<'_>],
        mut base: Value,
        body: Option<&Value>,
        old: Option<&Value>,
        id: &str,
    ) -> Value {
        let maker = |name: &str| fields.iter().find(|f| f.name == name).map_or(Maker::Client, |f| f.maker);
        let validator = self.spec.validator().direction(Direction::Response);
        if let (Some(Value::Object(sent)), true) = (body, base.is_object()) {
            // Whether `base` is valid now; `None` when not known since the last change. A valid
            // item stays valid (a field that would break it is put back), so it is checked once
            // per field that may break it, not before and after each.
            let mut valid: Option<bool> = None;
            for (name, value) in sent {
                match maker(name) {
                    Maker::ReadOnly | Maker::Time { settable: false, .. } => continue,
                    Maker::Client | Maker::Id | Maker::Time { settable: true, .. } => {}
                }
                // A request may carry what the stored item cannot hold, such as a value of
                // another type.
                let valid_before = *valid.get_or_insert_with(|| validator.check(schema, &base, "").is_ok());
                let Value::Object(target) = &mut base else { break };
                let previous = target.insert(name.clone(), value.clone());
                if !valid_before {
                    valid = None;
                } else if validator.check(schema, &base, "").is_err()
                    && let Value::Object(target) = &mut base
                {
                    match previous {
                        Some(p) => target.insert(name.clone(), p),
                        None => target.shift_remove(name),
                    };
                }
            }
        }
        if let Value::Object(target) = &mut base {
            let sent = |name: &str| body.and_then(|b| b.get(name)).is_some();
            for field in fields {
                let kept = old.and_then(|o| o.get(field.name));
                match field.maker {
                    Maker::ReadOnly => {
                        if let Some(kept) = kept {
                            target.insert(field.name.to_owned(), kept.clone());
                        }
                    }
                    Maker::Time { settable: true, .. } if sent(field.name) => {}
                    Maker::Time { when, format, .. } => {
                        let made = match (when, kept) {
                            (When::Created, Some(kept)) => Some(kept.clone()),
                            _ => self.now.and_then(|now| self.time(field, now, format)),
                        };
                        if let Some(made) = made {
                            target.insert(field.name.to_owned(), made);
                        }
                    }
                    Maker::Client | Maker::Id => {}
                }
            }
        }
        self.resource.set_id(&mut base, id);
        base
    }

    /// A sent value with the defaults of what it left out (or `null` where the schema names
    /// it) below its top level, as pydantic reads a FastAPI app's request: `{"name": "Penguin"}`
    /// for a publisher whose `city` is `Optional[str] = None` is `{"name": "Penguin", "city":
    /// null}`.
    fn fill_defaults(&self, schema: &Value, value: &mut Value, depth: usize) {
        if depth > 8 {
            return;
        }
        let spec = self.spec;
        let validator = spec.validator().direction(Direction::Response);
        // The schema's parts, and the branches of their `anyOf` or `oneOf` the value fits
        // (FastAPI's `Optional[Publisher]` is `anyOf [Publisher, null]`).
        let mut shapes = parts(spec, schema);
        let mut branches: Vec<&Value> = Vec::new();
        for part in shapes.clone() {
            for key in ["anyOf", "oneOf"] {
                for branch in part.get(key).and_then(Value::as_array).into_iter().flatten() {
                    if validator.check(branch, &*value, "").is_ok() {
                        branches.extend(parts(spec, branch));
                    }
                }
            }
        }
        shapes.extend(branches);
        match value {
            Value::Object(fields) => {
                for part in &shapes {
                    for (name, prop) in
                        part.key("properties").and_then(Value::as_object).into_iter().flatten()
                    {
                        match fields.get_mut(name) {
                            Some(inner) => self.fill_defaults(prop, inner, depth + 1),
                            // The item's own defaults are the lean item's (`lean`).
                            None if depth == 0 => {}
                            None => match left_out(spec, prop, &parts(spec, prop)) {
                                (Some(default), _) => {
                                    fields.insert(name.clone(), default.clone());
                                }
                                (None, true) => {
                                    fields.insert(name.clone(), Value::Null);
                                }
                                (None, false) => {}
                            },
                        }
                    }
                }
            }
            Value::Array(items) => {
                if let Some(each) = shapes.iter().find_map(|part| part.key("items").filter(|i| i.is_object()))
                {
                    for item in items.iter_mut().take(1_000) {
                        self.fill_defaults(each, item, depth + 1);
                    }
                }
            }
            _ => {}
        }
    }

    /// The time `now` as a value of the field, when it fits its schema.
    fn time(&self, field: &Field<'_>, now: i64, format: &str) -> Option<Value> {
        let value = moment(now, format)?;
        let validator = self.spec.validator().direction(Direction::Response);
        validator.check(field.schema, &value, "").is_ok().then_some(value)
    }
}

/// When the server sets a property of this name, if it does.
fn when(name: &str) -> Option<When> {
    let plain: String =
        name.chars().filter(|c| *c != '_' && *c != '-').map(|c| c.to_ascii_lowercase()).collect();
    if CREATED.contains(&plain.as_str()) {
        Some(When::Created)
    } else if UPDATED.contains(&plain.as_str()) {
        Some(When::Updated)
    } else {
        None
    }
}

/// What a property left out is, by its schema `prop` (made of `prop_parts`): its `default`
/// when that fits it, and whether the schema names null (`nullable: true`, a `null` type, a
/// branch of its `anyOf` or `oneOf` that is null alone) and takes it.
fn left_out<'v>(spec: &'v Spec, prop: &Value, prop_parts: &[&'v Value]) -> (Option<&'v Value>, bool) {
    let validator = spec.validator().direction(Direction::Response);
    let default =
        prop_parts.iter().find_map(|p| p.key("default")).filter(|d| validator.check(prop, d, "").is_ok());
    let null_type = |schema: &Value| match schema.key("type") {
        Some(Value::String(t)) => t == "null",
        Some(Value::Array(types)) => types.iter().any(|t| t == "null"),
        _ => false,
    };
    let names_null = prop_parts.iter().any(|part| {
        part.key("nullable").and_then(Value::as_bool) == Some(true)
            || null_type(part)
            || ["anyOf", "oneOf"].into_iter().any(|key| {
                let branches = part.get(key).and_then(Value::as_array).into_iter().flatten();
                branches.filter_map(|branch| resolve(&spec.doc, branch).ok()).any(null_type)
            })
    });
    (default, names_null && validator.check(prop, &Value::Null, "").is_ok())
}

/// `date-time` or `date`, when a property's parts (or a branch of their `anyOf` or `oneOf`,
/// such as FastAPI's `Optional[datetime]`) are strings of that format.
fn time_format(spec: &Spec, parts_of: &[&Value]) -> Option<&'static str> {
    let mut candidates: Vec<&Value> = parts_of.to_vec();
    for part in parts_of {
        for key in ["anyOf", "oneOf"] {
            for branch in part.get(key).and_then(Value::as_array).into_iter().flatten() {
                candidates.extend(resolve(&spec.doc, branch).ok());
            }
        }
    }
    candidates.into_iter().find_map(|p| match p.key("format").and_then(Value::as_str) {
        Some("date-time") => Some("date-time"),
        Some("date") => Some("date"),
        _ => None,
    })
}

/// A schema and what it is made of: its `$ref` target and its `allOf` members, each with theirs
/// (a few levels, a few parts).
fn parts<'v>(spec: &'v Spec, schema: &'v Value) -> Vec<&'v Value> {
    fn walk<'v>(spec: &'v Spec, schema: &'v Value, out: &mut Vec<&'v Value>, depth: usize) {
        if depth > 6 || out.len() >= 32 || out.iter().any(|seen| std::ptr::eq(*seen, schema)) {
            return;
        }
        out.push(schema);
        if schema.key("$ref").is_some()
            && let Ok(target) = resolve(&spec.doc, schema)
        {
            walk(spec, target, out, depth + 1);
        }
        for member in schema.key("allOf").and_then(Value::as_array).into_iter().flatten() {
            walk(spec, member, out, depth + 1);
        }
    }
    let mut out = Vec::new();
    walk(spec, schema, &mut out, 0);
    out
}

/// The names an object schema requires, its `allOf` parts included.
pub(crate) fn required<'v>(spec: &'v Spec, schema: &'v Value) -> Vec<&'v str> {
    let mut names: Vec<&str> = Vec::new();
    for part in parts(spec, schema) {
        for name in
            part.key("required").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str)
        {
            if !names.contains(&name) {
                names.push(name);
            }
        }
    }
    names
}

/// A schema's own example: `example`, else the first of its `examples` list.
fn example(schema: &Value) -> Option<&Value> {
    schema.key("example").or_else(|| schema.key("examples").and_then(Value::as_array).and_then(|e| e.first()))
}

/// `null`, `""`, `[]` or `{}`.
fn is_empty(value: &Value) -> bool {
    match value {
        Value::Null => true,
        Value::String(s) => s.is_empty(),
        Value::Array(items) => items.is_empty(),
        Value::Object(fields) => fields.is_empty(),
        Value::Bool(_) | Value::Number(_) => false,
    }
}
