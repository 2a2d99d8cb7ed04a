//! The description as the tools read it: the OpenAPI 3 document (a Swagger 2.0 one converted),
//! its catalog, one entry per operation of a path with what the search reads, each operation's
//! view (built when first asked for, then kept) and the Markdown pages (made once, when first
//! asked for).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use playground_llms::Page;
use playground_openapi::Catalog;
use playground_openapi::catalog::{METHODS, Method, OperationSummary, UNTAGGED, WEBHOOKS};
use playground_reference::OperationView;
use serde_json::Value;

/// One operation of a path, as the tools name and search it.
#[derive(Debug, Clone)]
pub struct Operation {
    /// The catalog's entry.
    pub summary: Arc<OperationSummary>,
    /// Its name in the tools: the catalog's anchor (the operationId, else `get-/path`).
    pub anchor: String,
    /// The tags it is listed under (none for an untagged operation).
    pub tags: Vec<String>,
    /// Its `description`, when it has one.
    pub description: Option<String>,
}

impl Operation {
    /// `POST /books`.
    #[must_use]
    pub fn method_and_path(&self) -> String {
        format!("{} {}", self.summary.method.as_str(), self.summary.path)
    }
}

/// A description ready for the tools.
#[derive(Debug)]
pub struct Api {
    /// The OpenAPI 3 document.
    pub document: Value,
    /// Its catalog.
    pub catalog: Catalog,
    /// The operations of its paths, each once, in list order (webhooks are not called, so not
    /// listed: their pages are among the resources).
    pub operations: Vec<Operation>,
    /// What converting a Swagger 2.0 document left behind, one sentence each.
    pub notes: Vec<String>,
    pages: OnceLock<Vec<Page>>,
    views: Mutex<HashMap<usize, Arc<OperationView>>>,
}

impl Api {
    /// Reads a description already parsed: OpenAPI 3.0 to 3.2, or Swagger 2.0 (converted).
    ///
    /// # Errors
    /// Why the document cannot be listed, in a sentence.
    pub fn new(document: Value) -> Result<Self, String> {
        let (document, notes) = if document.get("swagger").is_some() {
            let converted = playground_convert::swagger2_to_openapi3(&document)
                .map_err(|e| format!("Swagger 2.0: {e}"))?;
            (converted.document, converted.notes)
        } else {
            (document, Vec::new())
        };
        let catalog = Catalog::from_value(&document).map_err(|e| e.to_string())?;
        let operations = operations(&document, &catalog);
        Ok(Self { document, catalog, operations, notes, pages: OnceLock::new(), views: Mutex::default() })
    }

    /// The description's title (`info.title`, else "the API").
    #[must_use]
    pub fn title(&self) -> &str {
        let title = self.catalog.title.trim();
        if title.is_empty() { "the API" } else { title }
    }

    /// The operation `name` names: its anchor (operationId), exactly or in another case when
    /// only one has it, or `METHOD /path` with the path as the description writes it or as a
    /// request would (`GET /books/42` is `GET /books/{book_id}`).
    #[must_use]
    pub fn find(&self, name: &str) -> Option<&Operation> {
        let name = name.trim();
        if let Some(found) = self.operations.iter().find(|op| op.anchor == name) {
            return Some(found);
        }
        let mut folded = self.operations.iter().filter(|op| op.anchor.eq_ignore_ascii_case(name));
        if let (Some(one), None) = (folded.next(), folded.next()) {
            return Some(one);
        }
        let (method, path) = name.split_once(char::is_whitespace)?;
        let method = METHODS.into_iter().find(|m| m.as_str().eq_ignore_ascii_case(method.trim()))?;
        let path = path.trim();
        let path = path.split(['?', '#']).next().unwrap_or(path);
        let same_method = || self.operations.iter().filter(|op| op.summary.method == method);
        same_method()
            .find(|op| op.summary.path == path)
            .or_else(|| same_method().find(|op| template_matches(&op.summary.path, path)))
    }

    /// The view of `operation` (its parameters, body and answers), built once.
    ///
    /// # Errors
    /// Why the description's operation cannot be read (a `$ref` that points nowhere, ...).
    pub fn view(&self, operation: &Operation) -> Result<Arc<OperationView>, String> {
        let index = self
            .operations
            .iter()
            .position(|op| Arc::ptr_eq(&op.summary, &operation.summary))
            .ok_or_else(|| format!("{} is not an operation of this description", operation.anchor))?;
        if let Some(view) = self.views.lock().unwrap_or_else(PoisonError::into_inner).get(&index) {
            return Ok(Arc::clone(view));
        }
        let summary = &operation.summary;
        let view = OperationView::build(&self.document, summary.method, &summary.path)
            .map_err(|e| format!("{} cannot be read: {e}", operation.method_and_path()))?;
        let view = Arc::new(view);
        self.views.lock().unwrap_or_else(PoisonError::into_inner).insert(index, Arc::clone(&view));
        Ok(view)
    }

    /// Every Markdown page of the description (`llms.txt` among them), made on the first call.
    pub fn pages(&self) -> &[Page] {
        self.pages.get_or_init(|| playground_llms::pages(&self.document, &self.catalog, self.title()))
    }

    /// The Markdown of `operation`'s page.
    #[must_use]
    pub fn markdown(&self, operation: &Operation) -> String {
        playground_llms::operation_markdown(&self.document, &self.catalog, &operation.summary)
    }
}

/// The operations of the catalog's paths, each once (an operation with two tags is listed twice
/// there), with their tags and descriptions.
fn operations(document: &Value, catalog: &Catalog) -> Vec<Operation> {
    let mut index: HashMap<(Method, &str), usize> = HashMap::new();
    let mut operations: Vec<Operation> = Vec::new();
    for group in catalog.groups.iter().filter(|g| g.name != WEBHOOKS) {
        for section in &group.tags {
            for summary in section.operations.iter().filter(|op| !op.webhook) {
                let at = *index.entry((summary.method, summary.path.as_str())).or_insert_with(|| {
                    operations.push(Operation {
                        summary: Arc::clone(summary),
                        anchor: summary.anchor(),
                        tags: Vec::new(),
                        description: description(document, summary),
                    });
                    operations.len() - 1
                });
                let tags = &mut operations[at].tags;
                if section.name != UNTAGGED && !tags.contains(&section.name) {
                    tags.push(section.name.clone());
                }
            }
        }
    }
    operations
}

/// The operation's `description`, its path item's `$ref` followed.
fn description(document: &Value, summary: &OperationSummary) -> Option<String> {
    let item = document.get("paths")?.get(&summary.path)?;
    let item = playground_openapi::pointer::resolve(document, item).ok()?;
    let operation = item.get(summary.method.as_str().to_ascii_lowercase())?;
    operation.get("description")?.as_str().map(str::trim).filter(|d| !d.is_empty()).map(str::to_owned)
}

/// Whether the request path `path` fits the template `template` (`{name}` takes one segment,
/// or part of one around literal text).
fn template_matches(template: &str, path: &str) -> bool {
    let (template, path) = (template.trim_end_matches('/'), path.trim_end_matches('/'));
    let (mut wanted, mut given) = (template.split('/'), path.split('/'));
    loop {
        match (wanted.next(), given.next()) {
            (None, None) => return true,
            (Some(want), Some(got)) if segment_matches(want, got) => {}
            _ => return false,
        }
    }
}

/// One segment against one of a template: literal text equal, `{name}` anything not empty.
fn segment_matches(template: &str, segment: &str) -> bool {
    let Some(open) = template.find('{') else { return template == segment };
    let Some(close) = template[open..].find('}').map(|c| open + c) else { return template == segment };
    let (prefix, suffix) = (&template[..open], &template[close + 1..]);
    let Some(rest) = segment.strip_prefix(prefix) else { return false };
    // The value takes at least one character; what follows it must fit the rest of the template.
    (1..=rest.len())
        .filter(|&cut| rest.is_char_boundary(cut))
        .any(|cut| segment_matches(suffix, &rest[cut..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_take_request_paths() {
        assert!(template_matches("/books/{book_id}", "/books/42"));
        assert!(template_matches("/books/{id}.json", "/books/42.json"));
        assert!(!template_matches("/books/{book_id}", "/books"));
        assert!(!template_matches("/books/{book_id}", "/books/42/pages"));
        assert!(!template_matches("/books/{book_id}", "/books/"));
        assert!(template_matches("/books", "/books/"));
    }
}
