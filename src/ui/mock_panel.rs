//! The "Mock" block: what the in-browser mock holds, Reset, Export and Import.

use leptos::prelude::*;

use super::mock_counts::{MockCounts, ResourceCounts};
use super::mock_reset::MockReset;
use super::mock_transfer::MockTransfer;
use crate::mock::{MockState, MockStatus};

/// Counts and controls of the mock `App` provides, or why it is not there yet.
#[component]
pub fn MockPanel() -> impl IntoView {
    let mock = MockState::expect();
    let status = mock.status();
    let api = mock.is_api();
    let waiting = mock.waiting();
    view! {
        <section class="mock-panel" aria-labelledby="mock-panel-title" data-testid="mock-panel">
            <h2 id="mock-panel-title" class="mock-panel-title">"Mock"</h2>
            <p class="mock-panel-note">"In this browser, shared by its tabs"</p>
            {move || match status.get() {
                MockStatus::Idle => view! {
                    <p class="mock-counts hint" data-testid="mock-idle">
                        "This document's mock starts when a try-it panel sends to it, or here."
                    </p>
                    <div class="mock-actions">
                        <button type="button" class="button" data-testid="mock-start" on:click=move |_| mock.start()>
                            "Start the mock"
                        </button>
                    </div>
                }.into_any(),
                MockStatus::Loading if api.get() && waiting.get() => view! {
                    <p class="mock-counts hint" role="status" data-testid="mock-loading">
                        "This document's mock waits for the document to finish downloading."
                    </p>
                    {disabled_actions()}
                }.into_any(),
                MockStatus::Loading if api.get() => view! {
                    <p class="mock-counts hint" role="status" data-testid="mock-loading">
                        "Starting this document's mock…"
                    </p>
                    {disabled_actions()}
                }.into_any(),
                // The shape of the ready block (a counts line that wraps alike, the buttons
                // disabled), so nothing below it moves when the mock is ready: a reader's
                // click on the list lands where it was aimed.
                MockStatus::Loading => view! {
                    <p class="mock-counts hint" role="status" data-testid="mock-loading">
                        <span class="visually-hidden">"Starting the mock: "</span>
                        <span class="mock-count">"… pets"</span>" · "<span class="mock-count">"… categories"</span>" · "
                        <span class="mock-count">"… orders"</span>" · "<span class="mock-count">"… in stock"</span>
                    </p>
                    {disabled_actions()}
                }.into_any(),
                MockStatus::Failed(reason) => view! {
                    <p class="load-error" role="alert" data-testid="mock-failed">{reason}</p>
                }.into_any(),
                MockStatus::Ready if api.get() => view! {
                    <ResourceCounts resources=mock.resources() />
                    <div class="mock-actions">
                        <MockReset on_reset=Callback::new(move |_| mock.reset(false)) demo=false />
                        <MockTransfer />
                    </div>
                }.into_any(),
                MockStatus::Ready => view! {
                    <MockCounts counts=mock.counts() />
                    <div class="mock-actions">
                        <MockReset on_reset=Callback::new(move |seed| mock.reset(seed)) />
                        <MockTransfer />
                    </div>
                }.into_any(),
            }}
        </section>
    }
}

/// The ready block's buttons, disabled, while the mock starts (so nothing moves when it is
/// ready).
fn disabled_actions() -> impl IntoView {
    view! {
        <div class="mock-actions" aria-hidden="true">
            <button type="button" class="button" disabled>"Reset…"</button>
            <button type="button" class="button" disabled>"Export"</button>
            <button type="button" class="button" disabled>"Import…"</button>
        </div>
    }
}
