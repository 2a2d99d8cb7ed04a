//! The "Mock" block: what the in-browser mock holds, and its Reset.

use leptos::prelude::*;

use super::mock_counts::MockCounts;
use super::mock_reset::MockReset;
use crate::mock::MockState;

/// Counts and Reset of the mock `App` provides.
#[component]
pub fn MockPanel() -> impl IntoView {
    let mock = MockState::expect();
    view! {
        <section class="mock-panel" aria-labelledby="mock-panel-title" data-testid="mock-panel">
            <h2 id="mock-panel-title" class="mock-panel-title">"Mock"</h2>
            <p class="mock-panel-note">"In this browser, shared by its tabs"</p>
            <MockCounts counts=mock.counts() />
            <MockReset on_reset=Callback::new(move |seed| mock.reset(seed)) />
        </section>
    }
}
