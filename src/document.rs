//! The document the reference shows, and loading another one: by URL (also `?url=` at start),
//! from a file or from pasted text, JSON or YAML. The checks and messages are the core's
//! (`petstore_core::document`); this module fetches and reads bytes, has YAML converted by
//! js-yaml (`vendor/js-yaml.min.js`, loaded only when a document is not JSON), and swaps
//! the document only when the new one is valid, so a failed load keeps the current one.

use leptos::prelude::*;
use petstore_core::Catalog;
use petstore_core::document::{self, DocumentError, Format, Source};
use petstore_core::indexed::AnyDocument;
use petstore_core::openapi::petstore_value;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

/// A document ready to show: parsed, checked and listed.
#[derive(Debug, Clone)]
pub struct Loaded {
    /// The document (operation views are built from it on demand): the embedded one parsed
    /// whole, a loaded one indexed (`petstore_core::indexed`).
    pub value: AnyDocument,
    /// Its operation list.
    pub catalog: Catalog,
    /// Where it came from.
    pub source: Source,
}

impl Loaded {
    /// The embedded Petstore document.
    ///
    /// # Errors
    /// Only if the embedded document stopped being listable, which the core tests rule out.
    pub fn builtin() -> Result<Self, DocumentError> {
        let value = petstore_value();
        let catalog = Catalog::from_value(&value).map_err(|e| DocumentError::Shape(e.to_string()))?;
        Ok(Self { value: AnyDocument::Whole(value), catalog, source: Source::Builtin })
    }

    /// Parses JSON or YAML bytes and checks the document. With `listing`, reading stops once
    /// the operation list can be shown (`petstore_core::document::list_json`): the caller
    /// completes it (`value.complete()`) after the list is painted.
    ///
    /// # Errors
    /// Any [`DocumentError`] about the text or the document's shape.
    pub async fn parse(bytes: Vec<u8>, source: Source, listing: bool) -> Result<Self, DocumentError> {
        let json = match document::detect_format(&bytes) {
            Format::Json => bytes,
            Format::Yaml => {
                if bytes.iter().all(u8::is_ascii_whitespace) {
                    return Err(DocumentError::Empty);
                }
                yaml_to_json(&bytes).await?
            }
        };
        let (value, catalog) = if listing { document::list_json(json)? } else { document::load_json(json)? };
        Ok(Self { value, catalog, source })
    }
}

// Input and output stay in JavaScript (fetch, file reads, js-yaml): the initial WebAssembly
// has a size budget. The bytes cross into Rust as one Uint8Array, which is much cheaper than a
// string for large documents; every decision and message is Rust's (the core's).
#[wasm_bindgen(inline_js = r#"
export async function readDocument(kind, input) {
  if (kind === "text") return { bytes: new TextEncoder().encode(input), label: "" };
  if (kind === "file") {
    try {
      return { bytes: new Uint8Array(await input.arrayBuffer()), label: input.name };
    } catch (e) {
      return { error: "file", message: String((e && e.message) || e) };
    }
  }
  let url;
  try {
    url = new URL(String(input).trim(), document.baseURI);
  } catch (e) {
    return { error: "bad-url" };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return { error: "bad-url" };
  try {
    // index.html starts downloading the ?url= document before the app runs; taken once.
    const early = globalThis.__petstoreEarlyDocument;
    let answer;
    if (early && early.href === url.href) {
      globalThis.__petstoreEarlyDocument = undefined;
      answer = await early.answer;
    } else {
      const response = await fetch(url.href);
      answer = response.ok
        ? { ok: true, body: await response.arrayBuffer() }
        : { ok: false, status: response.status, statusText: response.statusText };
    }
    if (!answer.ok) return { error: "http", url: url.href, status: answer.status, statusText: answer.statusText };
    return { bytes: new Uint8Array(answer.body), label: url.href };
  } catch (e) {
    return { error: "network", url: url.href };
  }
}
export function setPageUrl(address) {
  const query = address == null ? "" : "?url=" + encodeURIComponent(address);
  history.replaceState(null, "", location.pathname + query);
}
export function showLoader(root, source, loading, error) {
  const show = (selector, slot, text) => {
    const element = root.querySelector(selector);
    if (!element) return;
    (slot ? element.querySelector(slot) : element).textContent = text ?? "";
    element.hidden = text == null;
  };
  show("[data-testid=document-source]", "[data-slot=source]", source);
  show("[data-testid=document-status]", null, loading);
  show("[data-testid=document-error]", "[data-testid=document-error-message]", error);
}
// js-yaml's minified build (13 KB gzip, half its ES module) defines the global `jsyaml`.
function loadYaml() {
  if (globalThis.jsyaml) return Promise.resolve(globalThis.jsyaml);
  return new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = new URL("vendor/js-yaml.min.js", document.baseURI).href;
    script.onload = () => (globalThis.jsyaml ? resolve(globalThis.jsyaml) : reject(new Error(`${script.src} did not define jsyaml`)));
    script.onerror = () => reject(new Error(`${script.src} did not load`));
    document.head.append(script);
  });
}
export async function yamlToJson(bytes) {
  let yaml;
  try {
    yaml = await loadYaml();
  } catch (e) {
    return { unavailable: String((e && e.message) || e) };
  }
  try {
    const value = yaml.load(new TextDecoder().decode(bytes), { schema: yaml.CORE_SCHEMA });
    return { bytes: new TextEncoder().encode(JSON.stringify(value === undefined ? null : value)) };
  } catch (e) {
    const mark = e && e.mark;
    return {
      reason: String((e && (e.reason || e.message)) || e),
      line: mark ? mark.line + 1 : 0,
      column: mark ? mark.column + 1 : 0,
    };
  }
}
"#)]
extern "C" {
    #[wasm_bindgen(js_name = readDocument)]
    fn read_document_js(kind: &str, input: &JsValue) -> js_sys::Promise;
    #[wasm_bindgen(js_name = setPageUrl)]
    fn set_page_url_js(address: Option<&str>);
    /// Fills the loader's source line, status and error (`None` hides each).
    #[wasm_bindgen(js_name = showLoader)]
    pub(crate) fn show_loader(
        root: &web_sys::Element,
        source: Option<&str>,
        loading: Option<&str>,
        error: Option<&str>,
    );
    #[wasm_bindgen(js_name = yamlToJson)]
    fn yaml_to_json_js(bytes: js_sys::Uint8Array) -> js_sys::Promise;
}

/// A field of a plain object JavaScript returned.
fn field(object: &JsValue, name: &str) -> JsValue {
    js_sys::Reflect::get(object, &JsValue::from_str(name)).unwrap_or(JsValue::UNDEFINED)
}

fn text(object: &JsValue, name: &str) -> String {
    field(object, name).as_string().unwrap_or_default()
}

fn number(object: &JsValue, name: &str) -> usize {
    // Statuses, lines and columns are small non-negative integers.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let n = field(object, name).as_f64().unwrap_or(0.0).max(0.0) as usize;
    n
}

fn bytes(object: &JsValue) -> Option<Vec<u8>> {
    field(object, "bytes").dyn_ref::<js_sys::Uint8Array>().map(js_sys::Uint8Array::to_vec)
}

/// How a document is read: `kind` is `url` (input: the address), `file` (a `File`) or `text`;
/// `listing` as for [`Loaded::parse`].
async fn read(kind: &'static str, input: JsValue, listing: bool) -> Result<Loaded, DocumentError> {
    let result = JsFuture::from(read_document_js(kind, &input)).await.unwrap_or(JsValue::UNDEFINED);
    let url = text(&result, "url");
    let Some(bytes) = bytes(&result) else {
        return Err(match text(&result, "error").as_str() {
            "bad-url" => DocumentError::BadUrl(input.as_string().unwrap_or_default()),
            "http" => DocumentError::Http {
                url,
                status: u16::try_from(number(&result, "status")).unwrap_or_default(),
                status_text: text(&result, "statusText"),
            },
            "file" => DocumentError::File(text(&result, "message")),
            _ => DocumentError::Network { url },
        });
    };
    let label = text(&result, "label");
    let source = match kind {
        "url" => Source::Url(label),
        "file" => Source::File(label),
        _ => Source::Pasted,
    };
    Loaded::parse(bytes, source, listing).await
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

/// What the loader is doing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Status {
    /// Nothing under way.
    Idle,
    /// Load number `load` is under way; `what` says what it reads, in words.
    Loading {
        /// Which load (each has its own number): only the one in the status may finish.
        load: u64,
        /// What is read, e.g. "Loading https://…".
        what: String,
    },
    /// The last load failed; the message says why. The document shown did not change.
    Failed(String),
}

/// The shown document and the loader's status. `Copy`: hand it to any component.
#[derive(Debug, Clone, Copy)]
pub struct DocumentState {
    /// The document shown; `None` only while the first one (`?url=`) loads.
    pub current: RwSignal<Option<Loaded>>,
    /// What the loader is doing.
    pub status: RwSignal<Status>,
}

/// Numbers the loads of every state on the page.
static LOADS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

impl DocumentState {
    /// The embedded document, or the one named by the page's `?url=`, loading it.
    #[must_use]
    pub fn start() -> Self {
        let state = Self { current: RwSignal::new(None), status: RwSignal::new(Status::Idle) };
        let search = web_sys::window().and_then(|w| w.location().search().ok()).unwrap_or_default();
        match document::url_from_query(&search) {
            Some(address) => state.load_url_keeping_page(&address),
            None => state.show_builtin(),
        }
        state
    }

    /// A state that shows `loaded` (for tests and embedding).
    #[must_use]
    pub fn showing(loaded: Loaded) -> Self {
        Self { current: RwSignal::new(Some(loaded)), status: RwSignal::new(Status::Idle) }
    }

    /// Shows the embedded Petstore document again and drops `?url=` from the address.
    pub fn back_to_builtin(self) {
        set_page_url(None);
        self.show_builtin();
    }

    fn show_builtin(self) {
        match Loaded::builtin() {
            Ok(loaded) => {
                self.current.set(Some(loaded));
                self.status.set(Status::Idle);
            }
            Err(e) => self.status.set(Status::Failed(e.to_string())),
        }
    }

    /// Loads the document at `address` (relative to the page, or absolute); on success the
    /// page's address becomes `?url=<address>` so it can be bookmarked.
    pub fn load_url(self, address: &str) {
        let address = address.trim().to_owned();
        self.run("url", JsValue::from_str(&address), Some(Some(address)));
    }

    fn load_url_keeping_page(self, address: &str) {
        self.run("url", JsValue::from_str(address), None);
    }

    /// Loads a file the reader chose.
    pub fn load_file(self, file: web_sys::File) {
        self.run("file", file.into(), Some(None));
    }

    /// Loads pasted text.
    pub fn load_text(self, text: String) {
        self.run("text", JsValue::from_str(&text), Some(None));
    }

    /// Reads a document (see [`read`]) and shows it if it is valid and still the latest load.
    /// `page_url`: `None` leaves the page's address as it is (the start); `Some(..)` sets
    /// `?url=` (or none) and drops the `#operation` of the previous document.
    ///
    /// The first document (`?url=`, nothing shown yet) is listed as soon as its list can be:
    /// the rest of it (components, the syntax of everything) is read after the list is
    /// painted, and a problem found then shows the built-in document with the message, as a
    /// problem found at once does. A document loaded over a shown one is read whole first, so
    /// that a broken one never replaces it.
    fn run(self, kind: &'static str, input: JsValue, page_url: Option<Option<String>>) {
        let load = LOADS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let what = match kind {
            "url" => format!("Loading {}\u{2026}", input.as_string().unwrap_or_default()),
            "file" => "Reading the file\u{2026}".to_owned(),
            _ => "Reading the pasted document\u{2026}".to_owned(),
        };
        self.status.set(Status::Loading { load, what });
        let listing = self.current.with_untracked(Option::is_none);
        leptos::task::spawn_local(async move {
            let result = read(kind, input, listing).await;
            if !self.is_latest(load) {
                return; // a newer load (or Back) replaced this one, or the page is gone
            }
            match result {
                Ok(loaded) => {
                    if let Some(page_url) = page_url {
                        set_page_url(page_url.as_deref());
                    }
                    let document = loaded.value.clone();
                    self.current.set(Some(loaded));
                    if document.is_complete() {
                        self.status.set(Status::Idle);
                    } else {
                        self.complete_after_paint(load, document);
                    }
                }
                Err(e) => {
                    let shown = self.current.with_untracked(Option::is_some);
                    self.fail(e, !shown);
                }
            }
        });
    }

    /// Whether load number `load` is the one under way (no newer load or Back replaced it).
    fn is_latest(self, load: u64) -> bool {
        self.status.try_with_untracked(|s| matches!(s, Status::Loading { load: l, .. } if *l == load))
            == Some(true)
    }

    /// Once the list of `document` (shown by load number `load`) is painted, reads the rest of
    /// it; the load stays under way until then.
    fn complete_after_paint(self, load: u64, document: AnyDocument) {
        leptos::task::spawn_local(async move {
            crate::modules::after_paint().await;
            let result = document.complete();
            if !self.is_latest(load) {
                return;
            }
            match result {
                Ok(()) => self.status.set(Status::Idle),
                Err(e) => self.fail(e, true),
            }
        });
    }

    /// A load failed: the message and, with `show_builtin` (the `?url=` document failed at
    /// start, at once or when its rest was read), the built-in document.
    fn fail(self, error: DocumentError, show_builtin: bool) {
        if show_builtin {
            self.show_builtin();
        }
        self.status.set(Status::Failed(error.to_string()));
    }
}

/// Replaces the page's address (no new history entry): `?url=<address>` or no query, and no
/// `#operation` (it belonged to the previous document).
fn set_page_url(address: Option<&str>) {
    set_page_url_js(address);
}
