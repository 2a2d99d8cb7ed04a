//! The macro that writes the `#[wasm_bindgen]` methods `PetstoreMock` and `ApiMock` share
//! (`js_mock_methods!`), over the [`JsMock`](crate::js_mock::JsMock) each class wraps.

/// The methods `PetstoreMock` and `ApiMock` share, as one `#[wasm_bindgen]` impl of the class
/// `$js` on the struct `$rust`, whose field `inner` is a [`JsMock`](crate::js_mock::JsMock) of a mock that is
/// [`CheckExchange`](crate::js_mock::CheckExchange): `fetch`, `answer`, `handle`, `handleJson`, `checkExchangeJson`, `installFetch`,
/// `uninstallFetch`, `snapshot`, `restore`, `notices`, `dismissNotices`, `onChange` and
/// `storageKey`. The crate that calls it depends on `wasm-bindgen` and `js-sys`.
///
/// ```ignore
/// #[wasm_bindgen(js_name = PetstoreMock)]
/// pub struct JsPetstoreMock { inner: JsMock<petstore::Mock> }
/// playground_web::js_mock_methods!(JsPetstoreMock, PetstoreMock);
/// ```
#[macro_export]
macro_rules! js_mock_methods {
    ($rust:ident, $js:ident) => {
        #[::wasm_bindgen::prelude::wasm_bindgen(js_class = $js)]
        impl $rust {
            /// Answers a request like `window.fetch` would: `input` is a URL string, a `URL` or a
            /// `Request`, `init` its usual options. Resolves to a real `Response`, after the delay
            /// the options ask for; rejects where `fetch` would (a GET with a body, an aborted
            /// signal, a network failure the options inject).
            #[wasm_bindgen(unchecked_return_type = "Promise<Response>")]
            pub fn fetch(
                &self,
                #[wasm_bindgen(unchecked_param_type = "RequestInfo | URL")] input: ::wasm_bindgen::JsValue,
                init: ::core::option::Option<$crate::js_mock::JsRequestInit>,
            ) -> ::js_sys::Promise {
                self.inner.fetch(&input, init)
            }

            /// Answers a request given by its parts, as `fetch` would (a real `Response`, after
            /// the delay the options ask for; a `TypeError` for an injected network failure),
            /// without building a `Request` or reading a body stream: `url` is the mock's path
            /// with its query, `headers` a `Headers`, `[name, value]` pairs or the header block as
            /// text (`name: value` lines), `body` the bytes.
            #[wasm_bindgen(unchecked_return_type = "Promise<Response>")]
            pub fn answer(
                &self,
                method: ::std::string::String,
                url: ::std::string::String,
                #[wasm_bindgen(unchecked_param_type = "Headers | [string, string][] | string")]
                headers: ::wasm_bindgen::JsValue,
                body: ::core::option::Option<::js_sys::Uint8Array>,
            ) -> ::js_sys::Promise {
                self.inner.answer(method, url, &headers, body)
            }

            /// Answers a request at once, without `Request` and `Response` objects (no promise,
            /// no body stream, no delay, no injected failure): `{method, url, headers, body}` in,
            /// `{status, headers, body}` out.
            #[wasm_bindgen(unchecked_return_type = "MockAnswer")]
            pub fn handle(
                &self,
                #[wasm_bindgen(unchecked_param_type = "MockRequest")] request: ::wasm_bindgen::JsValue,
            ) -> ::core::result::Result<::js_sys::Object, ::wasm_bindgen::JsError> {
                self.inner.handle(request)
            }

            /// `handle()` with the request and the answer as JSON text: for a caller that holds
            /// them as text already (a worker's message, another WebAssembly module), no object
            /// is built or read for them.
            #[wasm_bindgen(js_name = handleJson)]
            pub fn handle_json(
                &self,
                request: &str,
            ) -> ::core::result::Result<::std::string::String, ::wasm_bindgen::JsError> {
                self.inner.handle_json(request)
            }

            /// How a real exchange compares with the description (the request as `handleJson`
            /// takes it, the answer as it gives it, both JSON text): `{"operation": "listBooks" |
            /// null, "mismatches": [{"kind", "pointer", "rule"}]}` as JSON text, no mismatches
            /// when it matches. Changes nothing.
            #[wasm_bindgen(js_name = checkExchangeJson)]
            pub fn check_exchange_json(
                &self,
                request: &str,
                response: &str,
            ) -> ::core::result::Result<::std::string::String, ::wasm_bindgen::JsError> {
                self.inner.check_exchange_json(request, response)
            }

            /// Replaces the global `fetch` (and, for an `ApiMock`, `XMLHttpRequest`): requests
            /// whose URL starts with `prefix` (a path on this origin such as `"/api"`, or an
            /// absolute URL) are answered by the mock, with the prefix removed (`/api/pets` is
            /// the mock's `/pets`); all others go to the originals. Returns a function that
            /// undoes it (as does `uninstallFetch()`).
            #[wasm_bindgen(js_name = installFetch, unchecked_return_type = "() => void")]
            pub fn install_fetch(
                &self,
                prefix: &str,
            ) -> ::core::result::Result<::js_sys::Function, ::wasm_bindgen::JsValue> {
                self.inner.install_fetch(prefix)
            }

            /// Puts the original `fetch` (and `XMLHttpRequest`) back. Returns whether an
            /// interceptor was installed.
            #[wasm_bindgen(js_name = uninstallFetch)]
            pub fn uninstall_fetch(&self) -> bool {
                self.inner.uninstall_fetch()
            }

            /// The whole state as versioned JSON (for `restore`).
            pub fn snapshot(&self) -> ::std::string::String {
                self.inner.mock.snapshot()
            }

            /// Replaces the state with a snapshot of the same mock. Throws an `Error` saying why
            /// when it is not one; the state is then untouched.
            pub fn restore(&self, snapshot: &str) -> ::core::result::Result<(), ::wasm_bindgen::JsError> {
                self.inner.restore(snapshot)
            }

            /// What the user should know about where the state is kept (storage was unreadable,
            /// full, unavailable, or another tab's change replaced this one's).
            #[wasm_bindgen(unchecked_return_type = "MockNotice[]")]
            pub fn notices(&self) -> ::js_sys::Array {
                self.inner.notices()
            }

            /// Hides the notices that report something past.
            #[wasm_bindgen(js_name = dismissNotices)]
            pub fn dismiss_notices(&self) {
                self.inner.mock.dismiss_notices();
            }

            /// Calls `callback` after every change of the state or notices, including changes
            /// made in other tabs. Returns a function that stops it.
            #[wasm_bindgen(js_name = onChange, unchecked_return_type = "() => void")]
            pub fn on_change(&self, callback: ::js_sys::Function) -> ::js_sys::Function {
                self.inner.on_change(callback)
            }

            /// The `localStorage` key, or `null` when the state is kept in memory only.
            #[wasm_bindgen(getter, js_name = storageKey)]
            pub fn storage_key(&self) -> ::core::option::Option<::std::string::String> {
                self.inner.mock.storage_key()
            }
        }
    };
}
