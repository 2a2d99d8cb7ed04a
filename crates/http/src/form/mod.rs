//! Request bodies beyond JSON: `multipart/form-data` and `application/x-www-form-urlencoded`
//! bodies written from form fields and read back, and the fields a form offers, read from its
//! schema.

use serde::{Deserialize, Serialize};
use serde_json::Value;

mod parse;
mod schema;
#[cfg(test)]
mod tests;

pub use parse::parse_multipart;
pub use schema::{FormFieldSpec, SpecKind, fields_from_schema};

/// The most fields [`fields_from_schema`] reads and parts [`parse_multipart`] accepts.
pub const MAX_FIELDS: usize = 200;

/// The longest boundary [`parse_multipart`] accepts (RFC 2046 allows 70 characters).
const MAX_BOUNDARY: usize = 200;

/// The Content-Type of a file part given none.
pub const DEFAULT_FILE_TYPE: &str = "application/octet-stream";

/// The value of one form field.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum FieldValue {
    /// A text value.
    Text(String),
    /// A file: its name, media type (empty for `application/octet-stream`) and bytes.
    File {
        /// The file's name, sent as the part's `filename`.
        file_name: String,
        /// The file's media type, sent as the part's Content-Type.
        content_type: String,
        /// The file's content.
        bytes: Vec<u8>,
    },
}

/// One named field of a form body; a name may repeat (several files under one name).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FormField {
    /// The field's name.
    pub name: String,
    /// The field's value.
    pub value: FieldValue,
}

impl FormField {
    /// A text field.
    pub fn text(name: impl Into<String>, value: impl Into<String>) -> Self {
        Self { name: name.into(), value: FieldValue::Text(value.into()) }
    }

    /// A file field.
    pub fn file(
        name: impl Into<String>,
        file_name: impl Into<String>,
        content_type: impl Into<String>,
        bytes: impl Into<Vec<u8>>,
    ) -> Self {
        Self {
            name: name.into(),
            value: FieldValue::File {
                file_name: file_name.into(),
                content_type: content_type.into(),
                bytes: bytes.into(),
            },
        }
    }
}

/// How a form body is encoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum FormKind {
    /// `multipart/form-data` (RFC 7578): one part per field, files as their bytes.
    Multipart,
    /// `application/x-www-form-urlencoded`: `name=value` pairs joined by `&`.
    UrlEncoded,
}

impl FormKind {
    /// The media type of the kind (without the multipart boundary).
    #[must_use]
    pub const fn media_type(self) -> &'static str {
        match self {
            Self::Multipart => "multipart/form-data",
            Self::UrlEncoded => "application/x-www-form-urlencoded",
        }
    }

    /// The kind of a Content-Type or media type, if it is a form's (parameters and case ignored).
    #[must_use]
    pub fn of_media_type(media_type: &str) -> Option<Self> {
        let essence = media_type.split(';').next().unwrap_or_default().trim();
        [Self::Multipart, Self::UrlEncoded].into_iter().find(|k| essence.eq_ignore_ascii_case(k.media_type()))
    }
}

/// Whether `media_type` is JSON (`application/json`, `…/json`, `…+json`; no type at all is
/// taken as JSON too).
#[must_use]
pub fn is_json(media_type: &str) -> bool {
    let essence = media_type.split(';').next().unwrap_or_default().trim().to_ascii_lowercase();
    essence.is_empty() || essence.ends_with("/json") || essence.ends_with("+json")
}

/// Whether a media type is XML (`application/xml`, `text/xml`, `application/atom+xml`).
#[must_use]
pub fn is_xml(media_type: &str) -> bool {
    let essence = media_type.split(';').next().unwrap_or_default().trim().to_ascii_lowercase();
    essence.ends_with("/xml") || essence.ends_with("+xml")
}

/// The `application/x-www-form-urlencoded` body of `fields`; a file is sent as its file name.
#[must_use]
pub fn encode_urlencoded(fields: &[FormField]) -> Vec<u8> {
    let mut out = form_urlencoded::Serializer::new(String::new());
    for field in fields {
        let value = match &field.value {
            FieldValue::Text(text) => text,
            FieldValue::File { file_name, .. } => file_name,
        };
        out.append_pair(&field.name, value);
    }
    out.finish().into_bytes()
}

/// A name or file name as a quoted Content-Disposition parameter writes it: `"`, CR and LF
/// become `%22`, `%0D` and `%0A`, as browsers send them (the HTML form submission algorithm).
#[must_use]
pub fn escape_disposition_name(name: &str) -> String {
    name.replace('"', "%22").replace('\r', "%0D").replace('\n', "%0A")
}

/// The Content-Disposition header value of a part: `form-data; name="…"` and, for a file,
/// `; filename="…"`.
#[must_use]
pub fn content_disposition(name: &str, file_name: Option<&str>) -> String {
    let mut out = format!("form-data; name=\"{}\"", escape_disposition_name(name));
    if let Some(file_name) = file_name {
        out.push_str(&format!("; filename=\"{}\"", escape_disposition_name(file_name)));
    }
    out
}

/// A header value with line breaks removed, so it cannot end its header early.
fn header_value(value: &str) -> String {
    value.chars().filter(|c| !matches!(c, '\r' | '\n')).collect()
}

/// The `multipart/form-data` body of `fields` (RFC 7578), parts separated by `boundary`, lines
/// ended by CRLF. A file part carries its Content-Type (`application/octet-stream` when empty).
/// The boundary must not occur in any value: [`boundary_for`] picks one that does not.
#[must_use]
pub fn encode_multipart(fields: &[FormField], boundary: &str) -> Vec<u8> {
    let mut out = Vec::new();
    for field in fields {
        out.extend_from_slice(format!("--{boundary}\r\n").as_bytes());
        match &field.value {
            FieldValue::Text(text) => {
                let disposition = content_disposition(&field.name, None);
                out.extend_from_slice(format!("Content-Disposition: {disposition}\r\n\r\n").as_bytes());
                out.extend_from_slice(text.as_bytes());
            }
            FieldValue::File { file_name, content_type, bytes } => {
                let disposition = content_disposition(&field.name, Some(file_name));
                let content_type = if content_type.trim().is_empty() {
                    DEFAULT_FILE_TYPE.to_owned()
                } else {
                    header_value(content_type)
                };
                out.extend_from_slice(
                    format!("Content-Disposition: {disposition}\r\nContent-Type: {content_type}\r\n\r\n")
                        .as_bytes(),
                );
                out.extend_from_slice(bytes);
            }
        }
        out.extend_from_slice(b"\r\n");
    }
    out.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
    out
}

/// The Content-Type of a multipart body: `multipart/form-data; boundary=…`.
#[must_use]
pub fn multipart_content_type(boundary: &str) -> String {
    format!("multipart/form-data; boundary={boundary}")
}

/// A boundary that occurs in none of `fields`' names and values: made from a hash of them, so
/// the same fields always get the same boundary.
#[must_use]
pub fn boundary_for(fields: &[FormField]) -> String {
    // FNV-1a over every name and value.
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut feed = |bytes: &[u8]| {
        for &b in bytes {
            hash = (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    };
    for field in fields {
        feed(field.name.as_bytes());
        match &field.value {
            FieldValue::Text(text) => feed(text.as_bytes()),
            FieldValue::File { file_name, content_type, bytes } => {
                feed(file_name.as_bytes());
                feed(content_type.as_bytes());
                feed(bytes);
            }
        }
    }
    let occurs = |candidate: &str| {
        let needle = candidate.as_bytes();
        fields.iter().any(|f| {
            let value: &[u8] = match &f.value {
                FieldValue::Text(text) => text.as_bytes(),
                FieldValue::File { bytes, .. } => bytes,
            };
            find(value, needle).is_some() || find(f.name.as_bytes(), needle).is_some()
        })
    };
    let mut candidate = format!("----PetstoreFormBoundary{hash:016x}");
    // A hash-made boundary in the content is all but impossible; a few more tries bound it.
    for attempt in 1..16_u64 {
        if !occurs(&candidate) {
            break;
        }
        candidate = format!(
            "----PetstoreFormBoundary{:016x}",
            hash.wrapping_add(attempt.wrapping_mul(0x9e37_79b9_7f4a_7c15))
        );
    }
    candidate
}

/// The first position of `needle` in `haystack`.
fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    if needle.is_empty() {
        return Some(0);
    }
    haystack.windows(needle.len()).position(|w| w == needle)
}
