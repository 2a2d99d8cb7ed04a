//! The parts of an operation's view, each read on its own so that a broken reference spoils
//! only its part: parameters, the request body, responses, and their examples.

use serde_json::Value;

use super::Reader;
use super::tree::schema_node;
use super::{BodyView, ExampleSlot, ParameterView, ResponseView, follow, generate_example};

/// Prefers JSON (`application/json`, then any `+json`), else the first media type.
fn pick_media(content: Option<&Value>) -> (Option<String>, Option<&Value>) {
    let Some(map) = content.and_then(Value::as_object) else { return (None, None) };
    let pick = map
        .iter()
        .find(|(k, _)| k.as_str() == "application/json")
        .or_else(|| map.iter().find(|(k, _)| k.ends_with("+json") || k.ends_with("/json")))
        .or_else(|| map.iter().next());
    pick.map_or((None, None), |(k, v)| (Some(k.clone()), Some(v)))
}

/// The request body of an operation; `None` when it has no content.
pub(super) fn body(doc: &Value, b: &Value, reader: Reader) -> Result<Option<BodyView>, String> {
    let b = follow(doc, b)?;
    let (media_type, media) = pick_media(b.get("content"));
    let Some(media) = media else { return Ok(None) };
    let schema_value = media.get("schema").cloned().unwrap_or(Value::Null);
    let (example, example_notes, documented) = match media_examples(doc, media).into_iter().next() {
        Some((_, value)) => (value, Vec::new(), true),
        None => {
            let generated = generate_example(doc, &schema_value);
            (generated.value, generated.notes, false)
        }
    };
    // Every media type the body may be sent as, with its schema (the top `$ref` followed).
    let media_types = b
        .get("content")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .take(super::MAX_MEDIA_TYPES)
        .map(|(name, m)| super::MediaOption {
            media_type: name.clone(),
            schema: m.get("schema").map(|s| resolved_schema(doc, s)).unwrap_or(Value::Null),
        })
        .collect();
    Ok(Some(BodyView {
        media_types,
        required: b.get("required").and_then(Value::as_bool).unwrap_or(false),
        description: b.get("description").and_then(Value::as_str).map(str::to_owned),
        media_type: media_type.unwrap_or_default(),
        schema: schema_node(doc, &schema_value, reader),
        example,
        example_notes,
        documented,
    }))
}

/// One response; a broken header is left out and named in `problems`.
pub(super) fn response(
    doc: &Value,
    status: &str,
    r: &Value,
    reader: Reader,
    problems: &mut Vec<String>,
) -> Result<ResponseView, String> {
    let r = follow(doc, r)?;
    let mut headers = Vec::new();
    for (name, h) in r.get("headers").and_then(Value::as_object).into_iter().flatten() {
        match follow(doc, h) {
            Ok(h) => {
                let schema = h.get("schema").cloned().unwrap_or(Value::Null);
                let description = h.get("description").and_then(Value::as_str).map(str::to_owned);
                headers.push((name.clone(), description, schema_node(doc, &schema, reader)));
            }
            Err(e) => problems.push(format!("The header {name} of the response {status} is not shown: {e}.")),
        }
    }
    let (media_type, media) = pick_media(r.get("content"));
    let mut documented = false;
    let mut example_notes = Vec::new();
    let mut schema_json = Value::Null;
    let (schema, examples) = match media {
        Some(media) => {
            let schema_value = media.get("schema").cloned().unwrap_or(Value::Null);
            let mut examples = media_examples(doc, media);
            documented = !examples.is_empty();
            if examples.is_empty() && !schema_value.is_null() {
                let generated = generate_example(doc, &schema_value);
                example_notes = generated.notes;
                examples.push(("Generated from the schema".to_owned(), generated.value));
            }
            schema_json = resolved_schema(doc, &schema_value);
            (Some(schema_node(doc, &schema_value, reader)), examples)
        }
        None => (None, Vec::new()),
    };
    Ok(ResponseView {
        status: status.to_owned(),
        description: r.get("description").and_then(Value::as_str).unwrap_or_default().to_owned(),
        headers,
        media_type,
        schema,
        examples,
        documented,
        example_notes,
        schema_json,
    })
}

/// The Example blocks of an operation with a schema to generate or check them with: the
/// request body's (`request`), and each response's (`response/<i>/<j>`).
pub(super) fn example_slots(body: Option<&BodyView>, responses: &[ResponseView]) -> Vec<ExampleSlot> {
    let mut slots = Vec::new();
    if let Some(body) = body
        && let Some(media) = body.media_types.iter().find(|m| m.media_type == body.media_type)
        && !media.schema.is_null()
    {
        slots.push(ExampleSlot {
            at: "request".to_owned(),
            schema: media.schema.clone(),
            documented: body.documented.then(|| body.example.clone()),
            answer: false,
        });
    }
    for (i, response) in responses.iter().enumerate() {
        if response.schema_json.is_null() {
            continue;
        }
        for (j, (_, value)) in response.examples.iter().enumerate() {
            slots.push(ExampleSlot {
                at: format!("response/{i}/{j}"),
                schema: response.schema_json.clone(),
                documented: response.documented.then(|| value.clone()),
                answer: true,
            });
        }
    }
    slots
}

/// A media type's examples: `example`, else each of `examples` that resolves and has a value.
fn media_examples(doc: &Value, media: &Value) -> Vec<(String, Value)> {
    if let Some(example) = media.get("example") {
        return vec![("Example".to_owned(), example.clone())];
    }
    let mut out = Vec::new();
    for (name, ex) in media.get("examples").and_then(Value::as_object).into_iter().flatten() {
        let Ok(ex) = follow(doc, ex) else { continue };
        if let Some(value) = ex.get("value") {
            let label = ex.get("summary").and_then(Value::as_str).unwrap_or(name);
            out.push((label.to_owned(), value.clone()));
        }
    }
    out
}

pub(super) fn parameter(doc: &Value, p: &Value, reader: Reader) -> Result<ParameterView, String> {
    let p = follow(doc, p)?;
    let location = p.get("in").and_then(Value::as_str).unwrap_or("query").to_owned();
    let schema_value = p.get("schema").cloned().unwrap_or(Value::Null);
    let schema = schema_node(doc, &schema_value, reader);
    let example = p.get("example").cloned().or_else(|| {
        p.get("examples")
            .and_then(Value::as_object)
            .and_then(|m| m.values().next())
            .and_then(|e| follow(doc, e).ok())
            .and_then(|e| e.get("value").cloned())
    });
    // Resolved one level down too, so an array's item enum is checked by the try-it form.
    let mut schema_json = resolved_schema(doc, &schema_value);
    if let Some(items) = schema_json.get("items").map(|i| resolved_schema(doc, i)) {
        schema_json["items"] = items;
    }
    let repeated = schema.kind == "array" && p.get("explode").and_then(Value::as_bool).unwrap_or(true);
    Ok(ParameterView {
        name: p.get("name").and_then(Value::as_str).unwrap_or_default().to_owned(),
        required: location == "path" || p.get("required").and_then(Value::as_bool).unwrap_or(false),
        location,
        description: p.get("description").and_then(Value::as_str).map(str::to_owned),
        deprecated: p.get("deprecated").and_then(Value::as_bool).unwrap_or(false),
        schema,
        schema_json,
        example,
        repeated,
    })
}

/// A schema with its `$ref` followed and the reference's siblings laid over the target;
/// `null` when the reference does not resolve.
pub(crate) fn resolved_schema(doc: &Value, schema: &Value) -> Value {
    match follow(doc, schema) {
        Ok(target) => {
            playground_openapi::schema::with_siblings(schema, target).unwrap_or_else(|| target.clone())
        }
        Err(_) => Value::Null,
    }
}
