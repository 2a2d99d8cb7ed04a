//! The values a try-it panel starts with: the document's own examples where they fit their
//! schemas, else values made by the mock's generator (`petstore-generate`) for a request, so the
//! first Send of a prefilled form passes the description's own checks (the in-browser mock's
//! validation). `readOnly` properties are left out of bodies. Every later use (the form, the
//! code samples, "put the example back") reads the view this fills.

use petstore_openapi::schema::Direction;
use petstore_reference::OperationView;
use petstore_validate::{Patterns, Validator};

/// The seed of prefilled values: the same operation starts with the same values every time.
const SEED: u64 = 0;

/// Replaces the view's body example and parameter examples with values that fit their schemas
/// (read in [`OperationView::schema_document`]): a documented example that fits is kept; one
/// that does not is replaced by a generated one, and a body's `example_notes` say so.
pub fn prefill(view: &mut OperationView) {
    let doc = &view.schema_document;
    let patterns = Patterns::default();
    let validator = Validator::new(doc, &patterns).direction(Direction::Request);
    for param in &mut view.parameters {
        if param.schema_json.is_null() {
            continue;
        }
        let fits = param.example.as_ref().is_some_and(|e| validator.check(&param.schema_json, e, "").is_ok());
        if !fits {
            let generated = petstore_generate::generate(doc, &param.schema_json, SEED, Direction::Request);
            param.example = Some(generated.value).filter(|v| !v.is_null());
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
    let generated = petstore_generate::generate(doc, schema, SEED, Direction::Request);
    body.example_notes.extend(generated.notes);
    body.example = generated.value;
    body.documented = false;
}
