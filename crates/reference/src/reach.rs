//! What an operation's request schemas reach: a small document holding only the targets of the
//! local `$ref`s they lead to (at their own pointers), so that the try-it module can generate
//! and check values for them without the whole document.

use serde_json::{Map, Value};

/// Targets of `$ref`s kept at most...
const MAX_TARGETS: usize = 2_000;
/// ...and JSON values walked at most, targets included.
const MAX_NODES: usize = 200_000;

/// `{"openapi": <the document's version>, ...}` with the target of every local `$ref` that
/// `roots` lead to, transitively, at its pointer (`#/components/schemas/Book` under
/// `components.schemas.Book`); an array on a pointer's way is an object keyed by the index.
/// Bounded: what is past [`MAX_TARGETS`] or [`MAX_NODES`] is left out (a reference to it then
/// does not resolve, which a generator reads as a schema it cannot honour).
pub(crate) fn schema_document<'a>(doc: &'a Value, roots: impl IntoIterator<Item = &'a Value>) -> Value {
    let mut out = Map::new();
    for key in ["openapi", "swagger", "jsonSchemaDialect"] {
        if let Some(value) = doc.get(key) {
            out.insert(key.to_owned(), value.clone());
        }
    }
    let mut out = Value::Object(out);
    // The walk borrows what it reads; only what it keeps is copied, once.
    let mut seen: Vec<&str> = Vec::new();
    let mut pending: Vec<&Value> = roots.into_iter().collect();
    let mut nodes = 0usize;
    while let Some(value) = pending.pop() {
        let mut stack = vec![value];
        while let Some(node) = stack.pop() {
            nodes += 1;
            if nodes > MAX_NODES {
                return out;
            }
            match node {
                Value::Object(map) => {
                    if let Some(reference) = map.get("$ref").and_then(Value::as_str)
                        && let Some(pointer) = reference.strip_prefix('#')
                        && !seen.contains(&pointer)
                        && seen.len() < MAX_TARGETS
                    {
                        seen.push(pointer);
                        if let Some(target) = doc.pointer(pointer) {
                            place(&mut out, pointer, target.clone());
                            pending.push(target);
                        }
                    }
                    stack.extend(map.values());
                }
                Value::Array(items) => stack.extend(items),
                _ => {}
            }
        }
    }
    out
}

/// Puts `value` at `pointer` in `out`, making objects on the way.
fn place(out: &mut Value, pointer: &str, value: Value) {
    let mut at = out;
    let segments: Vec<String> =
        pointer.split('/').skip(1).map(|s| s.replace("~1", "/").replace("~0", "~")).collect();
    let Some((last, path)) = segments.split_last() else { return };
    for segment in path {
        if !at.is_object() {
            *at = Value::Object(Map::new());
        }
        let Value::Object(map) = at else { return };
        at = map.entry(segment.clone()).or_insert_with(|| Value::Object(Map::new()));
    }
    if !at.is_object() {
        *at = Value::Object(Map::new());
    }
    if let Value::Object(map) = at {
        map.insert(last.clone(), value);
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::schema_document;

    #[test]
    fn keeps_what_the_roots_reach_and_nothing_else() {
        let doc = json!({
            "openapi": "3.1.0",
            "paths": {"/x": {}},
            "components": {"schemas": {
                "Book": {"type": "object", "properties": {"author": {"$ref": "#/components/schemas/Author"}}},
                "Author": {"type": "object", "properties": {"books": {"type": "array", "items": {"$ref": "#/components/schemas/Book"}}}},
                "Other": {"type": "string"},
                "a/b": {"type": "integer"}
            }}
        });
        let reached = schema_document(
            &doc,
            [
                &json!({"$ref": "#/components/schemas/Book"}),
                &json!({"items": {"$ref": "#/components/schemas/a~1b"}}),
            ],
        );
        assert_eq!(
            reached,
            json!({
                "openapi": "3.1.0",
                "components": {"schemas": {
                    "Book": doc["components"]["schemas"]["Book"],
                    "Author": doc["components"]["schemas"]["Author"],
                    "a/b": {"type": "integer"}
                }}
            })
        );
        assert_eq!(reached.pointer("/components/schemas/a~1b"), Some(&json!({"type": "integer"})));
        // A reference that does not resolve, or is not local, adds nothing.
        let none = schema_document(
            &doc,
            [&json!({"$ref": "#/components/schemas/Gone"}), &json!({"$ref": "other.yaml#/X"})],
        );
        assert_eq!(none, json!({"openapi": "3.1.0"}));
    }
}
