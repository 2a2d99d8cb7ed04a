//! A component schema as the Schemas section shows it: its tree and an example.

use serde_json::Value;

use super::tree::schema_node;
use super::{Example, ExampleSlot, Reader, SchemaNode, ViewError, generate_example};
use playground_openapi::pointer::escape_segment;

/// A component schema, as the Schemas section shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct SchemaView {
    /// Its name in `components.schemas`.
    pub name: String,
    /// The schema as a tree.
    pub tree: SchemaNode,
    /// An example generated from it (or its own `example`).
    pub example: Example,
    /// The example's block (`schema`), for the try-it module to fill with the mock's generator
    /// (as the API answers it: `writeOnly` left out), or to check the schema's own example.
    pub slot: ExampleSlot,
    /// What the schema reaches through `$ref`s (see `OperationView::schema_document`); `null`
    /// in a view built for its text ([`SchemaView::build_text`]).
    pub schema_document: Value,
}

impl SchemaView {
    /// The view of `components.schemas.<name>` in `doc`.
    ///
    /// # Errors
    /// [`ViewError::NoOperation`] is never returned; [`ViewError::BrokenRef`] when the
    /// document has no such schema.
    pub fn build(doc: &Value, name: &str) -> Result<Self, ViewError> {
        let mut view = Self::build_for(doc, name, Reader::Page)?;
        view.schema_document = super::reach::schema_document(doc, [&view.slot.schema]);
        Ok(view)
    }

    /// The view for a reader of its text (the Markdown pages): [`SchemaView::build`] without
    /// [`SchemaView::schema_document`] (`null`), its tree stopping a level below the components
    /// met under its own fields (as `OperationView::build_text`'s).
    ///
    /// # Errors
    /// As [`SchemaView::build`].
    pub fn build_text(doc: &Value, name: &str) -> Result<Self, ViewError> {
        Self::build_for(doc, name, Reader::Text)
    }

    fn build_for(doc: &Value, name: &str, reader: Reader) -> Result<Self, ViewError> {
        let Some(schema) = doc.get("components").and_then(|c| c.get("schemas")).and_then(|s| s.get(name))
        else {
            return Err(ViewError::BrokenRef(format!("there is no schema {name} in components.schemas")));
        };
        let reference =
            Value::String(format!("#/components/schemas/{}", escape_segment(name).replace('%', "%25")));
        let mut pointer = serde_json::Map::new();
        pointer.insert("$ref".to_owned(), reference);
        let pointer = Value::Object(pointer);
        let mut tree = schema_node(doc, &pointer, reader);
        // The top of the tree is the schema itself, not a link to it.
        tree.component = None;
        let slot = ExampleSlot {
            at: "schema".to_owned(),
            schema: pointer,
            documented: playground_openapi::schema::example(schema).cloned(),
            answer: true,
        };
        Ok(Self {
            name: name.to_owned(),
            tree,
            example: generate_example(doc, schema),
            slot,
            schema_document: Value::Null,
        })
    }
}
