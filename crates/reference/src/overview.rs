//! What the reference's overview shows besides the operations: `info.summary`, the licence,
//! the contact, the terms of service, `externalDocs`, and each tag's `externalDocs`, read from
//! the root fields (fields of the wrong type read as absent).

use serde_json::{Map, Value};

use super::{ExternalDocs, external_docs, safe_link};

/// A licence: its name, and a link (its `url`, or the SPDX page of its `identifier`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct License {
    /// `name`.
    pub name: String,
    /// `url`, else `https://spdx.org/licenses/<identifier>.html`.
    pub url: Option<String>,
}

/// The document's overview, past its title, version and description.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Overview {
    /// `info.summary` (OpenAPI 3.1).
    pub summary: Option<String>,
    /// `info.license`.
    pub license: Option<License>,
    /// `info.contact`: a name (or the address), and a link (`url`, else `mailto:` the email).
    pub contact: Option<(String, Option<String>)>,
    /// `info.termsOfService`.
    pub terms_of_service: Option<String>,
    /// The document's `externalDocs`.
    pub external_docs: Option<ExternalDocs>,
    /// Each declared tag's `externalDocs`, by tag name.
    pub tag_docs: Vec<(String, ExternalDocs)>,
}

impl Overview {
    /// Reads the overview from the document's root fields.
    #[must_use]
    pub fn from_root(root: &Map<String, Value>) -> Self {
        let info = root.get("info").unwrap_or(&Value::Null);
        let text = |v: &Value, key: &str| {
            v.get(key).and_then(Value::as_str).map(str::trim).filter(|s| !s.is_empty()).map(str::to_owned)
        };
        let license = info.get("license").and_then(|l| {
            let name = text(l, "name")?;
            let url = text(l, "url").and_then(|u| safe_link(&u)).or_else(|| {
                text(l, "identifier")
                    .filter(|id| id.bytes().all(|b| b.is_ascii_alphanumeric() || b"-.+".contains(&b)))
                    .map(|id| format!("https://spdx.org/licenses/{id}.html"))
            });
            Some(License { name, url })
        });
        let contact = info.get("contact").and_then(|c| {
            let email = text(c, "email");
            let link = text(c, "url")
                .and_then(|u| safe_link(&u))
                .or_else(|| email.as_ref().map(|e| format!("mailto:{e}")));
            let name = text(c, "name").or(email).or_else(|| link.clone())?;
            Some((name, link))
        });
        let tag_docs = root
            .get("tags")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|tag| Some((text(tag, "name")?, external_docs(tag.get("externalDocs"))?)))
            .collect();
        Self {
            summary: text(info, "summary"),
            license,
            contact,
            terms_of_service: text(info, "termsOfService").and_then(|u| safe_link(&u)),
            external_docs: external_docs(root.get("externalDocs")),
            tag_docs,
        }
    }
}
