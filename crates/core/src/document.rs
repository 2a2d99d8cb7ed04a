//! Loading an OpenAPI document other than the embedded one: whether its text is JSON or YAML,
//! whether the parsed value has the shape of an OpenAPI 3.0 document, and the messages that
//! say what is wrong when it does not. The app fetches or reads the bytes and (for YAML) has
//! them converted to JSON by a parser loaded on demand; everything else happens here.

use serde_json::Value;

use crate::indexed::{AnyDocument, IndexedDocument};

use crate::catalog::Catalog;

/// The syntax of a document's text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Starts with `{` or `[` (after white space and a byte order mark).
    Json,
    /// Anything else.
    Yaml,
}

/// Guesses the syntax from the first significant character: JSON documents start with `{`
/// or `[`; everything else is read as YAML (of which JSON is a subset).
#[must_use]
pub fn detect_format(bytes: &[u8]) -> Format {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    match bytes.iter().find(|b| !b.is_ascii_whitespace()) {
        Some(b'{' | b'[') => Format::Json,
        _ => Format::Yaml,
    }
}

/// The OpenAPI versions this reference reads, in words.
pub const SUPPORTED_VERSIONS: &str = "OpenAPI 3.0 (3.0.0 to 3.0.4)";

/// Why a document could not be shown. Each message is a full sentence for the reader.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DocumentError {
    /// The text is empty or only white space.
    #[error("The document is empty.")]
    Empty,
    /// The text starts like JSON but is not valid JSON (line and column from 1).
    #[error("The document is not valid JSON: {reason} (line {line}, column {column}).")]
    Json {
        /// What the parser expected.
        reason: String,
        /// Line of the problem, from 1.
        line: usize,
        /// Column of the problem, from 1.
        column: usize,
    },
    /// The text is neither JSON nor valid YAML (line and column from 1, when known).
    #[error("The document is neither JSON nor valid YAML: {reason}{}.", position(*.line, *.column))]
    Yaml {
        /// What the YAML parser reported.
        reason: String,
        /// Line of the problem, from 1 (0 when unknown).
        line: usize,
        /// Column of the problem, from 1 (0 when unknown).
        column: usize,
    },
    /// The YAML parser could not be loaded (network).
    #[error(
        "The document is YAML, and the YAML reader could not be loaded ({0}). Check the connection and try again, or load the document as JSON."
    )]
    YamlUnavailable(String),
    /// The top level is not an object (names what it is instead).
    #[error("The document must be an object with `openapi`, `info` and `paths` fields; this one is {0}.")]
    NotAnObject(&'static str),
    /// A Swagger 2.0 (or 1.x) document.
    #[error(
        "This is a Swagger {0} document; this reference reads {SUPPORTED_VERSIONS} documents only. Convert it to OpenAPI 3.0 first."
    )]
    Swagger(String),
    /// An OpenAPI version other than 3.0.x.
    #[error("This is an OpenAPI {0} document; this reference reads {SUPPORTED_VERSIONS} documents only.")]
    UnsupportedVersion(String),
    /// No `openapi` field, or not a string.
    #[error(
        "The document has no `openapi` version field{0}, so it is not an OpenAPI document; this reference reads {SUPPORTED_VERSIONS} documents."
    )]
    MissingVersion(String),
    /// No `info` object.
    #[error("The document has no `info` object (with its `title` and `version`).")]
    MissingInfo,
    /// `info` lacks a string `title` or `version`.
    #[error("The document's `info` object has no `{0}` text.")]
    MissingInfoField(&'static str),
    /// No `paths` object.
    #[error("The document has no `paths` object, so it describes no operation.")]
    MissingPaths,
    /// A field the operation list reads has the wrong type.
    #[error("The document could not be listed: {0}.")]
    Shape(String),
    /// The server answered with an error status.
    #[error("The document could not be fetched from {url}: the server answered {status}{}.", status_words(*.status, .status_text))]
    Http {
        /// The address asked for.
        url: String,
        /// The HTTP status.
        status: u16,
        /// The status text, when the server sent one.
        status_text: String,
    },
    /// No answer the page may read: offline, wrong address, or a server that does not allow
    /// this page to read the document (CORS).
    #[error(
        "The document could not be fetched from {url}: the server did not answer, or it does not allow other sites to read it (CORS). Check the address, or download the file and load it with \u{201c}File\u{201d}."
    )]
    Network {
        /// The address asked for.
        url: String,
    },
    /// The address is not a URL the page can fetch.
    #[error("\u{201c}{0}\u{201d} is not a web address (http or https).")]
    BadUrl(String),
    /// The file could not be read.
    #[error("The file could not be read: {0}.")]
    File(String),
}

fn position(line: usize, column: usize) -> String {
    match (line, column) {
        (0, _) => String::new(),
        (l, 0) => format!(" (line {l})"),
        (l, c) => format!(" (line {l}, column {c})"),
    }
}

fn status_words(status: u16, text: &str) -> String {
    let text = text.trim();
    let text = if text.is_empty() { crate::http::reason_phrase(status) } else { text };
    if text.is_empty() { String::new() } else { format!(" {text}") }
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// Parses JSON text (a byte order mark is skipped) to a value, keys in document order.
///
/// # Errors
/// [`DocumentError::Empty`], or [`DocumentError::Json`] with the line and column.
pub fn parse_json(bytes: &[u8]) -> Result<Value, DocumentError> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(DocumentError::Empty);
    }
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let before = &bytes[..e.valid_up_to()];
        let line = before.iter().filter(|b| **b == b'\n').count() + 1;
        let column = before.iter().rev().take_while(|b| **b != b'\n').count() + 1;
        DocumentError::Json { reason: "the text is not UTF-8".into(), line, column }
    })?;
    // `from_str`, as for the embedded document: one JSON reader in the app, not two.
    serde_json::from_str(text).map_err(|e| {
        let text = e.to_string();
        // serde_json appends " at line L column C"; the variant carries them apart.
        let reason = text.split(" at line ").next().unwrap_or(&text).to_owned();
        DocumentError::Json { reason, line: e.line(), column: e.column() }
    })
}

/// Checks that `doc` is an OpenAPI 3.0 document the reference can show, and lists it.
///
/// # Errors
/// The first problem found: not an object, a Swagger or other OpenAPI version, no `openapi`,
/// `info` (with `title` and `version`) or `paths`, or a listed field of the wrong type.
pub fn validate(doc: &Value) -> Result<Catalog, DocumentError> {
    let Value::Object(fields) = doc else {
        return Err(DocumentError::NotAnObject(kind(doc)));
    };
    check_root(fields)?;
    if !fields.get("paths").is_some_and(Value::is_object) {
        return Err(DocumentError::MissingPaths);
    }
    Catalog::from_value(doc).map_err(|e| DocumentError::Shape(e.to_string()))
}

/// Reads a JSON document (a byte order mark is skipped) into an [`IndexedDocument`] (see
/// there: the list without parsing everything), checks it as [`validate`] does, and lists it.
///
/// # Errors
/// The errors of [`parse_json`] and [`validate`], with the same messages.
pub fn load_json(bytes: Vec<u8>) -> Result<(AnyDocument, Catalog), DocumentError> {
    read_json(bytes, IndexedDocument::parse)
}

/// As [`load_json`], but the list comes before the components are read (see
/// [`IndexedDocument::parse_listing`]): call [`AnyDocument::complete`] once the list is on
/// screen. Until then, a syntax error after the list's fields is not known; `complete` gives
/// it with the message [`load_json`] would have given.
///
/// # Errors
/// As [`load_json`], for the part of the text read.
pub fn list_json(bytes: Vec<u8>) -> Result<(AnyDocument, Catalog), DocumentError> {
    read_json(bytes, IndexedDocument::parse_listing)
}

type Indexer = fn(String) -> Result<IndexedDocument, (serde_json::Error, String)>;

fn read_json(mut bytes: Vec<u8>, indexer: Indexer) -> Result<(AnyDocument, Catalog), DocumentError> {
    if bytes.starts_with(b"\xEF\xBB\xBF") {
        bytes.drain(..3);
    }
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(DocumentError::Empty);
    }
    let text = match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => return Err(parse_json(e.as_bytes()).err().unwrap_or(DocumentError::Empty)),
    };
    let indexed = indexer(text).map_err(|(e, text)| index_error(&e, &text))?;
    check_index(indexed.root(), indexed.has_paths())?;
    let catalog = indexed.catalog().map_err(|e| DocumentError::Shape(e.to_string()))?;
    Ok((AnyDocument::Indexed(std::sync::Arc::new(indexed)), catalog))
}

/// What indexing `text` failed on, in [`validate`]'s and [`parse_json`]'s words: not an object,
/// or `paths` not one (rare, and a failure anyway: parsing it whole gives the same message),
/// or a syntax error with its line and column.
pub(crate) fn index_error(error: &serde_json::Error, text: &str) -> DocumentError {
    if error.is_data() {
        return whole_value_error(text);
    }
    let message = error.to_string();
    let reason = message.split(" at line ").next().unwrap_or(&message).to_owned();
    DocumentError::Json { reason, line: error.line(), column: error.column() }
}

/// The error [`validate`] gives for a document that is not an object, or whose `paths` is not.
fn whole_value_error(text: &str) -> DocumentError {
    match parse_json(text.as_bytes()).and_then(|value| validate(&value)) {
        Err(error) => error,
        Ok(_) => DocumentError::MissingPaths,
    }
}

/// The checks of an indexed document's root fields (see [`check_root`]) and that it has `paths`.
pub(crate) fn check_index(
    root: &serde_json::Map<String, Value>,
    has_paths: bool,
) -> Result<(), DocumentError> {
    check_root(root)?;
    if has_paths { Ok(()) } else { Err(DocumentError::MissingPaths) }
}

/// The checks of the root fields: an OpenAPI 3.0 version, and `info` with title and version.
fn check_root(fields: &serde_json::Map<String, Value>) -> Result<(), DocumentError> {
    match (fields.get("openapi"), fields.get("swagger")) {
        (Some(Value::String(v)), _) if is_openapi_30(v) => {}
        (Some(Value::String(v)), _) => return Err(DocumentError::UnsupportedVersion(v.clone())),
        (Some(other), _) => {
            return Err(DocumentError::MissingVersion(format!(
                " (it is {} there, where a text such as \"3.0.3\" belongs)",
                kind(other)
            )));
        }
        (None, Some(v)) => {
            let version = v.as_str().map_or_else(|| v.to_string(), str::to_owned);
            return Err(DocumentError::Swagger(version));
        }
        (None, None) => return Err(DocumentError::MissingVersion(String::new())),
    }
    let Some(Value::Object(info)) = fields.get("info") else {
        return Err(DocumentError::MissingInfo);
    };
    for field in ["title", "version"] {
        if !info.get(field).is_some_and(Value::is_string) {
            return Err(DocumentError::MissingInfoField(field));
        }
    }
    Ok(())
}

fn is_openapi_30(version: &str) -> bool {
    version.strip_prefix("3.0").is_some_and(|rest| rest.is_empty() || rest.starts_with('.'))
}

/// The document address given in a page's query string (`?url=<address>`), like Swagger UI's
/// `url` parameter; `None` when absent or empty.
#[must_use]
pub fn url_from_query(search: &str) -> Option<String> {
    let query = search.strip_prefix('?').unwrap_or(search);
    let raw = query.split('&').find_map(|pair| pair.strip_prefix("url="))?;
    // `+` is a space in a query string; `%2B` is a plus.
    let spaced = raw.replace('+', " ");
    let value = percent_encoding::percent_decode_str(&spaced).decode_utf8().ok()?;
    let value = value.trim();
    (!value.is_empty()).then(|| value.to_owned())
}

/// Where the shown document came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// The embedded Petstore document (the mock serves it).
    Builtin,
    /// Fetched from this address.
    Url(String),
    /// Read from a file with this name.
    File(String),
    /// Pasted text.
    Pasted,
}

impl Source {
    /// True for the embedded Petstore document, the only one the in-browser mock serves.
    #[must_use]
    pub fn is_builtin(&self) -> bool {
        matches!(self, Source::Builtin)
    }

    /// Where the document came from, in words ("the built-in Petstore document", "the file
    /// petstore.yaml", ...).
    #[must_use]
    pub fn describe(&self) -> String {
        match self {
            Source::Builtin => "the built-in Petstore document".to_owned(),
            Source::Url(url) => url.clone(),
            Source::File(name) => format!("the file {name}"),
            Source::Pasted => "pasted text".to_owned(),
        }
    }
}
