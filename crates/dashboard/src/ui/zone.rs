//! The simulated DNS zone: it plays the owner's DNS provider while the resolver is the
//! simulated zone, so the whole walk works offline. Records can be added, edited and removed;
//! the zone refuses what DNS would not accept, with the reason.

use leptos::prelude::*;
use petstore_domains::{DnsRecord, RecordKind};

use super::parts::{FormResult, PlainInput, ResultLines, column_heads};

/// The zone editor.
#[component]
pub fn ZoneEditor(
    /// The zone's records, in the order they were added.
    #[prop(into)]
    records: Signal<Vec<DnsRecord>>,
    /// Whether verification asks real DNS (DNS-over-HTTPS) and so ignores this zone.
    #[prop(into)]
    over_doh: Signal<bool>,
    /// Adds (position `None`) or replaces a record: the stored record, or why not.
    #[prop(into)]
    on_save: Callback<(Option<usize>, DnsRecord), Result<DnsRecord, String>>,
    /// Removes the record at a position: the removed record, or why not.
    #[prop(into)]
    on_remove: Callback<usize, Result<DnsRecord, String>>,
) -> impl IntoView {
    let name = RwSignal::new(String::new());
    let kind = RwSignal::new(RecordKind::Cname);
    let value = RwSignal::new(String::new());
    let ttl = RwSignal::new("3600".to_owned());
    let editing = RwSignal::new(None::<usize>);
    let result = RwSignal::new(FormResult::None);

    let reset = move || {
        name.set(String::new());
        value.set(String::new());
        ttl.set("3600".to_owned());
        kind.set(RecordKind::Cname);
        editing.set(None);
    };
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let outcome = ttl
            .get_untracked()
            .trim()
            .parse::<u32>()
            .map_err(|_| {
                "The TTL must be a whole number of seconds, 1 to 604800 (3600 is common).".to_owned()
            })
            .and_then(|ttl| {
                let record =
                    DnsRecord::new(&name.get_untracked(), kind.get_untracked(), &value.get_untracked(), ttl);
                let index = editing.get_untracked();
                on_save.run((index, record)).map(|stored| match index {
                    None => format!("Added {stored} to the simulated zone."),
                    Some(_) => format!("Saved {stored}."),
                })
            });
        if outcome.is_ok() {
            reset();
        }
        result.set(Some(outcome));
    };
    let edit = move |index: usize, record: &DnsRecord| {
        name.set(record.name.clone());
        kind.set(record.kind);
        value.set(record.value.clone());
        ttl.set(record.ttl.to_string());
        editing.set(Some(index));
        result.set(None);
    };
    let remove = move |index: usize| {
        let outcome = on_remove.run(index).map(|r| format!("Removed {r} from the simulated zone."));
        if editing.get_untracked() == Some(index) {
            reset();
        }
        result.set(Some(outcome));
    };

    view! {
            <section class="section" aria-labelledby="zone-title" data-testid="zone">
                <h2 id="zone-title">"Simulated DNS zone"</h2>
                <p class="muted">
                    "This zone stands in for your DNS provider, so you can try the whole walk offline: create the record a domain asks for here, then verify it. An A or AAAA record beside a CNAME shows the conflict; a CAA record can block the certificate."
                    {move || over_doh.get().then_some(
                        " The resolver is DNS-over-HTTPS now, so verification asks real DNS and ignores this zone."
                    )}
                </p>
                <Show
                    when=move || records.with(|r| !r.is_empty())
                    fallback=|| view! { <p class="muted" data-testid="zone-empty">"The zone has no records yet."</p> }
                >
                    <div class="table-wrap">
                        <table class="records zone-records" data-testid="zone-records">
                            <caption class="visually-hidden">"Records of the simulated zone"</caption>
                            {column_heads(&["Name", "Type", "Value", "TTL", "Actions"])}
                            <tbody>
                                {move || {
                                    records
                                        .get()
                                        .into_iter()
                                        .enumerate()
                                        .map(|(index, record)| {
                                            let text = record.to_string();
                                            let for_edit = record.clone();
                                            view! {
                                                <tr data-testid="zone-record">
                                                    <td data-label="Name"><code>{record.name.clone()}</code></td>
                                                    <td data-label="Type">{record.kind.as_str()}</td>
                                                    <td data-label="Value"><code class="wrap">{record.value.clone()}</code></td>
                                                    <td data-label="TTL">{record.ttl}</td>
                                                    <td data-label="Actions" class="row-actions">
    <div class="row-buttons">
                                                        <button
                                                            type="button"
                                                            class="button button-small"
                                                            data-testid="zone-edit"
                                                            aria-label=format!("Edit {text}")
                                                            on:click=move |_| edit(index, &for_edit)
                                                        >
                                                            "Edit"
                                                        </button>
                                                        <button
                                                            type="button"
                                                            class="button button-small button-danger"
                                                            data-testid="zone-remove"
                                                            aria-label=format!("Remove {text}")
                                                            on:click=move |_| remove(index)
                                                        >
                                                            "Remove"
                                                        </button>
                                                    </div>
    </td>
                                                </tr>
                                            }
                                        })
                                        .collect_view()
                                }}
                            </tbody>
                        </table>
                    </div>
                </Show>
                <form class="zone-form" data-testid="zone-form" on:submit=submit>
                    <label class="field">
                        <span class="field-label">"Name (full, such as docs.example.com)"</span>
                        <PlainInput testid="zone-name" value=name />
                    </label>
                    <label class="field">
                        <span class="field-label">"Type"</span>
                        <select
                            data-testid="zone-type"
                            prop:value=move || kind.get().as_str().to_owned()
                            on:change=move |ev| {
                                if let Some(k) = RecordKind::parse(&event_target_value(&ev)) {
                                    kind.set(k);
                                }
                            }
                        >
                            {RecordKind::ALL
                                .into_iter()
                                .map(|k| view! { <option value=k.as_str()>{k.as_str()}</option> })
                                .collect_view()}
                        </select>
                    </label>
                    <label class="field field-grow">
                        <span class="field-label">"Value"</span>
                        <PlainInput testid="zone-value" value=value />
                    </label>
                    <label class="field field-narrow">
                        <span class="field-label">"TTL (seconds)"</span>
                        <input
                            type="number"
                            min="1"
                            max="604800"
                            data-testid="zone-ttl"
                            prop:value=move || ttl.get()
                            on:input=move |ev| ttl.set(event_target_value(&ev))
                        />
                    </label>
                    <div class="form-buttons">
                        <button type="submit" class="button button-primary" data-testid="zone-save">
                            {move || if editing.get().is_some() { "Save record" } else { "Add record" }}
                        </button>
                        <Show when=move || editing.get().is_some()>
                            <button
                                type="button"
                                class="button button-quiet"
                                data-testid="zone-cancel"
                                on:click=move |_| {
                                    reset();
                                    result.set(None);
                                }
                            >
                                "Cancel"
                            </button>
                        </Show>
                    </div>
                </form>
                <ResultLines result=result prefix="zone" />
            </section>
        }
}
