//! `new PetstoreMock(options)`: the class's own methods (its constructor, `reset`, `counts`,
//! `recordJson`); the methods it shares with `ApiMock` are `playground_web::js_mock_methods!`.

use std::rc::Rc;

use js_sys::Object;
use playground_web::js_mock::{JsMock, message_of, not_reset, storage_option};
use playground_web::{MockOptions, PersistentMock};
use serde::Deserialize;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

/// The `localStorage` key when the options name none.
pub const DEFAULT_STORAGE_KEY: &str = "petstore-mock/v1";

#[wasm_bindgen(typescript_custom_section)]
const TS_OPTIONS: &'static str = r#"
/** Options of `new PetstoreMock(options)`. */
export interface PetstoreMockOptions {
  /** Start (and `reset()`) with the demo data (default) or, with `false`, an empty store. */
  seed?: boolean;
  /** The localStorage key to save under (default "petstore-mock/v1"); `null` keeps the state in memory only. */
  storageKey?: string | null;
  /** A store of your own instead of localStorage, as for `ApiMock` (see `ApiMockOptions.storage`). */
  storage?: {getItem(key: string): string | null; setItem(key: string, value: string): void; removeItem?(key: string): void};
  /** Check parameters and bodies against the document (default true); the business rules hold either way. */
  validate?: boolean;
  /** A delay before every answer of fetch, in milliseconds. */
  delay?: {min: number, max: number};
  /** Failures at a rate (0 to 1): an error status (default: the first server error documented, else 500), or with `network: true` a rejected fetch. */
  failure?: {rate: number, status?: number, network?: boolean};
  /** The same delay and failure options per operationId ("placeOrder", ...). */
  operations?: Record<string, {delay?: {min: number, max: number}, failure?: {rate: number, status?: number, network?: boolean}}>;
}
/** A request for `handle()`: `url` is a path such as "/pets?limit=5" or a full URL (its origin is ignored). */
export interface MockRequest {
  method?: string;
  url: string;
  headers?: [string, string][] | Record<string, string>;
  body?: string;
}
/** The answer of `handle()`. */
export interface MockAnswer {
  status: number;
  headers: [string, string][];
  body: string;
}
/** Something to show the user about where the mock's state is kept. */
export interface MockNotice {
  kind: "started-fresh" | "storage-unavailable" | "not-saved" | "overwritten";
  message: string;
}
/** @deprecated The same as `MockRequest` (its earlier name). */
export type PetstoreMockRequest = MockRequest;
/** @deprecated The same as `MockAnswer` (its earlier name). */
export type PetstoreMockAnswer = MockAnswer;
/** @deprecated The same as `MockNotice` (its earlier name). */
export type PetstoreMockNotice = MockNotice;
"#;

#[wasm_bindgen]
extern "C" {
    /// `PetstoreMockOptions` (the TypeScript interface above).
    #[wasm_bindgen(typescript_type = "PetstoreMockOptions")]
    pub type JsMockOptions;

}

/// The stateful Petstore mock for JavaScript.
#[wasm_bindgen(js_name = PetstoreMock)]
#[derive(Debug)]
pub struct JsPetstoreMock {
    inner: JsMock<petstore::Mock>,
}

#[wasm_bindgen(js_class = PetstoreMock)]
impl JsPetstoreMock {
    /// Opens the mock: restored from `localStorage` when it holds a saved mock.
    #[wasm_bindgen(constructor)]
    pub fn new(options: Option<JsMockOptions>) -> Result<JsPetstoreMock, JsValue> {
        let given = options.map_or(JsValue::UNDEFINED, JsValue::from);
        let options = read_options(given.clone())?;
        let behaviour = read_behaviour(&given)?;
        let initial = move |seed: bool| {
            let mock = if seed { petstore::Mock::seeded() } else { petstore::Mock::new() };
            mock.with_options(behaviour.clone())
        };
        let storage = storage_option(&given).map_err(|e| JsValue::from(js_sys::TypeError::new(&e)))?;
        let mock = match storage {
            Some(storage) => {
                let key = options.storage_key.clone().unwrap_or_else(|| DEFAULT_STORAGE_KEY.to_owned());
                let shown = storage.name.as_ref().map(|name| format!(" ({name})")).unwrap_or_default();
                PersistentMock::with_own_store_of(Rc::new(initial), storage, key, options.seed).map_err(
                    |e| {
                        JsValue::from(js_sys::Error::new(&format!(
                            "PetstoreMock cannot open its storage{shown}: {e}"
                        )))
                    },
                )?
            }
            None => PersistentMock::open_of(Rc::new(initial), &options).0,
        };
        Ok(Self { inner: JsMock::new(mock, "/pets", None) })
    }

    /// Throws: the Petstore's mock keeps what is sent to it, by the Petstore's rules, not a
    /// real server's answers (`ApiMock`'s `recordJson` does).
    #[wasm_bindgen(js_name = recordJson)]
    pub fn record_json(&self, _request: &str, _response: &str) -> Result<String, JsError> {
        Err(JsError::new(
            "the Petstore's mock keeps what is sent to it, by the Petstore's rules, not a real server's answers",
        ))
    }

    /// Replaces the state with the initial data: the demo data or, with `seed: false`, an
    /// empty store (default: as the mock was opened). Saved at once; throws an `Error` saying why
    /// when a `storage` of the caller's refuses it (the state is then as it was).
    pub fn reset(&self, seed: Option<bool>) -> Result<(), JsError> {
        let reset = match seed {
            Some(seed) => self.inner.mock.reset(seed),
            None => self.inner.mock.reset_to_initial(),
        };
        reset.map_err(|reason| JsError::new(&not_reset(&reason)))
    }

    /// `{pets, categories, orders, openOrders, stock}`.
    #[wasm_bindgen(
        unchecked_return_type = "{pets: number, categories: number, orders: number, openOrders: number, stock: number}"
    )]
    pub fn counts(&self) -> Object {
        serde_wasm_bindgen::to_value(&self.inner.mock.counts())
            .map_or_else(|_| Object::new(), JsCast::unchecked_into)
    }
}

playground_web::js_mock_methods!(JsPetstoreMock, PetstoreMock);

/// `PetstoreMockOptions` as the page passed them.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct JsOptions {
    #[serde(default, deserialize_with = "seed_option")]
    seed: Option<bool>,
    /// As given: `undefined` (the default key) and `null` (no storage) mean different things.
    #[serde(default, with = "serde_wasm_bindgen::preserve")]
    storage_key: JsValue,
}

const SEED_OPTION: &str = "The seed option must be true or false.";
const STORAGE_KEY_OPTION: &str = "The storageKey option must be a non-empty string, or null for no storage.";

fn seed_option<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Option<bool>, D::Error> {
    Option::<bool>::deserialize(deserializer).map_err(|_| serde::de::Error::custom(SEED_OPTION))
}

fn read_options(options: JsValue) -> Result<MockOptions, JsValue> {
    if options.is_undefined() || options.is_null() {
        return Ok(MockOptions { seed: true, storage_key: Some(DEFAULT_STORAGE_KEY.to_owned()) });
    }
    if !options.is_object() {
        return Err(js_sys::TypeError::new("PetstoreMock options must be an object.").into());
    }
    let read: JsOptions =
        serde_wasm_bindgen::from_value(options).map_err(|e| js_sys::TypeError::new(&message_of(e)))?;
    let storage_key = if read.storage_key.is_undefined() {
        Some(DEFAULT_STORAGE_KEY.to_owned())
    } else if read.storage_key.is_null() {
        None
    } else {
        let key = read.storage_key.as_string().filter(|k| !k.is_empty());
        Some(key.ok_or_else(|| js_sys::TypeError::new(STORAGE_KEY_OPTION))?)
    };
    Ok(MockOptions { seed: read.seed.unwrap_or(true), storage_key })
}

/// The behaviour options (`validate`, `delay`, `failure`, `operations`), read as `ApiMock`
/// reads them; `seed` and `storageKey` are the Petstore's own.
fn read_behaviour(options: &JsValue) -> Result<playground_mock::MockOptions, JsValue> {
    let error =
        |message: String| JsValue::from(js_sys::TypeError::new(&format!("PetstoreMock options: {message}.")));
    if !options.is_object() {
        return Ok(playground_mock::MockOptions::default());
    }
    let text = js_sys::JSON::stringify(options).map_err(|e| error(playground_browser::describe(&e)))?;
    let mut value: serde_json::Value =
        serde_json::from_str(&String::from(text)).map_err(|e| error(e.to_string()))?;
    if let Some(fields) = value.as_object_mut() {
        fields.remove("seed");
        fields.remove("storageKey");
        fields.remove("storage");
        for own in ["security", "credentials"] {
            if fields.contains_key(own) {
                return Err(error(format!("{own} is not an option of the Petstore, which has no security")));
            }
        }
    }
    let behaviour: playground_mock::MockOptions =
        serde_json::from_value(value).map_err(|e| error(e.to_string()))?;
    behaviour.check().map_err(error)?;
    Ok(behaviour)
}
