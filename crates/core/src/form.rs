//! Request bodies beyond JSON: `multipart/form-data` and `application/x-www-form-urlencoded`
//! bodies written from form fields and read back, and the fields a form offers, read from its
//! schema.

use serde::{Deserialize, Serialize};
use serde_json::Value;

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

/// What kind of input a form field takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SpecKind {
    /// A text input.
    Text,
    /// One file.
    File,
    /// Any number of files (an array of binary strings).
    Files,
}

/// A field a form offers, read from its schema by [`fields_from_schema`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FormFieldSpec {
    /// The property's name.
    pub name: String,
    /// Whether the schema's `required` lists it.
    pub required: bool,
    /// The input it takes.
    pub kind: SpecKind,
    /// The property's `description`.
    pub description: Option<String>,
    /// A value to start a text field with: the property's `example`, first `examples` entry,
    /// `default`, first `enum` entry or `const`, as text (objects and arrays as JSON text).
    pub example: Option<String>,
}

/// Whether a property schema describes a file: a string with `format: binary` or `base64`, or
/// with a `contentMediaType` or `contentEncoding` (OpenAPI 3.1).
fn is_binary(schema: &Value) -> bool {
    let Some(map) = schema.as_object() else { return false };
    let string_typed = match map.get("type") {
        None => true,
        Some(Value::String(t)) => t == "string",
        Some(Value::Array(types)) => types.iter().any(|t| t == "string"),
        Some(_) => false,
    };
    let format = map.get("format").and_then(Value::as_str);
    string_typed
        && (matches!(format, Some("binary" | "base64"))
            || map.contains_key("contentMediaType")
            || map.contains_key("contentEncoding"))
}

/// Whether a property schema is an array of files.
fn is_file_array(schema: &Value) -> bool {
    let typed_array = match schema.get("type") {
        Some(Value::String(t)) => t == "array",
        Some(Value::Array(types)) => types.iter().any(|t| t == "array"),
        _ => false,
    };
    (typed_array || schema.get("items").is_some()) && schema.get("items").is_some_and(is_binary)
}

/// A schema value as the text of a text input: strings as they are, other values as JSON.
fn as_text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The example text of a property: `example`, the first `examples`, `default`, the first `enum`
/// entry, then `const`.
fn example_of(schema: &Value) -> Option<String> {
    let first = |key: &str| schema.get(key).and_then(Value::as_array).and_then(|a| a.first());
    schema
        .get("example")
        .or_else(|| first("examples"))
        .or_else(|| schema.get("default"))
        .or_else(|| first("enum"))
        .or_else(|| schema.get("const"))
        .map(as_text)
}

/// The fields of a form whose body schema is `schema`: one per entry of its `properties`, in
/// order, at most [`MAX_FIELDS`]. A schema without `properties` (or a `$ref` not resolved by
/// the caller) offers none.
#[must_use]
pub fn fields_from_schema(schema: &Value) -> Vec<FormFieldSpec> {
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else { return Vec::new() };
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    properties
        .iter()
        .take(MAX_FIELDS)
        .map(|(name, property)| {
            let kind = if is_binary(property) {
                SpecKind::File
            } else if is_file_array(property) {
                SpecKind::Files
            } else {
                SpecKind::Text
            };
            FormFieldSpec {
                name: name.clone(),
                required: required.contains(&name.as_str()),
                kind,
                description: property.get("description").and_then(Value::as_str).map(str::to_owned),
                example: if kind == SpecKind::Text { example_of(property) } else { None },
            }
        })
        .collect()
}

/// Splits a header value into its first token and its `;` parameters (names lowercased; quoted
/// values unquoted, `\` escapes honoured).
fn header_params(value: &str) -> (String, Vec<(String, String)>) {
    let mut parts = Vec::new();
    let mut current = String::new();
    let mut quoted = false;
    let mut chars = value.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                quoted = !quoted;
                current.push(c);
            }
            '\\' if quoted => {
                current.push(c);
                if let Some(next) = chars.next() {
                    current.push(next);
                }
            }
            ';' if !quoted => parts.push(std::mem::take(&mut current)),
            _ => current.push(c),
        }
    }
    parts.push(current);
    let mut iter = parts.into_iter();
    let first = iter.next().unwrap_or_default().trim().to_owned();
    let params = iter
        .filter_map(|p| {
            let (name, value) = p.split_once('=')?;
            let value = value.trim();
            let value = match value.strip_prefix('"') {
                Some(inner) => {
                    let inner = inner.strip_suffix('"').unwrap_or(inner);
                    let mut out = String::new();
                    let mut chars = inner.chars();
                    while let Some(c) = chars.next() {
                        if c == '\\' {
                            if let Some(next) = chars.next() {
                                out.push(next);
                            }
                        } else {
                            out.push(c);
                        }
                    }
                    out
                }
                None => value.to_owned(),
            };
            Some((name.trim().to_ascii_lowercase(), value))
        })
        .collect();
    (first, params)
}

/// Undoes the browsers' `%22`, `%0D` and `%0A` in a Content-Disposition name.
fn unescape_disposition_name(name: &str) -> String {
    name.replace("%22", "\"")
        .replace("%0D", "\r")
        .replace("%0A", "\n")
        .replace("%0d", "\r")
        .replace("%0a", "\n")
}

/// An RFC 5987 `filename*` value (`UTF-8''name%20here`), decoded.
fn extended_value(value: &str) -> Option<String> {
    let mut pieces = value.splitn(3, '\'');
    let charset = pieces.next()?;
    let _language = pieces.next()?;
    let encoded = pieces.next()?;
    if !charset.eq_ignore_ascii_case("utf-8") {
        return None;
    }
    percent_encoding::percent_decode_str(encoded).decode_utf8().ok().map(|s| s.into_owned())
}

/// The next line of `body` from `at`: its text without the line end, and where the next begins.
/// CRLF and bare LF both end a line.
fn line_at(body: &[u8], at: usize) -> Option<(&[u8], usize)> {
    let rest = body.get(at..)?;
    let end = rest.iter().position(|&b| b == b'\n')?;
    let line = rest.get(..end)?;
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    Some((line, at + end + 1))
}

/// Reads a `multipart/form-data` body: its parts as fields, in order. Tolerant: a preamble and
/// an epilogue are skipped, LF line ends are accepted as well as CRLF, and a missing final
/// `--` is forgiven. A part with a `filename` (or `filename*`), or whose content is not UTF-8, is
/// a file; names are unescaped as [`escape_disposition_name`] escapes them. At most
/// [`MAX_FIELDS`] parts.
///
/// # Errors
/// A sentence when the Content-Type is not multipart or has no boundary, when a part has no
/// name, when a part is not ended by a boundary, or when there are too many parts.
pub fn parse_multipart(content_type: &str, body: &[u8]) -> Result<Vec<FormField>, String> {
    let (essence, params) = header_params(content_type);
    if !essence.to_ascii_lowercase().starts_with("multipart/") {
        return Err(format!("The Content-Type `{essence}` is not multipart/form-data."));
    }
    let Some((_, boundary)) = params.iter().find(|(n, _)| n == "boundary") else {
        return Err("The multipart Content-Type has no boundary parameter.".to_owned());
    };
    if boundary.is_empty() || boundary.len() > MAX_BOUNDARY {
        return Err(format!("The multipart boundary must have 1 to {MAX_BOUNDARY} characters."));
    }
    let delimiter = format!("--{boundary}");
    let delimiter = delimiter.as_bytes();
    let mut after_newline = Vec::with_capacity(delimiter.len() + 1);
    after_newline.push(b'\n');
    after_newline.extend_from_slice(delimiter);

    // The first delimiter: at the very start or after a line end (the preamble before it).
    let mut at = if body.starts_with(delimiter) {
        delimiter.len()
    } else {
        match find(body, &after_newline) {
            Some(p) => p + after_newline.len(),
            None => return Err("The multipart body has no boundary line.".to_owned()),
        }
    };
    let mut fields = Vec::new();
    loop {
        let rest = body.get(at..).unwrap_or_default();
        if rest.starts_with(b"--") || rest.iter().all(u8::is_ascii_whitespace) {
            return Ok(fields);
        }
        if fields.len() >= MAX_FIELDS {
            return Err(format!("The multipart body has more than {MAX_FIELDS} parts."));
        }
        let number = fields.len() + 1;
        // The rest of the boundary line (transport padding) is skipped.
        let Some((_, mut next)) = line_at(body, at) else {
            return Err(format!("Part {number} of the multipart body has no headers."));
        };
        let mut name = None;
        let mut file_name = None;
        let mut part_type = None;
        loop {
            let Some((line, after)) = line_at(body, next) else {
                return Err(format!("The headers of part {number} of the multipart body do not end."));
            };
            next = after;
            if line.is_empty() {
                break;
            }
            let line = String::from_utf8_lossy(line);
            let Some((header, value)) = line.split_once(':') else { continue };
            let header = header.trim();
            if header.eq_ignore_ascii_case("content-disposition") {
                let (_, params) = header_params(value);
                for (param, value) in params {
                    match param.as_str() {
                        "name" => name = Some(unescape_disposition_name(&value)),
                        "filename" if file_name.is_none() => {
                            file_name = Some(unescape_disposition_name(&value))
                        }
                        "filename*" => {
                            if let Some(decoded) = extended_value(&value) {
                                file_name = Some(decoded);
                            }
                        }
                        _ => {}
                    }
                }
            } else if header.eq_ignore_ascii_case("content-type") {
                part_type = Some(value.trim().to_owned());
            }
        }
        let Some(name) = name else {
            return Err(format!(
                "Part {number} of the multipart body has no name in its Content-Disposition."
            ));
        };
        let content_start = next;
        let Some(found) = body.get(content_start..).and_then(|rest| find(rest, &after_newline)) else {
            return Err(format!(
                "Part {number} (`{name}`) of the multipart body is not ended by a boundary."
            ));
        };
        let mut content_end = content_start + found;
        if content_end > content_start && body.get(content_end - 1) == Some(&b'\r') {
            content_end -= 1;
        }
        let content = body.get(content_start..content_end).unwrap_or_default().to_vec();
        at = content_start + found + after_newline.len();
        let value = match (file_name, String::from_utf8(content)) {
            (None, Ok(text)) => FieldValue::Text(text),
            (file_name, content) => FieldValue::File {
                file_name: file_name.unwrap_or_default(),
                content_type: part_type.unwrap_or_else(|| DEFAULT_FILE_TYPE.to_owned()),
                bytes: content.map_or_else(|e| e.into_bytes(), String::into_bytes),
            },
        };
        fields.push(FormField { name, value });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn sample() -> Vec<FormField> {
        vec![
            FormField::text("name", "Rex \"the dog\"\r\nline two"),
            FormField::file(
                "photo",
                "rex.png",
                "image/png",
                vec![0x89, b'P', b'N', b'G', 0xff, 0x00, b'\r', b'\n'],
            ),
            FormField::file("photo", "rex 2.jpg", "", vec![0xfe, 0xed]),
            FormField::text("say \"hi\"\nnow", "é ✓"),
            FormField::file("notes", "a \"quoted\".txt", "text/plain", b"plain text".to_vec()),
        ]
    }

    #[test]
    fn multipart_is_written_as_browsers_write_it() {
        let fields =
            vec![FormField::text("say \"hi\"", "a"), FormField::file("f", "x\ny.bin", "", vec![1, 2])];
        let body = encode_multipart(&fields, "B");
        let mut expected = b"--B\r\nContent-Disposition: form-data; name=\"say %22hi%22\"\r\n\r\na\r\n--B\r\nContent-Disposition: form-data; name=\"f\"; filename=\"x%0Ay.bin\"\r\nContent-Type: application/octet-stream\r\n\r\n".to_vec();
        expected.extend_from_slice(&[1, 2]);
        expected.extend_from_slice(b"\r\n--B--\r\n");
        assert_eq!(body, expected);
        assert_eq!(encode_multipart(&[], "B"), b"--B--\r\n");
        assert_eq!(multipart_content_type("B"), "multipart/form-data; boundary=B");
    }

    #[test]
    fn multipart_round_trips_text_binary_files_repeated_names_and_quotes() {
        let fields = sample();
        let boundary = boundary_for(&fields);
        let body = encode_multipart(&fields, &boundary);
        let parsed = parse_multipart(&multipart_content_type(&boundary), &body).unwrap();
        let mut expected = fields.clone();
        // An empty type is sent as application/octet-stream.
        expected[2] = FormField::file("photo", "rex 2.jpg", DEFAULT_FILE_TYPE, vec![0xfe, 0xed]);
        assert_eq!(parsed, expected);
    }

    #[test]
    fn the_boundary_avoids_the_content() {
        let plain = vec![FormField::text("a", "b")];
        let boundary = boundary_for(&plain);
        let hostile = vec![FormField::text("a", format!("x\r\n--{boundary}\r\ny"))];
        let other = boundary_for(&hostile);
        assert_ne!(boundary, other);
        let body = encode_multipart(&hostile, &other);
        assert_eq!(parse_multipart(&multipart_content_type(&other), &body).unwrap(), hostile);
    }

    #[test]
    fn the_reader_is_tolerant() {
        // LF line ends, a preamble and epilogue, a quoted boundary, backslash-escaped quotes,
        // filename*, no closing `--`.
        let body = "preamble\n--xy\nContent-Disposition: form-data; name=\"a\\\"b\"\n\n1\n--xy\nContent-Disposition: form-data; name=f; filename*=UTF-8''na%C3%AFve.txt\nContent-Type: text/plain\n\nhi\n--xy\n";
        let parsed = parse_multipart("Multipart/Form-Data; boundary=\"xy\"", body.as_bytes()).unwrap();
        assert_eq!(
            parsed,
            vec![FormField::text("a\"b", "1"), FormField::file("f", "naïve.txt", "text/plain", "hi")]
        );
        // A part without a file name whose content is not UTF-8 is a file.
        let body = b"--b\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\n\xff\r\n--b--";
        assert_eq!(
            parse_multipart("multipart/form-data; boundary=b", body).unwrap(),
            vec![FormField::file("x", "", DEFAULT_FILE_TYPE, vec![0xff])]
        );
        assert_eq!(parse_multipart("multipart/form-data; boundary=b", b"--b--\r\n").unwrap(), vec![]);
    }

    #[test]
    fn the_reader_refuses_with_a_sentence() {
        let cases: [(&str, &[u8]); 6] = [
            ("application/json", b"{}"),
            ("multipart/form-data", b"--b--"),
            ("multipart/form-data; boundary=b", b"nothing here"),
            ("multipart/form-data; boundary=b", b"--b\r\nContent-Disposition: form-data\r\n\r\nx\r\n--b--"),
            (
                "multipart/form-data; boundary=b",
                b"--b\r\nContent-Disposition: form-data; name=a\r\n\r\nno end",
            ),
            ("multipart/form-data; boundary=b", b"--b\r\nContent-Disposition: form-data; name=a"),
        ];
        for (content_type, body) in cases {
            let error = parse_multipart(content_type, body).unwrap_err();
            assert!(error.ends_with('.'), "{error}");
        }
        let many: Vec<FormField> = (0..=MAX_FIELDS).map(|i| FormField::text(i.to_string(), "")).collect();
        let body = encode_multipart(&many, "b");
        assert!(
            parse_multipart("multipart/form-data; boundary=b", &body).unwrap_err().contains("more than 200")
        );
    }

    #[test]
    fn urlencoded_writes_pairs_and_files_as_their_names() {
        let fields = vec![
            FormField::text("a b", "c&d=e"),
            FormField::file("f", "x y.png", "image/png", vec![0xff]),
            FormField::text("é", "✓"),
        ];
        assert_eq!(encode_urlencoded(&fields), b"a+b=c%26d%3De&f=x+y.png&%C3%A9=%E2%9C%93");
        assert_eq!(encode_urlencoded(&[]), b"");
    }

    #[test]
    fn form_kinds_know_their_media_types() {
        assert_eq!(FormKind::of_media_type("Multipart/Form-Data; boundary=x"), Some(FormKind::Multipart));
        assert_eq!(FormKind::of_media_type("application/x-www-form-urlencoded"), Some(FormKind::UrlEncoded));
        assert_eq!(FormKind::of_media_type("application/json"), None);
    }

    #[test]
    fn fields_are_read_from_the_schema() {
        let schema = json!({
            "type": "object",
            "required": ["name", "photo"],
            "properties": {
                "name": {"type": "string", "description": "The pet's name.", "example": "Rex"},
                "photo": {"type": "string", "format": "binary"},
                "scan": {"type": "string", "format": "base64"},
                "doc": {"type": "string", "contentMediaType": "application/pdf"},
                "album": {"type": "array", "items": {"type": "string", "format": "binary"}},
                "tags": {"type": "array", "items": {"type": "string"}, "example": ["a", "b"]},
                "meta": {"type": "object", "default": {"k": 1}},
                "status": {"type": "string", "enum": ["available", "sold"]},
                "age": {"type": "integer", "default": 3},
                "nickname": {"type": "string", "examples": ["Rexy"]},
                "plain": {"type": "string"},
                "ref": {"$ref": "#/components/schemas/X"}
            }
        });
        let fields = fields_from_schema(&schema);
        let summary: Vec<(&str, bool, SpecKind, Option<&str>)> =
            fields.iter().map(|f| (f.name.as_str(), f.required, f.kind, f.example.as_deref())).collect();
        assert_eq!(
            summary,
            vec![
                ("name", true, SpecKind::Text, Some("Rex")),
                ("photo", true, SpecKind::File, None),
                ("scan", false, SpecKind::File, None),
                ("doc", false, SpecKind::File, None),
                ("album", false, SpecKind::Files, None),
                ("tags", false, SpecKind::Text, Some("[\"a\",\"b\"]")),
                ("meta", false, SpecKind::Text, Some("{\"k\":1}")),
                ("status", false, SpecKind::Text, Some("available")),
                ("age", false, SpecKind::Text, Some("3")),
                ("nickname", false, SpecKind::Text, Some("Rexy")),
                ("plain", false, SpecKind::Text, None),
                ("ref", false, SpecKind::Text, None),
            ]
        );
        assert_eq!(fields[0].description.as_deref(), Some("The pet's name."));
        assert!(fields_from_schema(&json!({"type": "string"})).is_empty());
        assert!(fields_from_schema(&json!(null)).is_empty());
        let many: serde_json::Map<String, Value> = (0..300).map(|i| (format!("p{i}"), json!({}))).collect();
        assert_eq!(fields_from_schema(&json!({"properties": many})).len(), MAX_FIELDS);
    }
}
