//! What reading a document's JSON gave: an indexed OpenAPI document and its list, or a
//! Swagger 2.0 document's text for the converter.

use std::sync::Arc;

use super::any::AnyDocument;
use super::checks::{self, parse_json};
use super::error::DocumentError;
use super::indexed::IndexedDocument;
use crate::catalog::{Catalog, ItemsRead};

/// Why a text the index could not follow cannot be shown, as reading it whole as one value
/// says: a syntax error with its line and column, or what is wrong with the document.
pub(super) fn read_whole(bytes: &[u8]) -> Result<Read, DocumentError> {
    match parse_json(bytes).and_then(|value| checks::check_shape(&value)) {
        Err(DocumentError::Swagger(version)) if version == "2.0" => {
            Ok(Read::Swagger2(String::from_utf8_lossy(bytes).into_owned()))
        }
        Err(e) => Err(e),
        // The index follows every document the checks take (the stream's property tests
        // compare it with reading the whole value).
        Ok(()) => Err(DocumentError::Shape("its text could not be indexed".to_owned())),
    }
}

/// What reading a document's JSON gave.
#[derive(Debug)]
pub enum Read {
    /// An OpenAPI 3 document, and its list.
    OpenApi(AnyDocument, Catalog),
    /// A Swagger 2.0 document's text, to convert to OpenAPI 3.0 before it is read again.
    Swagger2(String),
}

impl Read {
    pub(super) fn into_openapi(self) -> Result<(AnyDocument, Catalog), DocumentError> {
        match self {
            Self::OpenApi(document, catalog) => Ok((document, catalog)),
            Self::Swagger2(_) => Err(DocumentError::Swagger("2.0".to_owned())),
        }
    }
}

/// An indexed document checked and listed from its items read already, or handed back as text
/// when it is Swagger 2.0.
pub(super) fn read_indexed(
    indexed: IndexedDocument,
    paths: &ItemsRead,
    webhooks: &ItemsRead,
) -> Result<Read, DocumentError> {
    match checks::check_index(indexed.root(), indexed.described()) {
        Ok(_) => {}
        Err(DocumentError::Swagger(version)) if version == "2.0" => {
            return Ok(Read::Swagger2(indexed.into_text()));
        }
        Err(error) => return Err(error),
    }
    let catalog = indexed.catalog_of(paths, webhooks).map_err(checks::listing_error)?;
    Ok(Read::OpenApi(AnyDocument::Indexed(Arc::new(indexed)), catalog))
}
