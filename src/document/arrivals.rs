//! The documents shown while their text arrived, once more of one arrived: the whole of its
//! `paths` (when only its first rows were listed), then the whole document.

use std::sync::{Arc, Weak};

use leptos::prelude::*;
use playground_openapi::Catalog;
use playground_openapi::document::{AnyDocument, Arriving};

/// The documents shown while their text arrived, once more of one arrived (the whole of its
/// `paths` after its first rows, then the whole document): the views that waited for it are
/// made again (when `count` changes), and the list and the header follow its list (the
/// reference reads it from the context, when it is there). The last document is held weakly:
/// once another is shown, nothing keeps it.
#[derive(Debug, Clone, Copy)]
pub struct Arrivals {
    count: RwSignal<usize>,
    last: StoredValue<Option<(Weak<Arriving>, Catalog)>>,
}

impl Arrivals {
    pub(super) fn new() -> Self {
        Self { count: RwSignal::new(0), last: StoredValue::new(None) }
    }

    /// More of `document`, shown while it arrived, is in: `catalog` is its list now.
    pub(super) fn arrived(self, document: &Arc<Arriving>, catalog: Catalog) {
        self.last.set_value(Some((Arc::downgrade(document), catalog)));
        self.count.update(|n| *n += 1);
    }

    /// How many times more of a document arrived (tracked: the caller runs again at the next).
    #[must_use]
    pub fn count(self) -> usize {
        self.count.get()
    }

    /// The latest list of `document` (a copy), once more of it arrived than its first list.
    /// For a document shown while it arrived, the caller runs again when more arrives.
    #[must_use]
    pub fn list_of(self, document: &AnyDocument) -> Option<Catalog> {
        let AnyDocument::Arriving(document) = document else { return None };
        self.count.track();
        let document = Arc::downgrade(document);
        self.last.with_value(|last| {
            last.as_ref().filter(|(arrived, _)| arrived.ptr_eq(&document)).map(|(_, catalog)| catalog.clone())
        })
    }
}
