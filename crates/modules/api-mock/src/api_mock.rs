//! `new ApiMock(description, options)`: the class's own methods (its constructor, `reset`,
//! `recordJson`, `resources`, `api`); the methods it shares with `PetstoreMock` are
//! `playground_web::js_mock_methods!`, whose `installFetch` also answers `XMLHttpRequest` here
//! (`xhr.js`). The state is saved in `localStorage` per document.

use std::rc::Rc;

use js_sys::{Array, Function, Uint8Array};
use playground_mock::{ApiMock, Clock, MockOptions as ApiOptions};
use playground_web::js_mock::{JsMock, not_reset, storage_option};
use playground_web::{MockOptions, PersistentMock};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/src/xhr.js")]
extern "C" {
    #[wasm_bindgen(js_name = installXhr)]
    fn install_xhr(target: &Function, mock_fetch: &Function) -> Function;
}

/// The largest description `new ApiMock` reads (64 MiB of JSON).
pub const MAX_DESCRIPTION_BYTES: usize = 64 * 1024 * 1024;

#[wasm_bindgen(typescript_custom_section)]
const TS_API_OPTIONS: &'static str = r#"
/** Options of `new ApiMock(description, options)`. */
export interface ApiMockOptions {
  /** The localStorage key to save under (default "api-mock/v1/" + the document's title and version); `null` keeps the state in memory only. */
  storageKey?: string | null;
  /**
   * A store of your own instead of localStorage (`sessionStorage`, or in Node the package's file store):
   * what it holds under `storageKey` is restored (the mock refuses to open on a value it cannot read,
   * rather than replace it), and every change is written to it before it is answered; a change it
   * refuses (`setItem` throws) is undone and answered 503 with the code "state_not_saved".
   */
  storage?: ApiMockStorage;
  /** Check parameters and bodies against the document (default true). */
  validate?: boolean;
  /** Answer 401 when the credentials an operation's security asks for are missing, or not among `credentials` (default true). */
  security?: boolean;
  /** The credentials accepted: API keys, bearer tokens, "user:password" for Basic (default: any value). */
  credentials?: string[];
  /** The seed of generated data (default 0): the same seed gives the same answers. */
  seed?: number;
  /** A delay before every answer of fetch, in milliseconds. */
  delay?: {min: number, max: number};
  /** Failures at a rate (0 to 1): a documented error status, or with `network: true` a rejected fetch. */
  failure?: {rate: number, status?: number, network?: boolean};
  /** The same delay and failure options per operationId. */
  operations?: Record<string, {delay?: {min: number, max: number}, failure?: {rate: number, status?: number, network?: boolean}}>;
}
/** Where a mock keeps its state: `localStorage`, `sessionStorage`, or any object with these methods (`removeItem` optional: without it, values no longer needed stay). */
export interface ApiMockStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem?(key: string): void;
}
/** A resource the mock stores, as `resources()` lists them. */
export interface ApiMockResource {
  collection: string;
  item: string;
  idField: string | null;
  count: number;
}
"#;

#[wasm_bindgen]
extern "C" {
    /// `ApiMockOptions` (the TypeScript interface above).
    #[wasm_bindgen(typescript_type = "ApiMockOptions")]
    pub type JsApiMockOptions;
}

/// The stateful mock of an OpenAPI document, for JavaScript.
#[wasm_bindgen(js_name = ApiMock)]
#[derive(Debug)]
pub struct JsApiMock {
    inner: JsMock<ApiMock>,
}

#[wasm_bindgen(js_class = ApiMock)]
impl JsApiMock {
    /// Opens the mock of `description` (OpenAPI 3.x or Swagger 2.0, as JSON text, bytes or an
    /// object): restored from `localStorage` when it holds a saved state of the same document.
    /// Throws a `TypeError` saying why when the description or the options cannot be used.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "string | Uint8Array | object")] description: JsValue,
        options: Option<JsApiMockOptions>,
    ) -> Result<JsApiMock, JsValue> {
        let type_error = |message: String| JsValue::from(js_sys::TypeError::new(&message));
        let bytes = description_bytes(&description).map_err(type_error)?;
        let given = options.map_or(JsValue::UNDEFINED, JsValue::from);
        let storage = storage_option(&given).map_err(type_error)?;
        let mut options = read_options(given).map_err(type_error)?;
        // The times the server makes (an item's `createdAt`) are the request's, on the page's
        // clock.
        let api = ApiMock::from_json(&bytes)
            .map_err(|e| type_error(format!("ApiMock cannot mock this description: {e}")))?
            .with_options(options.mock)
            .with_clock(Clock::new(|| js_sys::Date::now() as i64));
        let default_key = format!("api-mock/v1/{}", api.api());
        let key = options.storage_key.take().unwrap_or_else(|| Some(default_key.clone()));
        let template = api.clone();
        let initial: Rc<dyn Fn(bool) -> ApiMock> = Rc::new(move |_| template.clone());
        let mock = match storage {
            Some(storage) => {
                let shown = storage.name.as_ref().map(|name| format!(" ({name})")).unwrap_or_default();
                PersistentMock::with_own_store_of(initial, storage, key.unwrap_or(default_key), false)
                    .map_err(|e| {
                        JsValue::from(js_sys::Error::new(&format!(
                            "ApiMock cannot open its storage{shown}: {e}"
                        )))
                    })?
            }
            None => PersistentMock::open_of(initial, &MockOptions { seed: false, storage_key: key }).0,
        };
        Ok(Self { inner: JsMock::new(mock, "/things", Some(install_xhr)) })
    }

    /// Keeps a real server's answer in the mock (JSON text, as `checkExchangeJson` takes them):
    /// an item it read, created or replaced becomes a stored item of its resource, a list's
    /// items each one, a delete removes the item; saved like a change the mock made. Returns
    /// `{"stored", "removed", "summary"}` as JSON text; throws when the store is full or the
    /// storage refused the change (the state is then as it was).
    #[wasm_bindgen(js_name = recordJson)]
    pub fn record_json(&self, request: &str, response: &str) -> Result<String, JsError> {
        let (request, response) = self.inner.exchange_of("recordJson", request, response)?;
        let (recorded, refused) = self.inner.mock.update(|mock| mock.record(&request, &response));
        if let Some(reason) = refused {
            return Err(JsError::new(&format!("the change could not be saved: {reason}")));
        }
        let recorded = playground_seam::Recorded::from(recorded.map_err(|e| JsError::new(&e.to_string()))?);
        serde_json::to_string(&recorded).map_err(|e| JsError::new(&e.to_string()))
    }

    /// Empties the state. Saved at once; throws an `Error` saying why when a `storage` of the
    /// caller's refuses it (the state is then as it was).
    pub fn reset(&self) -> Result<(), JsError> {
        self.inner.mock.reset(false).map_err(|reason| JsError::new(&not_reset(&reason)))
    }

    /// The resources inferred from the document, with how many items each holds.
    #[wasm_bindgen(unchecked_return_type = "ApiMockResource[]")]
    pub fn resources(&self) -> Array {
        let resources = self.inner.mock.with_mock(ApiMock::resources);
        serde_wasm_bindgen::to_value(&resources).map_or_else(|_| Array::new(), JsCast::unchecked_into)
    }

    /// The document's title and version.
    #[wasm_bindgen(getter)]
    pub fn api(&self) -> String {
        self.inner.mock.with_mock(|mock| mock.api().to_owned())
    }
}

playground_web::js_mock_methods!(JsApiMock, ApiMock);

/// The description's JSON bytes: text, bytes, or an object (stringified).
fn description_bytes(description: &JsValue) -> Result<Vec<u8>, String> {
    let bytes = if let Some(text) = description.as_string() {
        text.into_bytes()
    } else if let Some(bytes) = description.dyn_ref::<Uint8Array>() {
        if bytes.length() as usize > MAX_DESCRIPTION_BYTES {
            return Err(too_large(bytes.length() as usize));
        }
        bytes.to_vec()
    } else if description.is_object() {
        let text = js_sys::JSON::stringify(description).map_err(|e| {
            format!("The description object cannot be read as JSON: {}", playground_browser::describe(&e))
        })?;
        String::from(text).into_bytes()
    } else {
        return Err("new ApiMock(description): the description is an OpenAPI document as JSON text, bytes or an object.".to_owned());
    };
    if bytes.len() > MAX_DESCRIPTION_BYTES {
        return Err(too_large(bytes.len()));
    }
    if playground_openapi::document::detect_format(&bytes) == playground_openapi::document::Format::Yaml {
        return Err("The description is not JSON. ApiMock reads JSON: convert YAML first (for example with js-yaml's load()) and pass the object.".to_owned());
    }
    Ok(bytes)
}

fn too_large(size: usize) -> String {
    format!("The description is {size} bytes; ApiMock reads at most {MAX_DESCRIPTION_BYTES}.")
}

/// The options as given: the storage key apart (`undefined` and `null` differ), the rest the
/// mock's own.
struct Options {
    storage_key: Option<Option<String>>,
    mock: ApiOptions,
}

fn read_options(options: JsValue) -> Result<Options, String> {
    if options.is_undefined() || options.is_null() {
        return Ok(Options { storage_key: None, mock: ApiOptions::default() });
    }
    if !options.is_object() {
        return Err("ApiMock options must be an object.".to_owned());
    }
    let text = js_sys::JSON::stringify(&options).map_err(|e| playground_browser::describe(&e))?;
    let mut value: serde_json::Value =
        serde_json::from_str(&String::from(text)).map_err(|e| e.to_string())?;
    let raw_key = js_sys::Reflect::get(&options, &"storageKey".into()).unwrap_or(JsValue::UNDEFINED);
    let storage_key = if raw_key.is_undefined() {
        None
    } else if raw_key.is_null() {
        Some(None)
    } else {
        let key = raw_key.as_string().filter(|k| !k.is_empty());
        Some(Some(key.ok_or("The storageKey option must be a non-empty string, or null for no storage.")?))
    };
    if let Some(fields) = value.as_object_mut() {
        fields.remove("storageKey");
        fields.remove("storage");
    }
    let mock: ApiOptions = serde_json::from_value(value).map_err(|e| format!("ApiMock options: {e}."))?;
    mock.check().map_err(|e| format!("ApiMock options: {e}."))?;
    Ok(Options { storage_key, mock })
}
