//! The simulated DNS zone: it plays the owner's DNS provider while the resolver is the
//! simulated zone, so the whole walk works offline. Records can be added, edited and removed;
//! the zone refuses what DNS would not accept, with the reason.

use leptos::prelude::*;
use playground_domains::{DnsRecord, RecordKind};

use super::parts::{FormResult, PlainInput, ResultLines, column_heads};

/// The TTL a new record starts with.
const DEFAULT_TTL: &str = "3600";

/// The zone editor: the records, and the form that adds one or edits the one chosen.
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
    let draft = Draft::new();
    let result = RwSignal::new(FormResult::None);
    let save = move |()| {
        let index = draft.editing.get_untracked();
        let outcome = draft.record().and_then(|record| {
            on_save.run((index, record)).map(|stored| match index {
                None => format!("Added {stored} to the simulated zone."),
                Some(_) => format!("Saved {stored}."),
            })
        });
        if outcome.is_ok() {
            draft.clear();
        }
        result.set(Some(outcome));
    };
    let edit = move |(index, record): (usize, DnsRecord)| {
        draft.load(index, &record);
        result.set(None);
    };
    let remove = move |index: usize| {
        let outcome = on_remove.run(index).map(|r| format!("Removed {r} from the simulated zone."));
        if draft.editing.get_untracked() == Some(index) {
            draft.clear();
        }
        result.set(Some(outcome));
    };
    let cancel = move |()| {
        draft.clear();
        result.set(None);
    };
    view! {
        <section class="section" aria-labelledby="zone-title" data-testid="zone">
            <h2 id="zone-title">"Simulated DNS zone"</h2>
            <p class="muted">
                "This zone stands in for your DNS provider, so you can try the whole walk offline: create the record a domain asks for here, then verify it. Any other record beside a CNAME (an A or a TXT, say) shows the conflict; a CAA record can block the certificate."
                {move || over_doh.get().then_some(
                    " The resolver is DNS-over-HTTPS now, so verification asks real DNS and ignores this zone."
                )}
            </p>
            <ZoneRecords records=records on_edit=edit on_remove=remove />
            <RecordForm draft=draft on_save=save on_cancel=cancel />
            <ResultLines result=result prefix="zone" />
        </section>
    }
}

/// The record being written: its fields as typed, and which record it replaces, if any.
#[derive(Clone, Copy)]
struct Draft {
    name: RwSignal<String>,
    kind: RwSignal<RecordKind>,
    value: RwSignal<String>,
    ttl: RwSignal<String>,
    /// The position of the record being edited; `None` while adding.
    editing: RwSignal<Option<usize>>,
}

impl Draft {
    fn new() -> Self {
        Self {
            name: RwSignal::new(String::new()),
            kind: RwSignal::new(RecordKind::Cname),
            value: RwSignal::new(String::new()),
            ttl: RwSignal::new(DEFAULT_TTL.to_owned()),
            editing: RwSignal::new(None),
        }
    }

    /// Back to an empty record to add.
    fn clear(self) {
        self.name.set(String::new());
        self.kind.set(RecordKind::Cname);
        self.value.set(String::new());
        self.ttl.set(DEFAULT_TTL.to_owned());
        self.editing.set(None);
    }

    /// Edits the record at `index`.
    fn load(self, index: usize, record: &DnsRecord) {
        self.name.set(record.name.clone());
        self.kind.set(record.kind);
        self.value.set(record.value.clone());
        self.ttl.set(record.ttl.to_string());
        self.editing.set(Some(index));
    }

    /// The record as typed, or why the TTL cannot be one (the zone checks the rest).
    fn record(self) -> Result<DnsRecord, String> {
        let ttl = self.ttl.get_untracked().trim().parse::<u32>().map_err(|_| {
            "The TTL must be a whole number of seconds, 1 to 604800 (3600 is common).".to_owned()
        })?;
        Ok(DnsRecord::new(
            &self.name.get_untracked(),
            self.kind.get_untracked(),
            &self.value.get_untracked(),
            ttl,
        ))
    }
}

/// The zone's records, each with Edit and Remove; a line saying so when there are none.
#[component]
fn ZoneRecords(
    records: Signal<Vec<DnsRecord>>,
    #[prop(into)] on_edit: Callback<(usize, DnsRecord)>,
    #[prop(into)] on_remove: Callback<usize>,
) -> impl IntoView {
    let rows = move || {
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
                                    on:click=move |_| on_edit.run((index, for_edit.clone()))
                                >
                                    "Edit"
                                </button>
                                <button
                                    type="button"
                                    class="button button-small button-danger"
                                    data-testid="zone-remove"
                                    aria-label=format!("Remove {text}")
                                    on:click=move |_| on_remove.run(index)
                                >
                                    "Remove"
                                </button>
                            </div>
                        </td>
                    </tr>
                }
            })
            .collect_view()
    };
    view! {
        <Show
            when=move || records.with(|r| !r.is_empty())
            fallback=|| view! { <p class="muted" data-testid="zone-empty">"The zone has no records yet."</p> }
        >
            <div class="table-wrap">
                <table class="records zone-records" data-testid="zone-records">
                    <caption class="visually-hidden">"Records of the simulated zone"</caption>
                    {column_heads(&["Name", "Type", "Value", "TTL", "Actions"])}
                    <tbody>{rows}</tbody>
                </table>
            </div>
        </Show>
    }
}

/// The fields of a record, and Add (or Save and Cancel while editing).
#[component]
fn RecordForm(
    draft: Draft,
    #[prop(into)] on_save: Callback<()>,
    #[prop(into)] on_cancel: Callback<()>,
) -> impl IntoView {
    let Draft { name, kind, value, ttl, editing } = draft;
    view! {
        <form
            class="zone-form"
            data-testid="zone-form"
            on:submit=move |ev| {
                ev.prevent_default();
                on_save.run(());
            }
        >
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
                        on:click=move |_| on_cancel.run(())
                    >
                        "Cancel"
                    </button>
                </Show>
            </div>
        </form>
    }
}
