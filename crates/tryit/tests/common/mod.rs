//! What the browser tests share: small documents, a stand-in for the page's mock that records
//! what it is asked, and a panel mounted as the reference mounts it.
#![allow(dead_code)] // each test file uses its own part

use std::cell::RefCell;
use std::rc::Rc;

use playground_http::{Request, Response};
use playground_openapi::catalog::Method;
use playground_reference::OperationView;
use playground_seam::{MockOffer, MountOptions};
use playground_tryit::Mounted;
use serde_json::{Value, json};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{Element, HtmlElement};

/// What the panel remembers in this browser, whatever the document.
pub const TARGET_KEY: &str = "playground/try-it/target";
/// See [`TARGET_KEY`].
pub const BASE_URL_KEY: &str = "playground/try-it/base-url";
/// See [`TARGET_KEY`].
pub const HEADERS_KEY: &str = "playground/try-it/headers";

/// The view of `method path` in `doc`.
pub fn operation(doc: &Value, method: Method, path: &str) -> OperationView {
    OperationView::build(doc, method, path).unwrap()
}

/// `POST /pets/{petId}/visits` with the operation id `id` (answers are kept per operation): a
/// path, a query and a header parameter, and a JSON body; all required but the query.
pub fn visits(id: &str) -> OperationView {
    let doc = json!({
        "openapi": "3.0.3",
        "info": {"title": "Visits", "version": "1"},
        "servers": [{"url": "https://api.example/v1"}, {"url": "http://127.0.0.1:4010"}],
        "paths": {"/pets/{petId}/visits": {"post": {
            "operationId": id,
            "parameters": [
                {"name": "petId", "in": "path", "required": true,
                 "schema": {"type": "integer", "minimum": 1}, "example": 7},
                {"name": "notify", "in": "query", "schema": {"type": "boolean"}},
                {"name": "X-Clinic", "in": "header", "required": true, "schema": {"type": "string"},
                 "example": "north"}
            ],
            "requestBody": {"required": true, "content": {"application/json": {
                "schema": {"type": "object"},
                "example": {"reason": "checkup", "minutes": 20}
            }}},
            "responses": {"201": {"description": "Filed"}}
        }}}
    });
    operation(&doc, Method::Post, "/pets/{petId}/visits")
}

/// `GET /items/{id}` with the operation id `id` (answers are kept per operation).
pub fn item(id: &str) -> OperationView {
    let doc = json!({
        "openapi": "3.0.3",
        "info": {"title": "Items", "version": "1"},
        "paths": {"/items/{id}": {"get": {
            "operationId": id,
            "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string"},
                            "example": "1"}],
            "responses": {"200": {"description": "The item"}}
        }}}
    });
    operation(&doc, Method::Get, "/items/{id}")
}

/// A stand-in for the page's mock: answers with `answer` and keeps every request it gets.
pub struct FakeMock {
    /// The requests answered, oldest first.
    pub requests: Rc<RefCell<Vec<Request>>>,
    /// The function the page lends the mock with.
    pub lend: js_sys::Function,
}

impl FakeMock {
    pub fn new(answer: impl Fn(&Request) -> Response + 'static) -> Self {
        let requests: Rc<RefCell<Vec<Request>>> = Rc::default();
        let seen = Rc::clone(&requests);
        let handle_json = Closure::<dyn Fn(String) -> String>::new(move |text: String| {
            let request: Request = serde_json::from_str(&text).unwrap();
            let response = answer(&request);
            seen.borrow_mut().push(request);
            serde_json::to_string(&response).unwrap()
        });
        let handle = js_sys::Object::new();
        js_sys::Reflect::set(&handle, &"handleJson".into(), &handle_json.into_js_value()).unwrap();
        let lend = Closure::<dyn Fn() -> JsValue>::new(move || JsValue::from(handle.clone()));
        Self { requests, lend: lend.into_js_value().unchecked_into() }
    }

    /// A mock that answers every request with `status` and the JSON `body`.
    pub fn answering(status: u16, body: Value) -> Self {
        Self::new(move |_| json_response(status, &body))
    }

    pub fn count(&self) -> usize {
        self.requests.borrow().len()
    }

    pub fn last(&self) -> Request {
        self.requests.borrow().last().cloned().unwrap()
    }
}

pub fn json_response(status: u16, body: &Value) -> Response {
    Response {
        status,
        headers: vec![("Content-Type".to_owned(), "application/json".to_owned())],
        body: body.to_string().into_bytes(),
    }
}

/// A mounted panel and the element it is in.
pub struct Panel {
    pub root: HtmlElement,
    pub mounted: Mounted,
}

impl Panel {
    /// The panel of `view` in a new element at the end of the page, sending to `mock` first;
    /// credentials are kept under `document`.
    pub fn mount(view: &OperationView, mock: &FakeMock, document: &str) -> Self {
        let page = web_sys::window().unwrap().document().unwrap();
        let root: HtmlElement = page.create_element("div").unwrap().unchecked_into();
        page.body().unwrap().append_child(&root).unwrap();
        let options = MountOptions {
            view,
            access: view.access(),
            mock: MockOffer::First,
            document_key: document.to_owned(),
        };
        let mounted = playground_tryit::mount_try_it(
            root.clone(),
            &options.to_json().unwrap(),
            Some(mock.lend.clone()),
        )
        .unwrap();
        Self { root, mounted }
    }

    /// Unmounts the panel and removes its element.
    pub fn close(mut self) {
        self.mounted.unmount();
        self.root.remove();
    }

    pub fn find(&self, selector: &str) -> Option<Element> {
        self.root.query_selector(selector).unwrap()
    }

    pub fn get(&self, selector: &str) -> Element {
        self.find(selector).unwrap_or_else(|| panic!("no {selector}"))
    }

    pub fn all(&self, selector: &str) -> Vec<Element> {
        let list = self.root.query_selector_all(selector).unwrap();
        (0..list.length()).map(|i| list.item(i).unwrap().unchecked_into()).collect()
    }

    pub fn text(&self, selector: &str) -> String {
        self.get(selector).text_content().unwrap_or_default()
    }

    /// The value of the input, text area or list `selector`.
    pub fn value(&self, selector: &str) -> String {
        let element = self.get(selector);
        if let Some(input) = element.dyn_ref::<web_sys::HtmlInputElement>() {
            input.value()
        } else if let Some(select) = element.dyn_ref::<web_sys::HtmlSelectElement>() {
            select.value()
        } else {
            element.unchecked_ref::<web_sys::HtmlTextAreaElement>().value()
        }
    }

    /// Types `value` into the input or text area `selector` (or chooses it in a list).
    pub fn fill(&self, selector: &str, value: &str) {
        let element = self.get(selector);
        let event = if let Some(input) = element.dyn_ref::<web_sys::HtmlInputElement>() {
            input.set_value(value);
            "input"
        } else if let Some(select) = element.dyn_ref::<web_sys::HtmlSelectElement>() {
            select.set_value(value);
            "change"
        } else {
            element.unchecked_ref::<web_sys::HtmlTextAreaElement>().set_value(value);
            "input"
        };
        element.dispatch_event(&web_sys::Event::new(event).unwrap()).unwrap();
    }

    /// Ticks or unticks the checkbox `selector`.
    pub fn check(&self, selector: &str, on: bool) {
        let input: web_sys::HtmlInputElement = self.get(selector).unchecked_into();
        input.set_checked(on);
        input.dispatch_event(&web_sys::Event::new("change").unwrap()).unwrap();
    }

    pub fn click(&self, selector: &str) {
        self.get(selector).unchecked_into::<HtmlElement>().click();
    }
}

/// Lets Leptos run the effects a change scheduled.
pub async fn tick() {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        web_sys::window().unwrap().set_timeout_with_callback(&resolve).unwrap();
    });
    wasm_bindgen_futures::JsFuture::from(promise).await.unwrap();
}

/// Forgets what the panel remembers in this browser (the target, the base URL, the headers).
pub fn forget_settings() {
    for key in [TARGET_KEY, BASE_URL_KEY, HEADERS_KEY] {
        playground_browser::remove(key).unwrap();
    }
}

/// The element that has focus.
pub fn focused() -> Option<Element> {
    web_sys::window().unwrap().document().unwrap().active_element()
}
