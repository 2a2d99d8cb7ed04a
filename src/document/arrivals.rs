//! The documents shown while their text arrived, once one arrived whole.

use std::sync::{Arc, Weak};

use leptos::prelude::*;
use petstore_core::Catalog;
use petstore_core::document::{AnyDocument, Arriving};

/// The documents shown while their text arrived, once one arrived whole: the views that
/// waited for it are made again (when `count` changes), and the list and the header follow its
/// whole list (the reference reads it from the context, when it is there). The last document
/// is held weakly: once another is shown, nothing keeps it.
#[derive(Debug, Clone, Copy)]
pub struct Arrivals {
    count: RwSignal<usize>,
    last: StoredValue<Option<(Weak<Arriving>, Catalog)>>,
}

impl Arrivals {
    pub(super) fn new() -> Self {
        Self { count: RwSignal::new(0), last: StoredValue::new(None) }
    }

    /// `document`, shown while it arrived, arrived whole with `catalog` as its list.
    pub(super) fn arrived(self, document: &Arc<Arriving>, catalog: Catalog) {
        self.last.set_value(Some((Arc::downgrade(document), catalog)));
        self.count.update(|n| *n += 1);
    }

    /// How many documents arrived whole (tracked: the caller runs again at the next).
    #[must_use]
    pub fn count(self) -> usize {
        self.count.get()
    }

    /// The whole list of `document`, once it arrived (a copy). For a document shown while it
    /// arrived, the caller runs again when it arrives.
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
