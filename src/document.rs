//! The document the reference shows, and loading another one: by URL (also `?url=` at start),
//! from a file or from pasted text, JSON or YAML. The checks and messages are the core's
//! (`playground_openapi::document`); this module fetches and reads bytes, has YAML converted by
//! js-yaml (`vendor/js-yaml.min.js`, loaded only when a document is not JSON), and swaps
//! the document only when the new one is valid, so a failed load keeps the current one.

use std::sync::Arc;

use leptos::prelude::*;
use playground_openapi::Catalog;
use playground_openapi::document::{
    self, AnyDocument, Arriving, DocumentError, DocumentStream, Format, Listing, Read, Source, Streamed,
};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

mod arrivals;
mod js;
mod read;

pub use arrivals::Arrivals;
use read::{read, read_js};

pub(crate) use js::show_loader;
use js::{
    bundle_document_js, bytes, cancel_read_js, field, next_chunk_js, number, open_document_js,
    read_document_js, set_page_url_js, settled_within_js, text, yaml_to_json_js,
};

/// A document ready to show: parsed, checked and listed.
#[derive(Debug, Clone)]
pub struct Loaded {
    /// The document (operation views are built from it on demand): indexed text
    /// (`playground_openapi::document::IndexedDocument`), or parsed whole after a conversion; or,
    /// while its text still arrives, `AnyDocument::Arriving`, which takes the whole document
    /// when it is in ([`Arrivals`] says when).
    pub value: AnyDocument,
    /// Its operation list.
    pub catalog: Catalog,
    /// Where it came from.
    pub source: Source,
    /// For a Swagger 2.0 document, read once converted to OpenAPI 3.0: what the conversion
    /// could not carry over exactly, in sentences (perhaps none).
    pub converted: Option<Vec<String>>,
    /// The text as it came (YAML, pasted Swagger 2.0), when it is not the indexed JSON text.
    pub original: Option<Arc<[u8]>>,
    /// Where to read the text as it came again, for "Download the document": the text kept
    /// of a JSON document has no indentation (`DocumentStream`).
    reread: Option<Input>,
}

impl Loaded {
    /// The Petstore document from its text (`petstore.json`, or the one a test provides).
    ///
    /// # Errors
    /// Only if the text stopped being a listable document, which the core tests rule out.
    fn builtin(json: Vec<u8>) -> Result<Self, DocumentError> {
        match document::read(json)? {
            Read::OpenApi(value, catalog) => Ok(Self::new(value, catalog, Source::Builtin)),
            Read::Swagger2(_) => {
                Err(DocumentError::Shape("the Petstore document is not OpenAPI 3".to_owned()))
            }
        }
    }

    fn new(value: AnyDocument, catalog: Catalog, source: Source) -> Self {
        Self { value, catalog, source, converted: None, original: None, reread: None }
    }

    /// Saves the document's text, as it came, as a file named after its source, when run; a
    /// refusal goes to the console. Holds the document, not its list.
    #[must_use]
    pub fn saver(&self) -> Callback<()> {
        let (value, source, original) = (self.value.clone(), self.source.clone(), self.original.clone());
        let reread = self.reread.clone();
        Callback::new(move |()| {
            let (value, source, original, reread) =
                (value.clone(), source.clone(), original.clone(), reread.clone());
            leptos::task::spawn_local(async move {
                // The text as it came, read again; the text kept (the same JSON) if that fails.
                let again = match reread {
                    Some(input) if original.is_none() => bytes(&read_js(&input).await),
                    _ => None,
                };
                save(&value, &source, again.as_deref().or(original.as_deref()));
            });
        })
    }

    /// Parses JSON or YAML bytes and checks the document.
    ///
    /// # Errors
    /// Any [`DocumentError`] about the text or the document's shape.
    async fn parse(bytes: Vec<u8>, source: Source) -> Result<Self, DocumentError> {
        let (json, original) = match document::detect_format(&bytes) {
            Format::Json => (bytes, None),
            Format::Yaml => {
                if bytes.iter().all(u8::is_ascii_whitespace) {
                    return Err(DocumentError::Empty);
                }
                (yaml_to_json(&bytes).await?, Some(Arc::<[u8]>::from(bytes)))
            }
        };
        let read = document::read(json)?;
        Self::from_read(read, source, original).await
    }

    /// A document read (bundled first when it refers to other files, converted first when it
    /// is Swagger 2.0); `original` is its text as it came when that is not the text read.
    async fn from_read(
        read: Read,
        source: Source,
        original: Option<Arc<[u8]>>,
    ) -> Result<Self, DocumentError> {
        // A bundle is the document: "Download the document" gives it, not the root file alone.
        let (read, original) = match bundle_files(&read, &source).await? {
            Some(bundled) => (document::read(bundled.clone())?, Some(Arc::<[u8]>::from(bundled))),
            None => (read, original),
        };
        match read {
            Read::OpenApi(value, catalog) => Ok(Self { original, ..Self::new(value, catalog, source) }),
            Read::Swagger2(text) => {
                let (json, notes) = convert_swagger2(text.into_bytes()).await?;
                let (value, catalog) = document::load_json(json)?;
                Ok(Self { converted: Some(notes), original, ..Self::new(value, catalog, source) })
            }
        }
    }
}

/// Saves `value`'s text (or `original`, the text as it came) as a file named after `source`.
fn save(value: &AnyDocument, source: &Source, original: Option<&[u8]>) {
    let serialized: Vec<u8>;
    let bytes: &[u8] = match (original, value) {
        (Some(original), _) => original,
        (None, AnyDocument::Indexed(doc)) => doc.text().as_bytes(),
        // Only a document parsed whole without its original text (none the loader makes).
        (None, AnyDocument::Whole(value)) => {
            serialized = serde_json::to_vec(&**value).unwrap_or_default();
            &serialized
        }
        // Not read again: the whole document once it arrived; nothing whole before.
        (None, AnyDocument::Arriving(doc)) => {
            match doc.whole() {
                Some(whole) => save(whole, source, None),
                None => {
                    web_sys::console::warn_1(&"The document was not saved: it is still downloading.".into())
                }
            }
            return;
        }
    };
    let yaml = document::detect_format(bytes) == Format::Yaml;
    let fallback = if yaml { "openapi.yaml" } else { "openapi.json" };
    let named = match source {
        Source::Url(url) => {
            url.split(['?', '#']).next().and_then(|u| u.rsplit('/').next()).map(str::to_owned)
        }
        Source::File(name) => Some(name.clone()),
        Source::Builtin => Some("petstore.json".to_owned()),
        Source::Pasted => None,
    };
    let name = named.filter(|n| !n.trim().is_empty()).unwrap_or_else(|| fallback.to_owned());
    let media_type = if yaml { "application/yaml" } else { "application/json" };
    if let Err(e) = playground_browser::download(&name, media_type, bytes) {
        web_sys::console::warn_1(&format!("The document was not saved: {e}").into());
    }
}

/// A document to read.
#[derive(Debug, Clone)]
enum Input {
    /// An address, relative to the page or absolute.
    Url(String),
    /// A file the reader chose.
    File(web_sys::File),
    /// Pasted text.
    Text(String),
    /// The Petstore document, [`BUILTIN_PATH`].
    Builtin,
}

/// The Petstore document the reference shows when no other is named, relative to the page: a
/// file beside the app (written by `scripts/build-modules.sh` from `openapi/petstore.yaml`), not
/// text inside its WebAssembly, so it downloads alongside the app (index.html starts it) and
/// stays out of the code's size budget. A test provides it instead ([`BuiltinText`]).
pub const BUILTIN_PATH: &str = "petstore.json";

/// The Petstore document's text, provided by a test (context) so the app shows it at once
/// instead of fetching [`BUILTIN_PATH`].
#[derive(Debug, Clone, Copy)]
pub struct BuiltinText(pub &'static str);

impl Input {
    /// What is read, in words, for the loader's status.
    fn describe(&self) -> String {
        match self {
            Input::Url(address) => format!("Loading {address}\u{2026}"),
            Input::File(_) => "Reading the file\u{2026}".to_owned(),
            Input::Text(_) => "Reading the pasted document\u{2026}".to_owned(),
            Input::Builtin => "Loading the Petstore document\u{2026}".to_owned(),
        }
    }
}

/// YAML text to JSON bytes, by js-yaml (core schema: dates stay text).
async fn yaml_to_json(yaml: &[u8]) -> Result<Vec<u8>, DocumentError> {
    let result = JsFuture::from(yaml_to_json_js(js_sys::Uint8Array::from(yaml)))
        .await
        .map_err(|e| DocumentError::YamlUnavailable(e.as_string().unwrap_or_default()))?;
    if let Some(json) = bytes(&result) {
        return Ok(json);
    }
    if let Some(reason) = field(&result, "unavailable").as_string() {
        return Err(DocumentError::YamlUnavailable(reason));
    }
    Err(DocumentError::Yaml {
        reason: text(&result, "reason"),
        line: number(&result, "line"),
        column: number(&result, "column"),
    })
}

/// The Swagger 2.0 converter's module (built from crates/modules/convert),
/// relative to the page: loaded the first time a document needs it.
const CONVERTER_PATH: &str = "convert/playground_convert.js";

/// A Swagger 2.0 document's JSON converted to OpenAPI 3.0 by the converter module, and the
/// converter's notes.
async fn convert_swagger2(json: Vec<u8>) -> Result<(Vec<u8>, Vec<String>), DocumentError> {
    let module = crate::modules::load(CONVERTER_PATH).await.map_err(DocumentError::ConverterUnavailable)?;
    let convert: js_sys::Function = field(&module, "convertSwagger2").unchecked_into();
    let result = convert
        .call1(&JsValue::UNDEFINED, &js_sys::Uint8Array::from(json.as_slice()))
        .map_err(|e| DocumentError::Conversion(crate::modules::message_of(&e)))?;
    let Some(converted) =
        field(&result, "json").dyn_ref::<js_sys::Uint8Array>().map(js_sys::Uint8Array::to_vec)
    else {
        return Err(DocumentError::Conversion(text(&result, "error")));
    };
    let notes = field(&result, "notes")
        .dyn_into::<js_sys::Array>()
        .map(|notes| notes.iter().filter_map(|n| n.as_string()).collect())
        .unwrap_or_default();
    Ok((converted, notes))
}

/// The JSON of a document fetched from a URL bundled with the files its references name
/// (`playground_openapi::bundle`, in the converter's module), or `None` when it names none. A
/// reference that cannot be followed stays with why beside it, which its views show.
async fn bundle_files(read: &Read, source: &Source) -> Result<Option<Vec<u8>>, DocumentError> {
    let Source::Url(address) = source else { return Ok(None) };
    let json = match read {
        Read::OpenApi(AnyDocument::Indexed(doc), _) => doc.text(),
        Read::Swagger2(text) => text.as_str(),
        Read::OpenApi(..) => return Ok(None),
    };
    if !playground_openapi::bundle::text_may_refer_to_other_files(json) {
        return Ok(None);
    }
    let json = json.as_bytes();
    let module = crate::modules::load(CONVERTER_PATH).await.map_err(DocumentError::BundlerUnavailable)?;
    let result = JsFuture::from(bundle_document_js(&module, address, js_sys::Uint8Array::from(json)))
        .await
        .map_err(|e| DocumentError::Bundle(crate::modules::message_of(&e)))?;
    match bytes(&result) {
        Some(json) => Ok(Some(json)),
        None => Err(DocumentError::Bundle(text(&result, "error"))),
    }
}

/// What the loader is doing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Status {
    /// Nothing under way.
    Idle,
    /// A load is under way; what it reads, in words, e.g. "Loading https://…".
    Loading(String),
    /// The last load failed; the message says why. The document shown did not change.
    Failed(String),
}

/// One load: what to read, and whether the page's address stays as it is (the `?url=` load
/// at the start) or follows the document (`?url=<address>`, or no query for a file or text).
#[derive(Debug, Clone)]
struct Load {
    input: Input,
    keep_address: bool,
}

/// The shown document and its loads, scoped to the mount. `Copy`: hand it to any component.
#[derive(Debug, Clone, Copy)]
pub struct DocumentState {
    /// The document shown; `None` only while the first one (`?url=`) loads.
    pub current: RwSignal<Option<Loaded>>,
    failed: RwSignal<Option<String>>,
    /// What the load under way reads, in words. It stays set until the document is read whole
    /// (after the list is painted, for the first one).
    loading: RwSignal<Option<String>>,
    /// Numbers the loads. Only the newest one shows its result, so a newer load or Back
    /// supersedes the one under way; once the mount is gone, none does.
    ///
    /// A number rather than a Leptos `Action`, which keeps only its newest dispatch's final
    /// value: a load shows more than its end (its list while the text still arrives, then the
    /// whole of `paths`, the built-in document when a `?url=` one fails), and its reading asks
    /// between two chunks whether to go on (`alive`), cancelling the JavaScript reader, and so
    /// the download, when not. Those need the number whatever holds the result, and an aborted
    /// `Action` task is dropped between two awaits without cancelling the reader. And an
    /// `Action` dispatching the loads, with the number kept, makes the first download 3.6 KB
    /// gzip larger (8.0 KB raw wasm).
    newest: StoredValue<u64>,
    /// The Petstore document once read, so showing it again reads nothing.
    petstore: StoredValue<Option<Loaded>>,
    /// A published site's page (`crate::site`): its own document is the only one, so the
    /// Petstore document is never read, not even when that document fails to load.
    own_only: bool,
    /// The arriving document shown, once it arrived whole.
    pub arrivals: Arrivals,
}

impl DocumentState {
    /// Loads the document named by the page's `?url=`, or the Petstore document: the text a
    /// test provided ([`BuiltinText`], shown at once), else [`BUILTIN_PATH`]. With `own` (a
    /// published site's document, relative to the page or absolute), that document and no
    /// other: `?url=` is not read, and a failure is shown with no document.
    #[must_use]
    pub fn start(own: Option<&str>) -> Self {
        let provided =
            use_context::<BuiltinText>().map(|BuiltinText(text)| Loaded::builtin(text.as_bytes().to_vec()));
        let state = Self {
            current: RwSignal::new(None),
            failed: RwSignal::new(None),
            loading: RwSignal::new(None),
            newest: StoredValue::new(0),
            petstore: StoredValue::new(provided.and_then(Result::ok)),
            own_only: own.is_some(),
            arrivals: Arrivals::new(),
        };
        // One call of `dispatch` for both: each call site of it is inlined into the first
        // download.
        let address = match own {
            Some(address) => Some(address.trim().to_owned()),
            None => {
                let search = web_sys::window().and_then(|w| w.location().search().ok()).unwrap_or_default();
                document::url_from_query(&search)
            }
        };
        match address {
            Some(address) => state.dispatch(Load { input: Input::Url(address), keep_address: true }),
            None => state.builtin(),
        }
        state
    }

    /// What the loader is doing (tracked).
    #[must_use]
    pub fn status(self) -> Status {
        match self.loading.get() {
            Some(what) => Status::Loading(what),
            None => self.failed.get().map_or(Status::Idle, Status::Failed),
        }
    }

    /// Hides the last load's error.
    pub fn dismiss(self) {
        self.failed.set(None);
    }

    /// Shows the Petstore document again and drops `?url=` from the address.
    pub fn back_to_builtin(self) {
        self.supersede();
        self.failed.set(None);
        set_page_url(None);
        self.builtin();
    }

    /// Loads the document at `address` (relative to the page, or absolute); on success the
    /// page's address becomes `?url=<address>` so it can be bookmarked.
    pub fn load_url(self, address: &str) {
        let address = address.trim().to_owned();
        self.dispatch(Load { input: Input::Url(address), keep_address: false });
    }

    /// Loads a file the reader chose.
    pub fn load_file(self, file: web_sys::File) {
        self.dispatch(Load { input: Input::File(file), keep_address: false });
    }

    /// Loads pasted text.
    pub fn load_text(self, text: String) {
        self.dispatch(Load { input: Input::Text(text), keep_address: false });
    }

    fn dispatch(self, load: Load) {
        let this = self.supersede();
        self.failed.set(None);
        self.loading.set(Some(load.input.describe()));
        let listing = self.current.with_untracked(Option::is_none);
        leptos::task::spawn_local(async move {
            self.load(load, listing, this).await;
            if self.is_newest(this) {
                self.loading.set(None);
            }
        });
    }

    /// Ends the load under way (its result will not be shown); the number of the next one.
    fn supersede(self) -> u64 {
        self.loading.set(None);
        self.newest.update_value(|newest| *newest += 1);
        self.newest.get_value()
    }

    /// Whether load `this` is the newest of a mount that is still there.
    fn is_newest(self, this: u64) -> bool {
        self.newest.try_get_value() == Some(this)
    }

    /// Shows the Petstore document, reading it first if it was not read yet. The load's
    /// message (a failed `?url=` one) stays; a newer load supersedes the read.
    fn builtin(self) {
        if self.own_only {
            return;
        }
        if let Some(loaded) = self.petstore.get_value() {
            self.current.set(Some(loaded));
            return;
        }
        let this = self.newest.get_value();
        if self.failed.with_untracked(Option::is_none) {
            self.loading.set(Some(Input::Builtin.describe()));
        }
        leptos::task::spawn_local(async move {
            let read = read(&Input::Builtin, None, 0, 0.0, &|| true).await;
            if !self.is_newest(this) {
                return;
            }
            self.loading.set(None);
            match read {
                Ok(loaded) => {
                    self.petstore.set_value(Some(loaded.clone()));
                    self.current.set(Some(loaded));
                }
                Err(e) => {
                    let earlier = self.failed.get_untracked();
                    self.failed.set(Some(match earlier {
                        Some(earlier) => {
                            format!("{earlier} The Petstore document could not be shown either. {e}")
                        }
                        None => e.to_string(),
                    }));
                }
            }
        });
    }

    /// Reads a document and shows it if it is valid and load `this` is still the newest. With
    /// `listing` (nothing is shown yet: the `?url=` document at the start) it is listed as soon
    /// as its list can be, while the rest of it still downloads; a problem found in the rest
    /// shows the built-in document with the message, as a problem found at once does. A document loaded over a shown one
    /// is read whole first, so that a broken one never replaces it.
    async fn load(self, load: Load, listing: bool, this: u64) {
        // The document shown early, while its text arrived.
        let early_shown: std::cell::RefCell<Option<Arc<Arriving>>> = std::cell::RefCell::default();
        let early = |loaded: Loaded| {
            if !self.is_newest(this) {
                return;
            }
            if let AnyDocument::Arriving(arriving) = &loaded.value {
                let shown = early_shown.borrow().clone();
                if let Some(shown) = shown.filter(|shown| Arc::ptr_eq(shown, arriving)) {
                    // The whole list of `paths`, after its first rows: the list follows it in
                    // place.
                    self.arrivals.arrived(&shown, loaded.catalog);
                    return;
                }
                *early_shown.borrow_mut() = Some(Arc::clone(arriving));
            }
            self.current.set(Some(loaded));
        };
        let alive = || self.is_newest(this);
        // The first rows alone are shown first when the list opens at its top. A deep link
        // scrolls the list to a row that may not be read yet, and its list waits a moment for
        // the rest of the document, which has what the operation needs.
        let deep_link = !no_hash();
        let first_rows = if listing && !deep_link { crate::layout::rows_in_view() } else { 0 };
        let hold_ms = if listing && deep_link { DEEP_LINK_HOLD_MS } else { 0.0 };
        let read =
            read(&load.input, listing.then_some(&early as &dyn Fn(Loaded)), first_rows, hold_ms, &alive)
                .await;
        if !self.is_newest(this) {
            return;
        }
        let loaded = match read {
            Ok(loaded) => loaded,
            Err(e) => return self.fail(e, listing),
        };
        if !load.keep_address {
            set_page_url(match &load.input {
                Input::Url(address) => Some(address.as_str()),
                Input::File(_) | Input::Text(_) | Input::Builtin => None,
            });
        }
        if let Some(shown) = early_shown.take()
            && loaded.converted.is_none()
        {
            // The document shown took the whole one (`read` gave it): the views that waited
            // for it are made again, and the list, the header and the overview follow it in
            // place. The page is not made again: the list keeps its place, a form its input.
            self.arrivals.arrived(&shown, loaded.catalog);
            return;
        }
        self.current.set(Some(loaded));
    }

    /// A load failed: the message and, with `show_builtin` (the `?url=` document failed at
    /// start, at once or when its rest was read), the built-in document; on a site's page, no
    /// document (its start page shows the message).
    fn fail(self, error: DocumentError, show_builtin: bool) {
        self.failed.set(Some(error.to_string()));
        if show_builtin && self.own_only {
            // A site's document failed at start (perhaps after its list was shown): the start
            // page says why, with no document.
            self.current.set(None);
        } else if show_builtin {
            self.builtin();
        }
    }
}

/// How long a deep link's list, read before the rest of its document, waits for that rest.
/// On a fast connection the rest most often comes within it (GitHub's 13 MB, served from the
/// same machine: about 100 ms after its `paths`), and the page is then painted once, with the
/// operation; on a slow one the list shows this much later than it could have.
const DEEP_LINK_HOLD_MS: f64 = 150.0;

/// Whether the page's address names no operation or page (`#...`).
fn no_hash() -> bool {
    web_sys::window().and_then(|w| w.location().hash().ok()).is_none_or(|hash| hash.len() <= 1)
}

/// Replaces the page's address (no new history entry): `?url=<address>` or no query, and no
/// `#operation` (it belonged to the previous document).
fn set_page_url(address: Option<&str>) {
    set_page_url_js(address);
}
