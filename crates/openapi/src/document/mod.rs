//! Reading an OpenAPI document other than the embedded one, and the document the reference shows.
//!
//! Whether the text is JSON or YAML (the app has YAML converted to JSON by a parser loaded on
//! demand; it fetches or reads the bytes, everything else happens here), whether it has the
//! shape of an OpenAPI 3.0 document (`checks`, with the reader's messages in `error`), and the
//! text kept with an index rather than parsed whole (`indexed`). Imports go one way: `indexed`
//! uses `checks`, which uses `error`; this module puts them together.

mod any;
mod checks;
mod error;
mod format;
mod indexed;
mod outcome;
mod stream;

pub use any::{AnyDocument, Arriving, PartError};
pub use checks::{Described, Version, kind as kind_of, parse_json, validate};
pub use error::{DocumentError, SUPPORTED_VERSIONS};
pub use format::{Format, detect_format};
pub use indexed::IndexedDocument;
pub use outcome::Read;
use outcome::read_whole;
pub use stream::{DocumentStream, Listing, MAX_DOCUMENT_BYTES, Streamed};

use crate::catalog::Catalog;

/// Reads a JSON document (a byte order mark is skipped) as [`read`] does, and lists it.
///
/// # Errors
/// The errors of [`read`], and [`DocumentError::Swagger`] for a Swagger 2.0 document.
pub fn load_json(bytes: Vec<u8>) -> Result<(AnyDocument, Catalog), DocumentError> {
    read(bytes)?.into_openapi()
}

/// Reads a JSON document's text at once, as [`DocumentStream`] reads one as it arrives: an
/// [`IndexedDocument`] (the list without parsing everything) checked as [`validate`] does, or a
/// Swagger 2.0 document handed back as its text, for the converter ([`crate::convert`], which
/// the page loads as a module of its own only when a document needs it).
///
/// # Errors
/// The errors of [`parse_json`] and [`validate`], with the same messages.
pub fn read(bytes: Vec<u8>) -> Result<Read, DocumentError> {
    let mut stream = DocumentStream::new(bytes.len());
    stream.push(&bytes)?;
    drop(bytes);
    match stream.finish()? {
        Streamed::Json(read) => Ok(read),
        // Not an object or a list: what JSON's reader and the checks say.
        Streamed::Yaml(bytes) => read_whole(&bytes),
    }
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

impl IndexedDocument {
    /// Reads `text`, which must be a JSON object (see [`DocumentStream`], which this
    /// feeds it to at once): the whole text is checked for JSON syntax; `paths` must be an
    /// object when present, and so must `components` and each kind in it (anything else there
    /// is ignored, as a reference into it would not resolve).
    ///
    /// # Errors
    /// A syntax error with its line and column, or the text is not an object, or `paths` is
    /// not one; or a Swagger 2.0 document ([`DocumentError::Swagger`]: it is read once
    /// converted).
    pub fn parse(text: String) -> Result<Self, DocumentError> {
        match read(text.into_bytes())? {
            Read::OpenApi(AnyDocument::Indexed(doc), _) => std::sync::Arc::try_unwrap(doc)
                .map_err(|_| DocumentError::Shape("the document is shared".to_owned())),
            Read::Swagger2(_) => Err(DocumentError::Swagger("2.0".to_owned())),
            Read::OpenApi(..) => Err(DocumentError::Shape("the index could not follow the text".to_owned())),
        }
    }
}
