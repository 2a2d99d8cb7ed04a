//! What the user should know about the mock's storage: it started fresh, it is not being saved,
//! or another tab's change replaced this one's.

use leptos::prelude::*;
use playground_mock::MockNotice;

/// One line per notice (a handful at most, so the list is rebuilt when it changes); a current problem is an alert, a past event a status with a Dismiss
/// button (`on_dismiss`).
#[component]
pub fn MockNotices(notices: Signal<Vec<MockNotice>>, on_dismiss: Callback<()>) -> impl IntoView {
    view! {
        <div class="mock-notices">
            {move || notices.get().into_iter().map(|notice| view! {
                <div
                    class="mock-notice"
                    class:mock-notice-problem=notice.is_problem()
                    role=if notice.is_problem() { "alert" } else { "status" }
                    data-testid="mock-notice"
                    data-kind=notice.kind.as_str()
                >
                    <p>{notice.message.clone()}</p>
                    {(!notice.is_problem()).then(|| view! {
                        <button type="button" class="button button-quiet" data-testid="mock-notice-dismiss" on:click=move |_| on_dismiss.run(())>
                            "Dismiss"
                        </button>
                    })}
                </div>
            }).collect_view()}
        </div>
    }
}
