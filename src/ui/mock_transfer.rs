//! Export and import of the mock's state as a JSON file. An import that cannot be read or is
//! inconsistent is refused with the reason, and the mock keeps its state.

use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

use crate::mock::MockState;

/// Files larger than this are refused before they are read (a saved Petstore mock is a few
/// KB; another document's holds at most 8 MiB of items).
const MAX_IMPORT_BYTES: f64 = 12_000_000.0;

async fn read_file(file: web_sys::File) -> Result<String, String> {
    if file.size() > MAX_IMPORT_BYTES {
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)] // a file size
        let megabytes = (file.size() / 1e6) as u64;
        return Err(format!("{} is {megabytes} MB or more; a saved mock is smaller.", file.name()));
    }
    let text =
        JsFuture::from(file.text()).await.map_err(|_| format!("{} could not be read.", file.name()))?;
    text.as_string().ok_or_else(|| format!("{} is not text.", file.name()))
}

/// "Export" saves the state as a file; "Import…" replaces it from one, after checking it.
#[component]
pub fn MockTransfer() -> impl IntoView {
    let mock = MockState::expect();
    // The outcome of the last import or export: (is an error, text).
    let outcome = RwSignal::new(None::<(bool, String)>);
    let export = move |_| {
        let result = mock.snapshot().and_then(|text| {
            // `petstore-mock-state.json`, or another document's named after its title.
            let name = format!("{}-mock-state.json", mock.name());
            playground_browser::download_json(&name, &text).map_err(|e| e.to_string())
        });
        outcome.set(result.err().map(|e| (true, e)));
    };
    let import = move |ev: leptos::ev::Event| {
        let Some(input) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) else {
            return;
        };
        let Some(file) = input.files().and_then(|f| f.get(0)) else { return };
        // The same file may be chosen again after a fix.
        input.set_value("");
        let name = file.name();
        leptos::task::spawn_local(async move {
            let result = match read_file(file).await {
                Ok(text) => mock.restore(&text),
                Err(e) => Err(e),
            };
            outcome.set(Some(match result {
                Ok(()) => (false, format!("Imported {name}.")),
                Err(reason) => {
                    (true, format!("{name} was not imported, and the mock is unchanged: {reason}"))
                }
            }));
        });
    };
    view! {
        <div class="mock-transfer">
            <button type="button" class="button" data-testid="mock-export" on:click=export>
                "Export"
            </button>
            <label class="button file-button">
                "Import…"
                <input
                    type="file"
                    accept="application/json,.json"
                    class="visually-hidden"
                    data-testid="mock-import"
                    on:change=import
                />
            </label>
        </div>
        {move || {
            outcome
                .get()
                .map(|(error, text)| {
                    view! {
                        <p
                            class=if error { "mock-transfer-result error-text" } else { "mock-transfer-result" }
                            role=if error { "alert" } else { "status" }
                            data-testid="mock-transfer-result"
                        >
                            {text}
                        </p>
                    }
                })
        }}
    }
}
