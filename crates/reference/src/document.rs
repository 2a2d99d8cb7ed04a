//! The views of a document the reference shows ([`AnyDocument`]), whole, indexed or still
//! arriving: the document gives the part a view is built from, this module builds the view.

use playground_openapi::catalog::{Method, OperationSummary};
use playground_openapi::document::{AnyDocument, PartError};

use crate::{OperationView, SchemaView, ViewError};

/// The views of a document: the reference's operations and schemas.
pub trait DocumentViews {
    /// The view of one operation.
    ///
    /// # Errors
    /// As [`OperationView::build`]; [`ViewError::NoOperation`] for a path the document does not
    /// have, and for one whose part of an indexed document cannot be read; [`ViewError::Arriving`]
    /// while the rest of the text is still arriving.
    fn operation_view(&self, method: Method, path: &str) -> Result<OperationView, ViewError>;

    /// The view of the operation `method` of the webhook `name`.
    ///
    /// # Errors
    /// As [`Self::operation_view`].
    fn webhook_view(&self, method: Method, name: &str) -> Result<OperationView, ViewError>;

    /// The view of the operation a list entry names (a path's or a webhook's).
    ///
    /// # Errors
    /// As [`Self::operation_view`].
    fn view_of(&self, op: &OperationSummary) -> Result<OperationView, ViewError> {
        if op.webhook {
            self.webhook_view(op.method, &op.path)
        } else {
            self.operation_view(op.method, &op.path)
        }
    }

    /// The view of the component schema `name`.
    ///
    /// # Errors
    /// [`ViewError::BrokenRef`] when there is no such schema, [`ViewError::Arriving`] as above.
    fn schema_view(&self, name: &str) -> Result<SchemaView, ViewError>;
}

impl DocumentViews for AnyDocument {
    fn operation_view(&self, method: Method, path: &str) -> Result<OperationView, ViewError> {
        let doc = self.operation_document(path).map_err(|e| missing(e, || path.to_owned()))?;
        OperationView::build(&doc, method, path)
    }

    fn webhook_view(&self, method: Method, name: &str) -> Result<OperationView, ViewError> {
        let doc =
            self.webhook_document(name).map_err(|e| missing(e, || format!("{} {name}", method.as_str())))?;
        OperationView::build_webhook(&doc, method, name)
    }

    fn schema_view(&self, name: &str) -> Result<SchemaView, ViewError> {
        let doc = self.schema_document(name)?;
        SchemaView::build(&doc, name)
    }
}

/// [`ViewError::NoOperation`] naming what `what` says, for a missing part.
fn missing(error: PartError, what: impl FnOnce() -> String) -> ViewError {
    match error {
        PartError::Missing => ViewError::NoOperation(what()),
        PartError::Arriving => ViewError::Arriving,
    }
}

impl From<PartError> for ViewError {
    fn from(error: PartError) -> Self {
        missing(error, String::new)
    }
}
