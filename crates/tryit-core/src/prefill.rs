//! The values a try-it panel starts with: the document's own examples where they fit their
//! schemas, else values made by the mock's generator (`playground-generate`) for a request, so the
//! first Send of a prefilled form passes the description's own checks (the in-browser mock's
//! validation). `readOnly` properties are left out of bodies. Every later use (the form, the
//! code samples, "put the example back") reads the view this fills.

use playground_openapi::schema::Direction;
use playground_reference::{ExampleFill, ExampleSlot, OperationView};
use playground_validate::{Patterns, Validator};

/// The seed of prefilled values: the same operation starts with the same values every time.
const SEED: u64 = 0;

/// Replaces the view's body example and parameter examples with values that fit their schemas
/// (read in [`OperationView::schema_document`]): a documented example that fits is kept; one
/// that does not is replaced by a generated one, and a body's `example_notes` say so.
pub fn prefill(view: &mut OperationView) {
    let doc = &view.schema_document;
    let patterns = Patterns::default();
    // Strict: formats asserted as the mock asserts them (a documented "id" that is no UUID).
    let validator = Validator::new(doc, &patterns).direction(Direction::Request).strict();
    for param in &mut view.parameters {
        if param.schema_json.is_null() {
            continue;
        }
        // The form reads an empty field as "not sent": a required parameter needs a value.
        let empty = |value: &serde_json::Value| param.required && value.as_str() == Some("");
        let fits = param
            .example
            .as_ref()
            .is_some_and(|e| !empty(e) && validator.check(&param.schema_json, e, "").is_ok());
        if !fits {
            let mut generated =
                playground_generate::generate(doc, &param.schema_json, SEED, Direction::Request).value;
            if empty(&generated)
                && let serde_json::Value::Object(mut schema) = param.schema_json.clone()
            {
                // An empty `default` ("" for a correlation id): a value of the schema otherwise.
                schema.remove("default");
                generated =
                    playground_generate::generate(doc, &schema.into(), SEED, Direction::Request).value;
            }
            param.example = Some(generated).filter(|v| !v.is_null());
        }
    }
    let Some(body) = view.request_body.as_mut() else { return };
    let Some(schema) = body.media_types.iter().find(|m| m.media_type == body.media_type).map(|m| &m.schema)
    else {
        return;
    };
    if schema.is_null() {
        return;
    }
    if body.documented {
        match validator.check(schema, &body.example, "") {
            Ok(()) => return,
            Err(why) => {
                body.example_notes = vec![format!(
                    "The document's example does not fit its schema ({why}); this one is generated."
                )];
            }
        }
    } else {
        body.example_notes.clear();
    }
    let generated = playground_generate::generate(doc, schema, SEED, Direction::Request);
    body.example_notes.extend(generated.notes);
    body.example = generated.value;
    body.documented = false;
}

/// What the operation's Example blocks show ([`OperationView::example_slots`]): where the
/// document has an example, it stays, with a note when it does not fit its schema (and why);
/// elsewhere a value from the mock's generator (the request's is the one [`prefill`] puts in
/// the form), with what it leaves out. Read before [`prefill`] replaces the body's example.
#[must_use]
pub fn example_fills(view: &OperationView) -> Vec<ExampleFill> {
    fills_of(&view.schema_document, &view.example_slots)
}

/// What the Example blocks `slots` show (see [`example_fills`]), their schemas' `$ref`s read in
/// `doc`: an operation's, or a component schema's page.
#[must_use]
pub fn fills_of(doc: &serde_json::Value, slots: &[ExampleSlot]) -> Vec<ExampleFill> {
    let patterns = Patterns::default();
    let request = Validator::new(doc, &patterns).direction(Direction::Request).strict();
    let answer = Validator::new(doc, &patterns).direction(Direction::Response).strict();
    slots
        .iter()
        .map(|slot| {
            let (validator, direction) =
                if slot.answer { (&answer, Direction::Response) } else { (&request, Direction::Request) };
            match &slot.documented {
                Some(value) => ExampleFill {
                    at: slot.at.clone(),
                    json: None,
                    note: validator.check(&slot.schema, value, "").err().map(|why| {
                        format!(
                            "This example from the document does not fit its schema: {}.",
                            why.to_string().trim_end_matches('.')
                        )
                    }),
                },
                None => {
                    let generated = playground_generate::generate(doc, &slot.schema, SEED, direction);
                    ExampleFill {
                        at: slot.at.clone(),
                        json: Some(serde_json::to_string_pretty(&generated.value).unwrap_or_default()),
                        note: (!generated.notes.is_empty())
                            .then(|| format!("Generated example: {}.", generated.notes.join("; "))),
                    }
                }
            }
        })
        .collect()
}

/// For an item path whose last segment is a parameter (`/books/{book_id}`), the collection
/// path before it (`/books`) and the parameter's name: against the in-browser mock, the
/// parameter starts on the id the reader last created there ([`created_id`]), else on the
/// first the mock lists ([`held_id`]).
#[must_use]
pub fn item_collection(view: &OperationView) -> Option<(String, String)> {
    let (collection, last) = view.path.trim_end_matches('/').rsplit_once('/')?;
    let name = last.strip_prefix('{')?.strip_suffix('}')?;
    if collection.is_empty() || !view.parameters.iter().any(|p| p.location == "path" && p.name == name) {
        return None;
    }
    Some((collection.to_owned(), name.to_owned()))
}

/// The id a listed collection holds for the path parameter `param`: of its first item, the
/// property named like the parameter, else `id`. The list is the answer's array, or the first
/// array of a wrapper (`{"data": [...]}`).
#[must_use]
pub fn held_id(listed: &serde_json::Value, param: &str) -> Option<String> {
    use serde_json::Value;
    let items = match listed {
        Value::Array(items) => items,
        Value::Object(fields) => fields.values().find_map(Value::as_array)?,
        _ => return None,
    };
    let first = items.first()?;
    let id = first.get(param).or_else(|| first.get("id"))?;
    match id {
        Value::String(text) if !text.is_empty() => Some(text.clone()),
        Value::Number(number) => Some(number.to_string()),
        _ => None,
    }
}

/// The created item's collection and id, from a create's `Location` (`/books/7`, or a full
/// URL): `("/books", "7")`.
#[must_use]
pub fn created_id(location: &str) -> Option<(String, String)> {
    let path =
        location.split_once("://").map_or(location, |(_, rest)| rest.find('/').map_or("", |at| &rest[at..]));
    let path = path.split(['?', '#']).next().unwrap_or_default().trim_end_matches('/');
    let (collection, id) = path.rsplit_once('/')?;
    (!collection.is_empty() && !id.is_empty()).then(|| (collection.to_owned(), id.to_owned()))
}
