//! Links from the document to elsewhere: `externalDocs`, and which addresses may become links.

use serde_json::Value;

use super::ExternalDocs;

/// `externalDocs`, when it has a `url`.
#[must_use]
pub fn external_docs(value: Option<&Value>) -> Option<ExternalDocs> {
    let value = value?;
    Some(ExternalDocs {
        url: safe_link(value.get("url").and_then(Value::as_str)?)?,
        description: value.get("description").and_then(Value::as_str).map(str::to_owned),
    })
}

/// A link from the document, when it is safe to follow: `http`, `https` or `mailto`, or
/// relative (no `javascript:` or `data:` address ends up in a link of the page); the same rule
/// as links in the Markdown of descriptions.
#[must_use]
pub fn safe_link(url: &str) -> Option<String> {
    let url = url.trim();
    (!url.is_empty() && crate::markdown::safe_url(url)).then(|| url.to_owned())
}
