//! A schema as the display tree of the reference ([`SchemaNode`]), with the keywords a tree does
//! not draw as constraints in words.

use serde_json::{Map, Value};

use super::{MAX_DEPTH, MAX_NODES, Property, SchemaNode, follow};

/// The schema at `value` as a display tree, at most [`MAX_DEPTH`] levels and [`MAX_NODES`]
/// nodes deep; a schema that refers back to one of its ancestors is not expanded again.
#[must_use]
pub(super) fn schema_node(doc: &Value, value: &Value) -> SchemaNode {
    let mut tree = Tree { doc, stack: Vec::new(), nodes: 0 };
    tree.node(value, 0)
}

/// The walk of one schema tree: the component names being expanded, and how many nodes so far.
struct Tree<'a> {
    doc: &'a Value,
    stack: Vec<String>,
    nodes: usize,
}

impl Tree<'_> {
    fn node(&mut self, value: &Value, depth: usize) -> SchemaNode {
        self.nodes += 1;
        if let Some(r) = value.get("$ref").and_then(Value::as_str) {
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
            let merged = petstore_openapi::schema::with_siblings(value, target);
            self.stack.push(name.clone());
            let mut inner = self.node(merged.as_ref().unwrap_or(target), depth + 1);
            self.stack.pop();
            inner.name = Some(name);
            inner.component = component;
            return inner;
        }
        let mut node = SchemaNode::default();
        let Some(obj) = value.as_object() else {
            node.kind = if value == &Value::Bool(false) { "nothing".into() } else { "any".into() };
            return node;
        };
        let get = |k: &str| obj.get(k);
        node.description = get("description").and_then(Value::as_str).map(str::to_owned);
        node.format = get("format").and_then(Value::as_str).map(str::to_owned);
        let (types, nullable) = petstore_openapi::schema::types(value);
        node.nullable = nullable;
        node.enumeration = petstore_openapi::schema::allowed_values(value).unwrap_or_default();
        node.constraints = constraints(value, obj);
        let expand = depth < MAX_DEPTH && self.nodes <= MAX_NODES;
        for key in ["oneOf", "anyOf", "allOf"] {
            if let Some(list) = get(key).and_then(Value::as_array) {
                node.kind = key.to_owned();
                if expand {
                    node.variants = list.iter().map(|v| self.node(v, depth + 1)).collect();
                } else {
                    node.truncated = true;
                }
                return node;
            }
        }
        node.kind = match types.as_slice() {
            [] => petstore_openapi::schema::primary_type(value).unwrap_or("any").to_owned(),
            [one] => (*one).to_owned(),
            many => many.join(" or "),
        };
        if !expand {
            node.truncated = obj.contains_key("properties") || obj.contains_key("items");
            return node;
        }
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
                schema: self.node(prop, depth + 1),
            });
        }
        node.closed =
            [get("additionalProperties"), get("unevaluatedProperties")].contains(&Some(&Value::Bool(false)));
        if let Some(items) = get("items").filter(|i| i.is_object()) {
            node.items = Some(Box::new(self.node(items, depth + 1)));
        }
        node
    }
}

/// The name `reference` gives in `#/components/schemas/<name>` (escapes undone), when it
/// points at a whole component schema.
pub(crate) fn component_schema(reference: &str) -> Option<String> {
    let fragment = percent_encoding::percent_decode_str(reference.strip_prefix("#/components/schemas/")?)
        .decode_utf8()
        .ok()?;
    (!fragment.contains('/')).then(|| petstore_openapi::pointer::unescape_segment(&fragment))
}

/// A schema in a few words, for constraints that name another schema ("string", "Pet",
/// "object with country").
fn summary(schema: &Value) -> String {
    if let Some(r) = schema.get("$ref").and_then(Value::as_str) {
        return r.rsplit('/').next().unwrap_or(r).to_owned();
    }
    if let Some(value) = schema.get("const") {
        return format!("= {value}");
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
    let (types, nullable) = petstore_openapi::schema::types(schema);
    match (types.is_empty(), nullable) {
        (true, true) => "null".to_owned(),
        (true, false) => "any value".to_owned(),
        (false, false) => types.join(" or "),
        (false, true) => format!("{} or null", types.join(" or ")),
    }
}

fn constraints(schema: &Value, obj: &Map<String, Value>) -> Vec<String> {
    let num = |k: &str| obj.get(k).filter(|v| v.is_number()).map(Value::to_string);
    let mut out = Vec::new();
    match (num("minLength"), num("maxLength")) {
        (Some(a), Some(b)) => out.push(format!("{a} to {b} characters")),
        (Some(a), None) => out.push(format!("at least {a} characters")),
        (None, Some(b)) => out.push(format!("at most {b} characters")),
        (None, None) => {}
    }
    match (petstore_openapi::schema::lower_bound(schema), petstore_openapi::schema::upper_bound(schema)) {
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
    match (num("minItems"), num("maxItems")) {
        (Some(a), Some(b)) => out.push(format!("{a} to {b} items")),
        (Some(a), None) => out.push(format!("at least {a} items")),
        (None, Some(b)) => out.push(format!("at most {b} items")),
        (None, None) => {}
    }
    match (num("minProperties"), num("maxProperties")) {
        (Some(a), Some(b)) => out.push(format!("{a} to {b} properties")),
        (Some(a), None) => out.push(format!("at least {a} properties")),
        (None, Some(b)) => out.push(format!("at most {b} properties")),
        (None, None) => {}
    }
    if obj.get("uniqueItems").and_then(Value::as_bool) == Some(true) {
        out.push("unique items".into());
    }
    if let Some(p) = obj.get("pattern").and_then(Value::as_str) {
        out.push(format!("pattern {p}"));
    }
    if let Some(m) = num("multipleOf") {
        out.push(format!("multiple of {m}"));
    }
    if let Some(d) = obj.get("default") {
        out.push(format!("default {d}"));
    }
    // JSON Schema 2020-12 (OpenAPI 3.1 and later), shown as constraints in words.
    if let Some(prefix) = obj.get("prefixItems").and_then(Value::as_array) {
        let items: Vec<String> = prefix.iter().map(summary).collect();
        out.push(format!("first items: {}", items.join(", ")));
    }
    if let Some(contains) = obj.get("contains") {
        let count = match (num("minContains"), num("maxContains")) {
            (Some(a), Some(b)) => format!(" ({a} to {b})"),
            (Some(a), None) => format!(" (at least {a})"),
            (None, Some(b)) => format!(" (at most {b})"),
            (None, None) => String::new(),
        };
        out.push(format!("contains {}{count}", summary(contains)));
    }
    if let Some(condition) = obj.get("if") {
        let mut rule = format!("if {}", summary(condition));
        if let Some(then) = obj.get("then") {
            rule.push_str(&format!(" then {}", summary(then)));
        }
        if let Some(otherwise) = obj.get("else") {
            rule.push_str(&format!(" else {}", summary(otherwise)));
        }
        out.push(rule);
    }
    for (name, needs) in obj.get("dependentRequired").and_then(Value::as_object).into_iter().flatten() {
        let needs: Vec<&str> = needs.as_array().into_iter().flatten().filter_map(Value::as_str).collect();
        out.push(format!("with {name}, also {}", needs.join(", ")));
    }
    for (name, schema) in obj.get("dependentSchemas").and_then(Value::as_object).into_iter().flatten() {
        out.push(format!("with {name}: {}", summary(schema)));
    }
    if let Some(patterns) = obj.get("patternProperties").and_then(Value::as_object) {
        for (pattern, schema) in patterns {
            out.push(format!("properties matching {pattern}: {}", summary(schema)));
        }
    }
    for key in ["additionalProperties", "unevaluatedProperties"] {
        match obj.get(key) {
            Some(Value::Object(schema)) if !schema.is_empty() => {
                out.push(format!("other properties: {}", summary(&Value::Object(schema.clone()))));
            }
            // `false` closes the object: the tree says so ("no other fields").
            _ => {}
        }
    }
    if obj.get("unevaluatedItems") == Some(&Value::Bool(false)) {
        out.push("no other items".into());
    }
    if let Some(not) = obj.get("not") {
        out.push(format!("not {}", summary(not)));
    }
    if let Some(media) = obj.get("contentMediaType").and_then(Value::as_str) {
        out.push(format!("content {media}"));
    }
    if let Some(encoding) = obj.get("contentEncoding").and_then(Value::as_str) {
        out.push(format!("encoded {encoding}"));
    }
    if obj.get("writeOnly") == Some(&Value::Bool(true)) {
        out.push("write only".into());
    }
    if obj.get("deprecated") == Some(&Value::Bool(true)) {
        out.push("deprecated".into());
    }
    out
}
