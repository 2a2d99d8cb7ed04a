//! A schema as the display tree of the reference ([`SchemaNode`]), with the keywords a tree does
//! not draw as constraints in words.

use serde_json::{Map, Value};

use super::{MAX_DEPTH, MAX_NODES, Property, Reader, SchemaNode, SchemaPart, follow};

/// The schema at `value` as a display tree, at most [`MAX_DEPTH`] levels and [`MAX_NODES`]
/// nodes deep; a schema that refers back to one of its ancestors is not expanded again.
///
/// For [`Reader::Text`], a component met two or more entries below the top (a field of a field,
/// an option of a field) is a node with its own entries, but theirs are not expanded: the
/// Markdown pages list a component's fields only at the top of a tree, and below it name the
/// component, say whether it has fields, and link to its page. Drawn whole, the trees of a
/// large description's responses are thousands of nodes each, nearly all of them never read.
#[must_use]
pub(super) fn schema_node(doc: &Value, value: &Value, reader: Reader) -> SchemaNode {
    let mut tree = Tree { doc, stack: Vec::new(), nodes: 0, reader, entries: 0, last_expanded: None };
    tree.node(value, 0)
}

/// The walk of one schema tree: the component names being expanded, how many nodes so far, and
/// for a text tree how many entries (fields, options, parts) down the walk is and the deepest
/// entry still expanded, when a component cut it.
struct Tree<'a> {
    doc: &'a Value,
    stack: Vec<String>,
    nodes: usize,
    reader: Reader,
    entries: usize,
    last_expanded: Option<usize>,
}

impl Tree<'_> {
    /// The display node of the schema `value`, `depth` levels below the tree's root.
    fn node(&mut self, value: &Value, depth: usize) -> SchemaNode {
        self.nodes += 1;
        if let Some(r) = value.get("$ref").and_then(Value::as_str) {
            return self.reference(value, r, depth);
        }
        let mut node = SchemaNode::default();
        let Some(obj) = value.as_object() else {
            node.kind = if value == &Value::Bool(false) { "nothing".into() } else { "any".into() };
            return node;
        };
        let get = |k: &str| obj.get(k);
        let expand = depth < MAX_DEPTH
            && self.nodes <= MAX_NODES
            && self.last_expanded.is_none_or(|e| self.entries <= e);
        // `Optional[T]`: a `oneOf` or `anyOf` of one schema and `{"type": "null"}` reads as
        // that schema, allowing null, on one line rather than as a list of two.
        if expand && let Some(only) = ["oneOf", "anyOf"].into_iter().find_map(|key| nullable_one(get(key)?)) {
            let mut node = self.node(only, depth + 1);
            node.nullable = true;
            if let Some(description) = get("description").and_then(Value::as_str) {
                node.description = Some(description.to_owned());
            }
            node.constraints.extend(constraints(value, obj));
            return node;
        }
        node.description = get("description").and_then(Value::as_str).map(str::to_owned);
        node.format = get("format").and_then(Value::as_str).map(str::to_owned);
        let (types, nullable) = playground_openapi::schema::types(value);
        let integer = playground_openapi::schema::is_integer(value);
        node.nullable = nullable;
        node.enumeration = get("enum")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .map(|v| if integer { playground_openapi::schema::whole(v) } else { v.clone() })
            .collect();
        node.constraints = constraints(value, obj);
        for key in ["oneOf", "anyOf", "allOf"] {
            if let Some(list) = get(key).and_then(Value::as_array) {
                node.kind = key.to_owned();
                if expand {
                    node.variants = list.iter().map(|v| self.entry(v, depth + 1)).collect();
                } else {
                    node.truncated = true;
                }
                return node;
            }
        }
        node.kind = match types.as_slice() {
            [] if is_null(value) => {
                node.nullable = false;
                "null".to_owned()
            }
            [] => playground_openapi::schema::primary_type(value)
                .or_else(|| values_type(value))
                .unwrap_or("any")
                .to_owned(),
            [one] => (*one).to_owned(),
            many => many.join(" or "),
        };
        if !expand {
            node.truncated = NESTED.iter().any(|k| get(k).is_some_and(|v| v.is_object() || v.is_array()));
            return node;
        }
        self.add_properties(&mut node, obj, depth);
        self.add_items(&mut node, obj, depth);
        self.add_parts(&mut node, obj, depth);
        node
    }

    /// The node of the schema `value` refers to by `$ref` (the reference `r`), named after it; a
    /// node marked truncated, not expanded, when it refers back to an ancestor or the caps are
    /// reached.
    fn reference(&mut self, value: &Value, r: &str, depth: usize) -> SchemaNode {
        let component = component_schema(r);
        let name = component.clone().unwrap_or_else(|| r.rsplit('/').next().unwrap_or(r).to_owned());
        if self.stack.contains(&name) || depth >= MAX_DEPTH || self.nodes > MAX_NODES {
            return SchemaNode {
                name: Some(name),
                component,
                kind: "object".into(),
                truncated: true,
                ..SchemaNode::default()
            };
        }
        let target = match follow(self.doc, value) {
            Ok(target) => target,
            Err(e) => {
                return SchemaNode { kind: "any".into(), description: Some(e), ..SchemaNode::default() };
            }
        };
        let merged = playground_openapi::schema::with_siblings(value, target);
        // A text tree's component two entries down: its own entries are its last expanded.
        let cut = self.reader == Reader::Text
            && component.is_some()
            && self.entries >= 2
            && self.last_expanded.is_none();
        if cut {
            self.last_expanded = Some(self.entries);
        }
        self.stack.push(name.clone());
        let mut inner = self.node(merged.as_ref().unwrap_or(target), depth + 1);
        self.stack.pop();
        if cut {
            self.last_expanded = None;
        }
        inner.name = Some(name);
        inner.component = component;
        inner
    }

    /// Adds the object's `properties` to `node`, each marked required and read-only as the schema
    /// says, and whether no other properties are allowed.
    fn add_properties(&mut self, node: &mut SchemaNode, obj: &Map<String, Value>, depth: usize) {
        let get = |k: &str| obj.get(k);
        let required: Vec<&str> = get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        for (name, prop) in get("properties").and_then(Value::as_object).into_iter().flatten() {
            let read_only =
                follow(self.doc, prop).ok().and_then(|p| p.get("readOnly")).and_then(Value::as_bool);
            node.properties.push(Property {
                name: name.clone(),
                required: required.contains(&name.as_str()),
                read_only: read_only.unwrap_or(false),
                schema: self.entry(prop, depth + 1),
            });
        }
        node.closed =
            [get("additionalProperties"), get("unevaluatedProperties")].contains(&Some(&Value::Bool(false)));
    }

    /// Adds the array's item schemas to `node`: a tuple's (`prefixItems`) as parts, one per
    /// place, and `items`.
    fn add_items(&mut self, node: &mut SchemaNode, obj: &Map<String, Value>, depth: usize) {
        let tuple = obj.get("prefixItems").and_then(Value::as_array);
        for (i, item) in tuple.into_iter().flatten().enumerate() {
            self.part(node, format!("item {}", i + 1), item, depth);
        }
        if let Some(items) = obj.get("items").filter(|i| i.is_object()) {
            if tuple.is_some() {
                // Beside `prefixItems`, `items` is the schema of the items after the tuple's.
                self.part(node, "other items".to_owned(), items, depth);
            } else {
                node.items = Some(Box::new(self.node(items, depth + 1)));
            }
        }
    }

    /// Adds the conditional schemas (`if`, `then`, `else`) and the schema of other properties
    /// to `node`'s parts.
    fn add_parts(&mut self, node: &mut SchemaNode, obj: &Map<String, Value>, depth: usize) {
        for key in ["if", "then", "else"] {
            if let Some(schema) = obj.get(key) {
                self.part(node, key.to_owned(), schema, depth);
            }
        }
        for key in ["additionalProperties", "unevaluatedProperties"] {
            // `true` and `{}` allow anything, as leaving the keyword out does; `false` closes.
            if let Some(schema) = obj.get(key).filter(|s| s.as_object().is_some_and(|o| !o.is_empty())) {
                self.part(node, "other properties".to_owned(), schema, depth);
            }
        }
    }

    /// Adds `schema` to `node`'s parts under `label` (one level down, within the caps as a
    /// property is).
    fn part(&mut self, node: &mut SchemaNode, label: String, schema: &Value, depth: usize) {
        node.parts.push(SchemaPart { label, schema: self.entry(schema, depth + 1) });
    }

    /// The node of an entry of a node's list (a field, an option, a part), one entry further
    /// down. An array's items are not an entry: its line stands for them.
    fn entry(&mut self, value: &Value, depth: usize) -> SchemaNode {
        self.entries += 1;
        let node = self.node(value, depth);
        self.entries -= 1;
        node
    }
}

/// The keywords whose schemas a tree shows under the schema's own line.
const NESTED: [&str; 8] = [
    "properties",
    "items",
    "prefixItems",
    "if",
    "then",
    "else",
    "additionalProperties",
    "unevaluatedProperties",
];

/// The JSON type of every value a schema with no `type` allows by `const` or `enum`, when they
/// share one (`{"const": "x"}` is a string).
fn values_type(schema: &Value) -> Option<&'static str> {
    let of = |v: &Value| match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    };
    let values = playground_openapi::schema::allowed_values(schema)?;
    let first = of(values.first()?);
    values.iter().all(|v| of(v) == first).then_some(first)
}

/// Whether `schema` allows `null` only: `{"type": "null"}`, `{"type": ["null"]}`,
/// `{"const": null}` or `{"enum": [null]}`.
fn is_null(schema: &Value) -> bool {
    let (types, nullable) = playground_openapi::schema::types(schema);
    (types.is_empty() && nullable && schema.get("type").is_some())
        || schema.get("const") == Some(&Value::Null)
        || schema.get("enum").and_then(Value::as_array).is_some_and(|e| e.len() == 1 && e[0].is_null())
}

/// The one schema of a `oneOf` or `anyOf` list besides its `null` ones, when it has both.
fn nullable_one(list: &Value) -> Option<&Value> {
    let list = list.as_array()?;
    let mut others = list.iter().filter(|v| !is_null(v));
    let only = others.next()?;
    (others.next().is_none() && list.len() > 1).then_some(only)
}

/// The name `reference` gives in `#/components/schemas/<name>` (escapes undone), when it
/// points at a whole component schema.
pub(crate) fn component_schema(reference: &str) -> Option<String> {
    let fragment = percent_encoding::percent_decode_str(reference.strip_prefix("#/components/schemas/")?)
        .decode_utf8()
        .ok()?;
    (!fragment.contains('/')).then(|| playground_openapi::pointer::unescape_segment(&fragment))
}

/// A schema in a few words, for constraints that name another schema ("string", "Pet",
/// "object with country").
fn summary(schema: &Value) -> String {
    if let Some(r) = schema.get("$ref").and_then(Value::as_str) {
        return r.rsplit('/').next().unwrap_or(r).to_owned();
    }
    if let Some(value) = schema.get("const") {
        return format!(
            "= {}",
            shown(value, playground_openapi::schema::is_integer(schema), MAX_EXAMPLE_CHARS)
        );
    }
    if let Some(required) = schema.get("required").and_then(Value::as_array).filter(|r| !r.is_empty()) {
        let names: Vec<&str> = required.iter().filter_map(Value::as_str).collect();
        return format!("with {}", names.join(", "));
    }
    if let Some(properties) = schema.get("properties").and_then(Value::as_object).filter(|p| !p.is_empty()) {
        let described: Vec<String> =
            properties.iter().map(|(name, p)| format!("{name} {}", summary(p))).collect();
        return described.join(", ");
    }
    let (types, nullable) = playground_openapi::schema::types(schema);
    match (types.is_empty(), nullable) {
        (true, true) => "null".to_owned(),
        (true, false) => "any value".to_owned(),
        (false, false) => types.join(" or "),
        (false, true) => format!("{} or null", types.join(" or ")),
    }
}

/// At most this many of a schema's `examples` are shown, each in at most
/// [`MAX_EXAMPLE_CHARS`] characters.
const MAX_EXAMPLES: usize = 5;
const MAX_EXAMPLE_CHARS: usize = 60;

/// `value` as JSON on one line, whole numbers for an `integer` schema, cut at `max` characters.
fn shown(value: &Value, integer: bool, max: usize) -> String {
    let text = if integer { playground_openapi::schema::whole(value) } else { value.clone() }.to_string();
    match text.char_indices().nth(max) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text,
    }
}

/// The keywords of `schema` (whose members are `obj`) that its tree does not draw, in words.
fn constraints(schema: &Value, obj: &Map<String, Value>) -> Vec<String> {
    let integer = playground_openapi::schema::is_integer(schema);
    let mut out = Vec::new();
    limits(schema, obj, &mut out);
    values(obj, integer, &mut out);
    out.extend(discriminator(obj));
    out.extend(contains(obj));
    requirements(obj, &mut out);
    other_schemas(obj, &mut out);
    annotations(obj, &mut out);
    out
}

/// The number at `key` as written, when it is one.
fn number(obj: &Map<String, Value>, key: &str) -> Option<String> {
    obj.get(key).filter(|v| v.is_number()).map(Value::to_string)
}

/// A count between the numbers at `min` and `max` in words ("1 to 5", "at least 1"), each
/// followed by `unit`; `None` when neither is there.
fn count(obj: &Map<String, Value>, min: &str, max: &str, unit: &str) -> Option<String> {
    match (number(obj, min), number(obj, max)) {
        (Some(a), Some(b)) => Some(format!("{a} to {b}{unit}")),
        (Some(a), None) => Some(format!("at least {a}{unit}")),
        (None, Some(b)) => Some(format!("at most {b}{unit}")),
        (None, None) => None,
    }
}

/// The lengths, bounds and sizes: `minLength` and `maxLength`, `minimum` and `maximum` (and
/// their exclusive forms), `minItems` and `maxItems`, `minProperties` and `maxProperties`.
fn limits(schema: &Value, obj: &Map<String, Value>, out: &mut Vec<String>) {
    out.extend(count(obj, "minLength", "maxLength", " characters"));
    match (playground_openapi::schema::lower_bound(schema), playground_openapi::schema::upper_bound(schema)) {
        (Some(a), Some(b)) if !a.exclusive && !b.exclusive => {
            out.push(format!("{} to {}", a.written, b.written))
        }
        (a, b) => {
            if let Some(a) = a {
                out.push(format!("{} {}", if a.exclusive { ">" } else { "≥" }, a.written));
            }
            if let Some(b) = b {
                out.push(format!("{} {}", if b.exclusive { "<" } else { "≤" }, b.written));
            }
        }
    }
    out.extend(count(obj, "minItems", "maxItems", " items"));
    out.extend(count(obj, "minProperties", "maxProperties", " properties"));
}

/// The rules on values and the values named: `uniqueItems`, `pattern`, `multipleOf`, `default`,
/// `const` and `examples`, whole numbers for an `integer` schema.
fn values(obj: &Map<String, Value>, integer: bool, out: &mut Vec<String>) {
    if obj.get("uniqueItems").and_then(Value::as_bool) == Some(true) {
        out.push("unique items".into());
    }
    if let Some(p) = obj.get("pattern").and_then(Value::as_str) {
        out.push(format!("pattern {p}"));
    }
    if let Some(m) = obj.get("multipleOf").filter(|v| v.is_number()) {
        out.push(format!("multiple of {}", shown(m, integer, MAX_EXAMPLE_CHARS)));
    }
    if let Some(d) = obj.get("default") {
        out.push(format!("default {}", shown(d, integer, MAX_EXAMPLE_CHARS)));
    }
    // JSON Schema 2020-12 (OpenAPI 3.1 and later), shown as constraints in words; the
    // keywords holding schemas of their own (`prefixItems`, `if`, ...) are the tree's parts.
    if let Some(value) = obj.get("const") {
        out.push(format!("always {}", shown(value, integer, MAX_EXAMPLE_CHARS)));
    }
    if let Some(examples) = obj.get("examples").and_then(Value::as_array).filter(|e| !e.is_empty()) {
        let mut values: Vec<String> =
            examples.iter().take(MAX_EXAMPLES).map(|e| shown(e, integer, MAX_EXAMPLE_CHARS)).collect();
        if examples.len() > MAX_EXAMPLES {
            values.push(format!("{} more", examples.len() - MAX_EXAMPLES));
        }
        let lead = if examples.len() == 1 { "example" } else { "examples" };
        out.push(format!("{lead}: {}", values.join(", ")));
    }
}

/// The `discriminator`'s property and its mapping from values to schema names, when it names a
/// property.
fn discriminator(obj: &Map<String, Value>) -> Option<String> {
    let discriminator = obj.get("discriminator")?;
    let property = discriminator.get("propertyName").and_then(Value::as_str).unwrap_or_default();
    let mapping: Vec<String> = discriminator
        .get("mapping")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .map(|(value, target)| {
            // A schema name, or a reference whose last segment names it.
            let target = target.as_str().unwrap_or_default();
            let name = component_schema(target)
                .unwrap_or_else(|| target.rsplit('/').next().unwrap_or(target).to_owned());
            format!("{value} → {name}")
        })
        .collect();
    match (property.is_empty(), mapping.is_empty()) {
        (true, _) => None,
        (false, true) => Some(format!("discriminator: {property}")),
        (false, false) => Some(format!("discriminator: {property}: {}", mapping.join(", "))),
    }
}

/// `contains`, with how many items must match (`minContains` and `maxContains`).
fn contains(obj: &Map<String, Value>) -> Option<String> {
    let contains = obj.get("contains")?;
    let count = count(obj, "minContains", "maxContains", "").map(|c| format!(" ({c})")).unwrap_or_default();
    Some(format!("contains {}{count}", summary(contains)))
}

/// The names required without a schema here, and the names and schemas the presence of a
/// property requires (`dependentRequired`, `dependentSchemas`).
fn requirements(obj: &Map<String, Value>, out: &mut Vec<String>) {
    // Names required without a schema here (`then: {required: [...]}`, an `allOf` part).
    let properties = obj.get("properties").and_then(Value::as_object);
    let required: Vec<&str> = obj
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .filter(|name| !properties.is_some_and(|p| p.contains_key(*name)))
        .collect();
    if !required.is_empty() {
        out.push(format!("{} required", required.join(", ")));
    }
    for (name, needs) in obj.get("dependentRequired").and_then(Value::as_object).into_iter().flatten() {
        let needs: Vec<&str> = needs.as_array().into_iter().flatten().filter_map(Value::as_str).collect();
        if !needs.is_empty() {
            out.push(format!("if {name} is present: {} required", needs.join(", ")));
        }
    }
    for (name, schema) in obj.get("dependentSchemas").and_then(Value::as_object).into_iter().flatten() {
        out.push(format!("with {name}: {}", summary(schema)));
    }
}

/// The schemas a tree does not draw as parts, in a few words: `patternProperties`, items closed
/// after a tuple, and `not`.
fn other_schemas(obj: &Map<String, Value>, out: &mut Vec<String>) {
    if let Some(patterns) = obj.get("patternProperties").and_then(Value::as_object) {
        for (pattern, schema) in patterns {
            out.push(format!("properties matching {pattern}: {}", summary(schema)));
        }
    }
    // `additionalProperties` and `unevaluatedProperties`: `false` closes the object (the tree
    // says "no other properties"), a schema is a part of the tree.
    if obj.get("unevaluatedItems") == Some(&Value::Bool(false))
        || (obj.contains_key("prefixItems") && obj.get("items") == Some(&Value::Bool(false)))
    {
        out.push("no other items".into());
    }
    if let Some(not) = obj.get("not") {
        out.push(format!("not {}", summary(not)));
    }
}

/// The content's encoding and media type, `writeOnly` and `deprecated`.
fn annotations(obj: &Map<String, Value>, out: &mut Vec<String>) {
    let content: Vec<&str> =
        ["contentEncoding", "contentMediaType"].iter().filter_map(|k| obj.get(*k)?.as_str()).collect();
    if !content.is_empty() {
        out.push(content.join(", "));
    }
    if obj.get("writeOnly") == Some(&Value::Bool(true)) {
        out.push("write only".into());
    }
    if obj.get("deprecated") == Some(&Value::Bool(true)) {
        out.push("deprecated".into());
    }
}
