//! The "first try" of `make corpus` (corpus/first-try.mjs runs it): for every operation of
//! each document, the request a try-it panel starts with (`prefill`, then `request::example`)
//! sent to the mock of the document, whose validation is the in-browser mock's. Prints one
//! JSON line per document: operations, those tried (a JSON body, a form's fields as the form
//! starts, or none; a form that needs a file, and other bodies, are counted apart), the refused ones with the mock's answer, and how many documented body examples
//! contradict their schemas (replaced by generated ones).
//!
//!   cargo run --release -p playground-tryit-core --example first_try -- DOCUMENTS_DIR IDS_FILE

use std::io::Write as _;
use std::path::Path;

use playground_http::form::FormKind;
use playground_mock::ApiMock;
use playground_openapi::Catalog;
use playground_reference::OperationView;
use playground_tryit_core::{prefill::prefill, request};
use serde_json::{Value, json};

/// Refusals kept per document (the rest are counted).
const MAX_LISTED: usize = 20;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [dir, ids] = args.as_slice() else {
        eprintln!("usage: first_try DOCUMENTS_DIR IDS_FILE");
        std::process::exit(2);
    };
    let ids = std::fs::read_to_string(ids).unwrap_or_else(|e| {
        eprintln!("first_try: {ids}: {e}");
        std::process::exit(2);
    });
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for id in ids.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let line = match one(&Path::new(dir).join(id)) {
            Ok(mut result) => {
                result["id"] = json!(id);
                result
            }
            Err(error) => json!({"id": id, "error": error}),
        };
        let _ = writeln!(out, "{line}");
    }
}

fn one(path: &Path) -> Result<Value, String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    let mut doc: Value = serde_json::from_slice(&bytes)
        .or_else(|_| serde_yaml_ng::from_slice(&bytes))
        .map_err(|e| format!("not JSON or YAML: {e}"))?;
    if doc.get("swagger").is_some() {
        doc = playground_convert::swagger2_to_openapi3(&doc).map_err(|e| e.to_string())?.document;
    }
    let text = serde_json::to_vec(&doc).map_err(|e| e.to_string())?;
    let mut mock = ApiMock::from_json(&text).map_err(|e| format!("the mock cannot read it: {e}"))?;
    let catalog = Catalog::from_value(&doc).map_err(|e| e.to_string())?;
    let (mut operations, mut tried, mut form_bodies, mut contradicting) = (0, 0, 0, 0);
    let (mut other_bodies, mut needs_file) = (0, 0);
    let (mut refused, mut listed) = (0, Vec::new());
    for operation in catalog.operations() {
        operations += 1;
        let Ok(mut view) = OperationView::build(&doc, operation.method, &operation.path) else { continue };
        let form =
            view.request_body.as_ref().is_some_and(|b| FormKind::of_media_type(&b.media_type).is_some());
        if view.request_body.as_ref().is_some_and(|b| !b.media_type.contains("json")) && !form {
            other_bodies += 1;
            continue;
        }
        prefill(&mut view);
        if view.request_body.as_ref().is_some_and(|b| {
            b.example_notes.iter().any(|n| n.starts_with("The document's example does not fit"))
        }) {
            contradicting += 1;
        }
        let mut asked = request::example(&view, "");
        if form {
            form_bodies += 1;
            if request::with_form_example(&view, &mut asked).is_err() {
                needs_file += 1;
                continue;
            }
        }
        let answer = mock.handle(&asked);
        tried += 1;
        if matches!(answer.status, 400 | 415 | 422) {
            refused += 1;
            if listed.len() < MAX_LISTED {
                let message = answer
                    .json()
                    .and_then(|b| b.get("message").and_then(Value::as_str).map(str::to_owned))
                    .unwrap_or_else(|| String::from_utf8_lossy(&answer.body).chars().take(300).collect());
                listed.push(json!({
                    "operation": format!("{} {}", asked.method, operation.path),
                    "status": answer.status,
                    "message": message,
                }));
            }
        }
    }
    Ok(json!({
        "version": doc.get("openapi").and_then(Value::as_str).unwrap_or_default(),
        "operations": operations,
        "tried": tried,
        "formBodies": form_bodies,
        "needsFile": needs_file,
        "otherBodies": other_bodies,
        "contradicting": contradicting,
        "refused": refused,
        "listed": listed,
    }))
}
