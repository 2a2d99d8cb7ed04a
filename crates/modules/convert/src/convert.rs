//! The Swagger 2.0 converter: `convertSwagger2(bytes)` reads a Swagger 2.0 document's JSON and gives the OpenAPI 3.0
//! document's JSON with the converter's notes, or why it could not be converted. A page loads
//! it when a document turns out to be Swagger 2.0, so the reference's first download does not
//! carry the converter.

use js_sys::{Array, Object, Reflect, Uint8Array};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TS_RESULT: &'static str = r#"
/**
 * What `convertSwagger2` gives: the OpenAPI 3.0.3 document as JSON (UTF-8) with one sentence
 * for each thing that could not be carried over exactly, or why the document could not be
 * converted, in a sentence.
 */
export type ConvertSwagger2Result = { json: Uint8Array; notes: string[] } | { error: string };
"#;

#[wasm_bindgen]
extern "C" {
    /// `ConvertSwagger2Result` (the TypeScript type above).
    #[wasm_bindgen(typescript_type = "ConvertSwagger2Result")]
    pub type ConvertResult;
}

/// Converts the Swagger 2.0 document in `bytes` (JSON; YAML must be read into JSON first) to
/// OpenAPI 3.0.3: `{json, notes}`, or `{error}`.
#[wasm_bindgen(js_name = convertSwagger2)]
#[must_use]
pub fn convert_swagger2(bytes: &[u8]) -> ConvertResult {
    let result = Object::new();
    // Setting a property of a new plain object cannot fail.
    match convert(bytes) {
        Ok((json, notes)) => {
            let _ = Reflect::set(&result, &"json".into(), &Uint8Array::from(json.as_slice()));
            let notes: Array = notes.iter().map(|note| JsValue::from_str(note)).collect();
            let _ = Reflect::set(&result, &"notes".into(), &notes);
        }
        Err(message) => {
            let _ = Reflect::set(&result, &"error".into(), &JsValue::from_str(&message));
        }
    }
    result.unchecked_into()
}

/// The conversion in Rust terms: the OpenAPI document's JSON and the notes, or the sentence
/// that says why not (a syntax error with its line and column, or the converter's error).
fn convert(bytes: &[u8]) -> Result<(Vec<u8>, Vec<String>), String> {
    let doc = playground_openapi::document::parse_json(bytes).map_err(|e| e.to_string())?;
    let converted = playground_convert::swagger2_to_openapi3(&doc).map_err(|e| e.to_string())?;
    let json = serde_json::to_vec(&converted.document).map_err(|e| e.to_string())?;
    Ok((json, converted.notes))
}
