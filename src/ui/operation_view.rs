//! One operation in full: what the core writes of it (method and path, badges, the
//! deprecation warning with its sunset date, the description, security, parameters, request
//! body, responses and callbacks), then the try-it panel and the code samples, which the
//! try-it module renders (see [`crate::tryit`]).

use std::sync::Arc;

use leptos::prelude::*;
use playground_reference::OperationView;
use playground_reference::site::{SiteConfig, TryIt};
use wasm_bindgen::prelude::*;

use super::markdown::fragment;
use crate::mock::MockState;
use crate::tryit::{MockOffer, MountOptions, TryItHost, unmount};

/// The reference of one operation. The try-it panel starts on the in-browser mock when
/// `mock_first` (the built-in document), else on the document's first server, with the mock
/// offered beside its servers; without a mock in context it offers only real base URLs and says
/// why.
#[component]
pub fn OperationDetail(
    view: OperationView,
    #[prop(default = true)] mock_first: bool,
    /// Names the document: the try-it panel keeps credentials and servers per document.
    #[prop(into, default = String::from("petstore"))]
    document_key: String,
    /// A published site's configuration, whose try-it target wins over `mock_first`.
    #[prop(default = None)]
    site: Option<Arc<SiteConfig>>,
) -> impl IntoView {
    let mut view = view;
    let (mock_first, offer_mock) = match site.as_deref() {
        Some(site) => try_it_of_site(&mut view, site),
        None => (mock_first, true),
    };
    let anchor = view.anchor();
    let reference = fragment(&|html| playground_reference::html::operation(html, &view), None);
    // A webhook is a request the API sends: there is nothing to try or to call.
    let workbench = (!view.webhook)
        .then(|| view! { <Workbench view=Arc::new(view) mock_first=mock_first offer_mock=offer_mock document_key=document_key /> });
    view! {
        <article class="operation-detail" data-testid="operation-detail" data-operation-id=anchor>
            {reference}
            {workbench}
        </article>
    }
}

/// How a site's panel of `view` starts, as `(mock_first, offer_mock)`: on the mock (`"mock"`);
/// hidden, the code samples staying (`"none"`, the operation's own `x-hideTryItPanel` way); or
/// on the site's server, put first among the operation's servers, which the panel starts on
/// (`playground_tryit`'s `Target::initial`; a target the reader chose before still wins). The
/// mock is offered beside a server when the site shows its Mock block.
fn try_it_of_site(view: &mut OperationView, site: &SiteConfig) -> (bool, bool) {
    match &site.try_it {
        TryIt::Mock => (true, true),
        TryIt::None => {
            view.hide_try_it = true;
            (false, false)
        }
        TryIt::Server(url) => {
            view.servers.retain(|server| server != url);
            view.servers.insert(0, url.clone());
            (false, site.mock)
        }
    }
}

/// Where the try-it module renders the panel and the samples of `view`; why not, if it
/// cannot.
#[component]
fn Workbench(
    view: Arc<OperationView>,
    mock_first: bool,
    /// Whether the panel offers the mock at all.
    offer_mock: bool,
    document_key: String,
) -> impl IntoView {
    let slot = NodeRef::<leptos::html::Div>::new();
    let failure = RwSignal::new(None::<String>);
    let mounted = StoredValue::new_local(None::<JsValue>);
    on_cleanup(move || {
        if let Some(Some(panel)) = mounted.try_update_value(Option::take) {
            unmount(&panel);
        }
    });
    let host = TryItHost::from_context();
    let mock = MockState::from_context().filter(|_| offer_mock);
    // Where the panel starts on the mock, the mock starts with it, so it is ready by the time a
    // request is sent. Elsewhere the panel asks for it when the reader picks it as the target:
    // a large document's mock holds the whole document parsed (about five times its size),
    // which a reader who only reads, or sends to a server, should not pay for.
    if let Some(mock) = mock.filter(|_| mock_first) {
        mock.start();
    }
    let offer = match mock {
        None => MockOffer::None,
        Some(_) if mock_first => MockOffer::First,
        Some(_) => MockOffer::Offered,
    };
    // Once, when the slot is in the page.
    slot.on_load(move |slot| {
        let (host, view, key) = (host, view, document_key);
        leptos::task::spawn_local(async move {
            let lend: js_sys::Function = Closure::<dyn Fn() -> JsValue>::new(move || match mock {
                Some(mock) => mock.lend(),
                None => JsValue::from_str("The in-browser mock is not available on this page."),
            })
            .into_js_value()
            .unchecked_into();
            let options =
                MountOptions { view: &*view, access: view.access(), mock: offer, document_key: key };
            match host.mount(&slot, &options, &lend).await {
                // The view may be gone by now: the panel goes with it.
                Ok(panel) => {
                    if mounted.try_set_value(Some(panel.clone())).is_some() {
                        unmount(&panel);
                    }
                }
                Err(reason) => {
                    failure.try_set(Some(format!(
                        "The try-it panel could not be loaded: {reason}. Reload the page to try again."
                    )));
                }
            }
        });
    });
    view! {
        <div class="workbench" node_ref=slot></div>
        {move || failure.get().map(|message| view! {
            <p class="error" role="alert" data-testid="try-it-failed">{message}</p>
        })}
    }
}
