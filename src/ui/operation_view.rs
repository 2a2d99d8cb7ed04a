//! One operation in full: what the core writes of it (method and path, badges, the
//! deprecation warning with its sunset date, the description, security, parameters, request
//! body, responses and callbacks), then the try-it panel and the code samples.

use std::sync::Arc;

use leptos::prelude::*;
use petstore_core::reference::OperationView;

use super::code_samples::CodeSamples;
use super::markdown::fragment;
use super::try_it::{TryIt, TryItForm};

/// The reference of one operation. `mock_available` is false for documents other than the
/// built-in Petstore one: the try-it panel then offers only real base URLs and says why.
#[component]
pub fn OperationDetail(view: OperationView, #[prop(default = true)] mock_available: bool) -> impl IntoView {
    // Shared by the try-it panel and the code samples: an operation's view is not copied.
    let view = Arc::new(view);
    // A webhook is a request the API sends: there is nothing to try or to call.
    let form = (!view.hide_try_it && !view.webhook).then(|| TryItForm::new(&view, mock_available));
    let sample = form.map(|form| Signal::derive(move || form.sample()));
    let try_it =
        form.map(|form| view! { <TryIt view=Arc::clone(&view) form=form mock_available=mock_available /> });
    let anchor = view.anchor();
    let reference = fragment(&|html| petstore_core::html::operation(html, &view), None);
    view! {
        <article class="operation-detail" data-testid="operation-detail" data-operation-id=anchor>
            {reference}
            {try_it}
            {(!view.webhook).then(|| view! { <CodeSamples view=Arc::clone(&view) request=sample /> })}
        </article>
    }
}
