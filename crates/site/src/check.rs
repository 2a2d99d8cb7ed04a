//! Checking a description as the page reads it (the core's reader and list, Swagger 2.0
//! converted first), and what the page will not show, as warnings.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use playground_openapi::Catalog;
use playground_openapi::catalog::{METHODS, Method};
use playground_openapi::document::{self, AnyDocument, Read};
use playground_reference::OperationView;
use serde_json::Value;

/// At most this many warnings of one kind are printed; the rest are counted.
pub const MAX_WARNINGS: usize = 20;

/// Why the page could not show a description; the message names the file.
#[derive(Debug, thiserror::Error)]
#[error("{}: {problem}", path.display())]
pub struct CheckError {
    /// The description.
    pub path: PathBuf,
    /// What the core's reader says (with the JSON pointer where it gives one).
    pub problem: String,
}

/// A description the page can show.
#[derive(Debug)]
pub struct Checked {
    /// The OpenAPI 3 document the site serves (a Swagger 2.0 one converted).
    pub document: Value,
    /// The same document as the page reads it (for the pre-rendered reference).
    pub read: AnyDocument,
    /// Its list of operations, as the page makes it.
    pub catalog: Catalog,
    /// What the page will not show, or shows otherwise than written, one sentence each.
    pub warnings: Vec<String>,
}

/// Reads `document` (the description at `path`) as the page does.
///
/// # Errors
/// A [`CheckError`] naming `path` when the page could not show it: not an OpenAPI 3.0 to 3.2
/// or Swagger 2.0 document, a field of the wrong shape, or a Swagger 2.0 document the
/// converter refuses.
pub fn check(path: &Path, document: Value) -> Result<Checked, CheckError> {
    let fail = |problem: String| CheckError { path: path.to_owned(), problem };
    let mut warnings = Vec::new();
    let bytes = serde_json::to_vec(&document).map_err(|e| fail(e.to_string()))?;
    let (document, read, catalog) = match document::read(bytes).map_err(|e| fail(e.to_string()))? {
        Read::OpenApi(read, catalog) => (document, read, catalog),
        Read::Swagger2(_) => {
            let converted = playground_convert::swagger2_to_openapi3(&document)
                .map_err(|e| fail(format!("Swagger 2.0: {e}")))?;
            warnings.extend(
                converted
                    .notes
                    .iter()
                    .map(|note| format!("converted from Swagger 2.0 to OpenAPI 3.0: {note}")),
            );
            let bytes = serde_json::to_vec(&converted.document).map_err(|e| fail(e.to_string()))?;
            let (read, catalog) =
                document::load_json(bytes).map_err(|e| fail(format!("once converted: {e}")))?;
            (converted.document, read, catalog)
        }
    };
    warnings.extend(unlisted(&document, &catalog));
    warnings.extend(unshown(&document, &catalog));
    Ok(Checked { document, read, catalog, warnings })
}

/// The operations of `paths` and `webhooks` the list leaves out (one that is null, a webhook
/// that is not an object, ...).
fn unlisted(document: &Value, catalog: &Catalog) -> Vec<String> {
    let listed: HashSet<(Method, &str, bool)> =
        catalog.operations().map(|op| (op.method, op.path.as_str(), op.webhook)).collect();
    let mut warnings = Vec::new();
    for (field, webhook) in [("paths", false), ("webhooks", true)] {
        let Some(items) = document.get(field).and_then(Value::as_object) else { continue };
        for (name, item) in items {
            let Some(item) = item.as_object() else { continue };
            // A path item that is a `$ref` has its operations elsewhere; the list follows it.
            if item.contains_key("$ref") || name.starts_with("x-") {
                continue;
            }
            for method in METHODS {
                let key = method.as_str().to_ascii_lowercase();
                if item.contains_key(&key) && !listed.contains(&(method, name.as_str(), webhook)) {
                    warnings.push(format!(
                        "{}{} {name} is not listed: `/{field}/{}/{key}` is not an operation (an object)",
                        if webhook { "the webhook " } else { "" },
                        method.as_str(),
                        playground_openapi::pointer::escape_segment(name)
                    ));
                }
            }
        }
    }
    warnings
}

/// The listed operations whose page cannot be shown (a `$ref` that points nowhere, ...).
fn unshown(document: &Value, catalog: &Catalog) -> Vec<String> {
    let mut seen = HashSet::new();
    catalog
        .operations()
        .filter(|op| seen.insert((op.method, op.path.as_str(), op.webhook)))
        .filter_map(|op| {
            let view = OperationView::check(document, op.method, &op.path, op.webhook);
            let name = if op.webhook {
                format!("the webhook {} {}", op.method.as_str(), op.path)
            } else {
                format!("{} {}", op.method.as_str(), op.path)
            };
            view.err().map(|e| format!("{name} cannot be shown: {e}"))
        })
        .collect()
}
