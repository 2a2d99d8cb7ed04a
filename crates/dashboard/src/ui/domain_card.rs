//! One attached domain: its state, the DNS record to create (with copy buttons), Verify and
//! Re-verify with the cause of a failure, the certificate, Make primary and Remove with its
//! confirmation.

use leptos::prelude::*;
use petstore_core::domains::machine::propagation_note;
use petstore_core::domains::{CertificateStatus, DnsInstruction, DomainState, InstructionKind};

use crate::browser;
use crate::state::Ctx;

fn minutes(secs: u64) -> String {
    match secs {
        0..=59 => "less than a minute".to_owned(),
        60..=119 => "about a minute".to_owned(),
        _ => format!("about {} minutes", secs.div_ceil(60)),
    }
}

/// A Copy button for `value`; the result goes to `status`.
#[component]
fn CopyButton(value: String, what: &'static str, status: RwSignal<String>) -> impl IntoView {
    let label = format!("Copy the {what} {value}");
    view! {
        <button
            type="button"
            class="button button-small"
            aria-label=label
            data-testid="copy"
            on:click=move |_| {
                let value = value.clone();
                leptos::task::spawn_local(async move {
                    let message = match browser::copy_text(&value).await {
                        Ok(()) => format!("Copied {value} to the clipboard."),
                        Err(e) => e,
                    };
                    status.set(message);
                });
            }
        >
            "Copy"
        </button>
    }
}

fn instruction_table(
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
                <thead>
                    <tr>
                        <th scope="col">"Type"</th>
                        <th scope="col">"Name"</th>
                        <th scope="col">"Value"</th>
                        <th scope="col">"TTL"</th>
                    </tr>
                </thead>
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
                {format!("If your provider asks for the full name, enter {full}. Delete any A or AAAA record for the same name first: it blocks the CNAME.")}
            </p>
        })}
        {instruction.caveat.clone().map(|c| view! { <p class="caveat" data-testid="apex-caveat">{c}</p> })}
    }
}

fn certificate_view(status: CertificateStatus, now: u64, authority: String) -> impl IntoView + use<> {
    match status {
        CertificateStatus::NotRequested => view! {
            <p data-testid="certificate" data-status="not-requested">
                "No certificate yet: it is requested automatically once the domain verifies."
            </p>
        }
        .into_any(),
        CertificateStatus::Issuing { expected_at } => view! {
            <p data-testid="certificate" data-status="issuing">
                {format!(
                    "The SSL certificate is being issued automatically, usually within a couple of minutes (expected in {}). Nothing to install or renew.",
                    minutes(expected_at.saturating_sub(now))
                )}
            </p>
        }
        .into_any(),
        CertificateStatus::BlockedByCaa { records } => view! {
            <div data-testid="certificate" data-status="caa-blocked" class="warning">
                <p>
                    {format!("A CAA record does not allow {authority} to issue the certificate. Add a CAA record 0 issue \"{authority}\" at your DNS provider (or delete the one below), then use Re-verify:")}
                </p>
                <ul>
                    {records.into_iter().map(|r| view! { <li><code>{r.to_string()}</code></li> }).collect_view()}
                </ul>
            </div>
        }
        .into_any(),
        CertificateStatus::Overdue { verified_at, blocking_caa, steps } => view! {
            <div data-testid="certificate" data-status="overdue" class="warning">
                <p>
                    {format!(
                        "The SSL certificate has not appeared {} after verification (30 minutes is the limit). Work through these steps:",
                        minutes(now.saturating_sub(verified_at))
                    )}
                </p>
                <ol data-testid="troubleshooting">
                    {steps.into_iter().map(|s| view! { <li>{s}</li> }).collect_view()}
                </ol>
                {(!blocking_caa.is_empty()).then(|| view! {
                    <p>
                        "CAA records blocking it now: "
                        {blocking_caa.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")}
                    </p>
                })}
            </div>
        }
        .into_any(),
        CertificateStatus::Issued { .. } => view! {
            <p data-testid="certificate" data-status="issued">
                "The SSL certificate is issued and renewed automatically."
            </p>
        }
        .into_any(),
    }
}

/// The card of the attached domain `name`.
#[component]
pub fn DomainCard(
    /// The attached domain (normalised).
    name: String,
) -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let name = StoredValue::new(name);
    let state = Memo::new(move |_| {
        ctx.dash.with(|d| d.domain(&name.read_value()).map_or(DomainState::None, |x| x.state))
    });
    let label = move || state.get().label();
    let instruction = Memo::new(move |_| ctx.dash.with(|d| d.instructions(&name.read_value()).ok()));
    let is_primary = move || ctx.dash.with(|d| d.published_address() == *name.read_value());
    let checking = move || ctx.checking.get().as_deref() == Some(name.read_value().as_str());
    let outcome = move || ctx.outcomes.with(|o| o.get(&*name.read_value()).cloned());
    let copied = RwSignal::new(String::new());
    let confirming = RwSignal::new(false);

    let step_class = move |step: usize| {
        let reached = match state.get() {
            DomainState::None => 0,
            DomainState::Added { .. } => 1,
            DomainState::Verified { .. } => 2,
            DomainState::Live { .. } => 3,
        };
        if step < reached {
            "step done"
        } else if step == reached {
            "step current"
        } else {
            "step"
        }
    };
    let current = move |step: usize| (step_class(step) == "step current").then_some("step");
    let certificate = move || {
        let records = ctx.records();
        let now = ctx.now.get();
        let (status, authority) = ctx.dash.with(|d| {
            (d.certificate(&name.read_value(), now, &records), d.settings.certificate_authority.clone())
        });
        certificate_view(status, now, authority)
    };
    let warning = move || ctx.dash.with(|d| d.removal_warning(&name.read_value()));

    view! {
        <article class="domain" data-testid="domain" data-domain=name.get_value() data-state=label>
            <header class="domain-head">
                <h3 class="domain-name">{name.get_value()}</h3>
                <span class=move || format!("state state-{}", label()) data-testid="domain-state">
                    {move || match state.get() {
                        DomainState::None => "Removed",
                        DomainState::Added { .. } => "Added: waiting for DNS",
                        DomainState::Verified { .. } => "Verified: certificate pending",
                        DomainState::Live { .. } => "Live",
                    }}
                </span>
                <Show when=is_primary>
                    <span class="state state-primary" data-testid="primary-badge">"Primary"</span>
                </Show>
            </header>
            <ol class="steps" aria-label="Progress">
                <li class=move || step_class(1) aria-current=move || current(1)>"1. Add"</li>
                <li class=move || step_class(2) aria-current=move || current(2)>"2. DNS record verified"</li>
                <li class=move || step_class(3) aria-current=move || current(3)>"3. Certificate issued: live"</li>
            </ol>
            {move || {
                let waiting = matches!(state.get(), DomainState::Added { .. });
                instruction.get().map(|i| instruction_table(&i, waiting, copied))
            }}
            <p role="status" class="muted copy-status" data-testid="copy-status">{move || copied.get()}</p>
            {move || match state.get() {
                DomainState::Added { added_at } => Some(view! {
                    <p class="muted" data-testid="propagation">
                        {format!("After creating the record, select Verify. {}", propagation_note(added_at, ctx.now.get()))}
                    </p>
                }),
                _ => None,
            }}
            <div class="actions">
                <Show when=move || matches!(state.get(), DomainState::Added { .. })>
                    <button
                        type="button"
                        class="button button-primary"
                        data-testid="verify"
                        disabled=checking
                        on:click=move |_| ctx.check(&name.read_value(), false)
                    >
                        "Verify"
                    </button>
                </Show>
                <Show when=move || matches!(state.get(), DomainState::Verified { .. } | DomainState::Live { .. })>
                    <button
                        type="button"
                        class="button"
                        data-testid="reverify"
                        disabled=checking
                        on:click=move |_| ctx.check(&name.read_value(), true)
                    >
                        "Re-verify"
                    </button>
                </Show>
                <Show when=move || matches!(state.get(), DomainState::Live { .. }) && !is_primary()>
                    <button
                        type="button"
                        class="button"
                        data-testid="make-primary"
                        on:click=move |_| ctx.set_primary(&name.read_value())
                    >
                        "Make primary"
                    </button>
                </Show>
                <button
                    type="button"
                    class="button button-danger"
                    data-testid="remove"
                    aria-expanded=move || confirming.get().to_string()
                    on:click=move |_| confirming.update(|c| *c = !*c)
                >
                    "Remove…"
                </button>
            </div>
            <Show when=move || confirming.get()>
                <div class="confirm" role="group" aria-label=format!("Confirm removing {}", name.get_value()) data-testid="remove-confirm">
                    <p data-testid="remove-warning">
                        {move || match warning() {
                            Some(w) => w.message,
                            None => format!(
                                "Remove {}? It does not serve traffic yet, so nothing stops; delete its DNS record at your provider afterwards.",
                                name.read_value()
                            ),
                        }}
                    </p>
                    <div class="actions">
                        {move || warning().and_then(|w| w.redirect_to).map(|target| {
                            let text = format!("Keep it as a 301 redirect to {target} instead");
                            view! {
                                <button
                                    type="button"
                                    class="button"
                                    data-testid="remove-redirect"
                                    on:click=move |_| {
                                        confirming.set(false);
                                        ctx.keep_as_redirect(&name.read_value(), &target);
                                    }
                                >
                                    {text}
                                </button>
                            }
                        })}
                        <button
                            type="button"
                            class="button button-danger"
                            data-testid="remove-confirm-button"
                            on:click=move |_| {
                                let _ = ctx.remove(&name.read_value());
                            }
                        >
                            {move || format!("Remove {} now", name.read_value())}
                        </button>
                        <button type="button" class="button button-quiet" data-testid="remove-cancel" on:click=move |_| confirming.set(false)>
                            "Cancel"
                        </button>
                    </div>
                </div>
            </Show>
            <p class="muted" role="status" data-testid="checking">
                {move || checking().then_some("Asking the DNS-over-HTTPS resolver…")}
            </p>
            <div
                role="status"
                data-testid="domain-result"
                class=move || match outcome() {
                    Some(o) if !o.ok => "result result-bad",
                    Some(_) => "result result-ok",
                    None => "result",
                }
            >
                {move || outcome().map(|o| view! {
                    <p data-testid="domain-result-text">{o.message}</p>
                    {o.differs.map(|(expected, found)| view! {
                        <dl class="differs" data-testid="differs">
                            <dt>"Value shown here"</dt>
                            <dd><code data-testid="differs-expected">{expected}</code></dd>
                            <dt>"Value found in DNS"</dt>
                            <dd><code data-testid="differs-found">{found}</code></dd>
                        </dl>
                    })}
                })}
            </div>
            <section class="certificate" aria-label="SSL certificate">
                <h4>"SSL certificate"</h4>
                {certificate}
            </section>
        </article>
    }
}
