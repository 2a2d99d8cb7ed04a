//! Which security schemes of a document have credentials, as the page knows it: the try-it
//! module keeps them and announces every change (`playground_browser::credentials`); until it
//! has, the schemes this browser remembers. The operation list marks with it which operations
//! need credentials and which have them.

use std::cell::RefCell;
use std::collections::HashMap;

use leptos::prelude::*;
use playground_browser::credentials::{EVENT, announced, remembered};
use playground_openapi::security::{Access, Requirements, access};

thread_local! {
    /// The last announcement of each document, for the page's life: a document shown again
    /// (the module keeps its vault and does not announce it again) finds what was filled.
    static LAST: RefCell<Option<HashMap<String, Vec<String>>>> = const { RefCell::new(None) };
}

/// What the list needs to mark an operation: the document's `security` (for operations
/// without their own; the list takes it again with its rows when the rest of the document
/// arrives) and the schemes with credentials.
#[derive(Debug, Clone)]
pub struct Marking {
    /// The document's requirements.
    pub document: Requirements,
    /// The schemes with a usable credential (and those the browser fills itself: mutual TLS).
    pub filled: RwSignal<Vec<String>>,
}

/// The [`Access`] of an operation with `requirements`, the schemes of `filled` having
/// credentials.
#[must_use]
pub fn access_of(requirements: &Requirements, filled: &[String]) -> Access {
    access(requirements, &|name| filled.iter().any(|f| f == name))
}

/// The schemes of `document` (a document key) with credentials, and the `always` filled ones,
/// following the module's announcements while the current owner lives.
pub fn filled(document: &str, always: Vec<String>) -> RwSignal<Vec<String>> {
    listen_for_the_page();
    let known = LAST.with(|last| last.borrow().as_ref().and_then(|l| l.get(document).cloned()));
    let with_always = move |mut names: Vec<String>| {
        names.extend(always.iter().cloned());
        names
    };
    let filled = RwSignal::new(with_always.clone()(known.unwrap_or_else(|| remembered(document))));
    let key = document.to_owned();
    let listener = window_event_listener_untyped(EVENT, move |event| {
        if let Some((document, names)) = announced(&event)
            && document == key
        {
            filled.set(with_always(names));
        }
    });
    on_cleanup(move || listener.remove());
    filled
}

/// Keeps the last announcement of every document in [`LAST`] (once per page).
fn listen_for_the_page() {
    LAST.with(|last| {
        if last.borrow().is_some() {
            return;
        }
        *last.borrow_mut() = Some(HashMap::new());
        // For the page's life: never removed.
        let handle = window_event_listener_untyped(EVENT, |event| {
            if let Some((document, names)) = announced(&event) {
                LAST.with(|last| {
                    if let Some(last) = last.borrow_mut().as_mut() {
                        last.insert(document, names);
                    }
                });
            }
        });
        std::mem::forget(handle);
    });
}
