//! The DNS record a domain asks for, as a table with copy buttons for its name and value.

use leptos::prelude::*;
use playground_domains::{DnsInstruction, InstructionKind};

use super::parts::column_heads;
use crate::browser;

/// A Copy button for `value`; the result goes to `status`.
#[component]
fn CopyButton(value: String, what: &'static str, status: RwSignal<String>) -> impl IntoView {
    let label = format!("Copy the {what} {value}");
    let copy = Action::new_local(move |value: &String| {
        let value = value.clone();
        async move {
            let message = match browser::copy_text(&value).await {
                Ok(()) => format!("Copied {value} to the clipboard."),
                Err(e) => e,
            };
            status.set(message);
        }
    });
    view! {
        <button
            type="button"
            class="button button-small"
            aria-label=label
            data-testid="copy"
            on:click=move |_| {
                copy.dispatch_local(value.clone());
            }
        >
            "Copy"
        </button>
    }
}

/// The record to create (`waiting`) or keep, with copy buttons whose result goes to `copied`.
pub fn instruction_table(
    instruction: &DnsInstruction,
    waiting: bool,
    copied: RwSignal<String>,
) -> impl IntoView + use<> {
    let apex = instruction.kind == InstructionKind::AliasOrAname;
    let kind = instruction.kind.label();
    let name = instruction.name.clone();
    let value = instruction.value.clone();
    let ttl = instruction.ttl.map_or_else(|| "Provider default".to_owned(), |t| t.to_string());
    let name_cell = match name {
        Some(label) => view! {
            <code data-testid="instr-name">{label.clone()}</code>
            " "
            <CopyButton value=label what="name" status=copied />
        }
        .into_any(),
        None => view! { <span data-testid="instr-name">"@ (the domain itself; some providers leave the name empty)"</span> }
            .into_any(),
    };
    let full = instruction.domain.clone();
    view! {
        <div class="table-wrap">
            <table class="records" data-testid="instructions">
                <caption>
                    {if waiting {
                        format!("Create this record at the DNS provider of {full}")
                    } else {
                        format!("The DNS record of {full}: keep it in place while the domain is attached")
                    }}
                </caption>
                {column_heads(&["Type", "Name", "Value", "TTL"])}
                <tbody>
                    <tr>
                        <td data-label="Type"><code data-testid="instr-type">{kind}</code></td>
                        <td data-label="Name">{name_cell}</td>
                        <td data-label="Value">
                            <code data-testid="instr-value">{value.clone()}</code>
                            " "
                            <CopyButton value=value what="value" status=copied />
                        </td>
                        <td data-label="TTL" data-testid="instr-ttl">{ttl}</td>
                    </tr>
                </tbody>
            </table>
        </div>
        {(!apex).then(|| view! {
            <p class="field-hint">
                {format!("If your provider asks for the full name, enter {full}. Delete any other record of the same name first (A, AAAA, TXT, CAA...): a CNAME shares its name with nothing.")}
            </p>
        })}
        {instruction.caveat.clone().map(|c| view! { <p class="caveat" data-testid="apex-caveat">{c}</p> })}
    }
}
