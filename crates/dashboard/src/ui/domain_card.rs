//! One attached domain: its state, the DNS record to create (with copy buttons), Verify and
//! Re-verify with the cause of a failure, the certificate, Make primary and Remove with its
//! confirmation.

use leptos::prelude::*;
use playground_domains::machine::propagation_note;
use playground_domains::{DomainRole, DomainState, Outcome, RemovalWarning};

use super::certificate::certificate_view;
use super::instructions::instruction_table;
use crate::view::DomainView;

/// How far along the three steps a state is (0 when not attached).
fn steps_reached(state: DomainState) -> usize {
    match state {
        DomainState::None => 0,
        DomainState::Added { .. } => 1,
        DomainState::Verified { .. } => 2,
        DomainState::Live { .. } | DomainState::Reverifying { .. } => 3,
    }
}

/// The check a state offers: Verify once added, Re-verify once verified or live.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Check {
    testid: &'static str,
    class: &'static str,
    label: &'static str,
    again: bool,
}

fn check_for(state: DomainState) -> Option<Check> {
    match state {
        DomainState::None => None,
        DomainState::Added { .. } => {
            Some(Check { testid: "verify", class: "button button-primary", label: "Verify", again: false })
        }
        DomainState::Verified { .. } | DomainState::Reverifying { .. } | DomainState::Live { .. } => {
            Some(Check { testid: "reverify", class: "button", label: "Re-verify", again: true })
        }
    }
}

/// What the card's parts read of the domain, one memo each, so a part follows only what it
/// shows. `Copy`.
#[derive(Clone, Copy)]
struct Card {
    state: Memo<DomainState>,
    is_primary: Memo<bool>,
    role: Memo<DomainRole>,
    checking: Memo<bool>,
}

impl Card {
    fn new(domain: Signal<DomainView>) -> Self {
        Self {
            state: Memo::new(move |_| domain.with(|d| d.state)),
            is_primary: Memo::new(move |_| domain.with(|d| d.primary)),
            role: Memo::new(move |_| domain.with(|d| d.role)),
            checking: Memo::new(move |_| domain.with(|d| d.checking)),
        }
    }

    /// The state's name, as in `data-state` and the state's class.
    fn label(self) -> &'static str {
        self.state.get().label()
    }

    /// Whether the domain serves traffic without being the primary: it then has a role
    /// (redirect or serve) and can be made primary.
    fn serves_besides_primary(self) -> bool {
        self.state.get().serves() && !self.is_primary.get()
    }
}

/// What the card's buttons do. `Copy`.
#[derive(Clone, Copy)]
struct Actions {
    on_check: Callback<bool>,
    on_make_primary: Callback<()>,
    on_keep_as_redirect: Callback<String>,
    on_remove: Callback<()>,
    on_role: Callback<DomainRole>,
}

/// The card of the attached domain `name`.
#[component]
pub fn DomainCard(
    /// The attached domain (normalised).
    name: String,
    /// What the card shows, kept up to date by the page.
    #[prop(into)]
    domain: Signal<DomainView>,
    /// Verify (`false`) or Re-verify (`true`).
    #[prop(into)]
    on_check: Callback<bool>,
    /// Make primary.
    #[prop(into)]
    on_make_primary: Callback<()>,
    /// Keep the domain as a 301 redirect to the given live domain instead of removing it.
    #[prop(into)]
    on_keep_as_redirect: Callback<String>,
    /// Remove now.
    #[prop(into)]
    on_remove: Callback<()>,
    /// Redirect to the primary, or serve the project itself (a domain that serves, not primary).
    #[prop(into)]
    on_role: Callback<DomainRole>,
) -> impl IntoView {
    let name = StoredValue::new(name);
    let card = Card::new(domain);
    let actions = Actions { on_check, on_make_primary, on_keep_as_redirect, on_remove, on_role };
    let confirming = RwSignal::new(false);
    let warning = Memo::new(move |_| domain.with(|d| d.removal.clone()));
    let outcome = Memo::new(move |_| domain.with(|d| d.outcome.clone()));
    let certificate =
        move || domain.with(|d| certificate_view(d.certificate.clone(), d.now, d.authority.clone()));
    let issue_error = Memo::new(move |_| domain.with(|d| d.issue_error.clone()));

    view! {
        <article class="domain" data-testid="domain" data-domain=name.get_value() data-state=move || card.label()>
            <DomainHead name=name.get_value() card=card />
            <Steps card=card />
            <RecordToCreate domain=domain card=card />
            <RoleNote card=card />
            <CardActions card=card actions=actions confirming=confirming />
            <Show when=move || confirming.get()>
                <RemoveConfirm
                    name=name.get_value()
                    warning=warning
                    busy=card.checking
                    on_keep_as_redirect=move |target: String| {
                        confirming.set(false);
                        actions.on_keep_as_redirect.run(target);
                    }
                    on_remove=actions.on_remove
                    on_cancel=move |()| confirming.set(false)
                />
            </Show>
            <p class="muted" role="status" data-testid="checking">
                {move || domain.with(|d| d.checking.then_some(d.checking_note))}
            </p>
            <OutcomeView outcome=outcome />
            <section class="certificate" aria-label="SSL certificate">
                <h4>"SSL certificate"</h4>
                // The authority's error, when issuance failed, replaces "being issued".
                {move || match issue_error.get() {
                    Some(message) => view! {
                        <p class="warning" data-testid="certificate" data-status="failed">
                            {format!("The certificate authority did not issue it: {}. Use Re-verify to try again.", message.trim_end_matches('.'))}
                        </p>
                    }
                    .into_any(),
                    None => certificate().into_any(),
                }}
            </section>
        </article>
    }
}

/// The domain's name, its state in words and the Primary badge.
#[component]
fn DomainHead(name: String, card: Card) -> impl IntoView {
    view! {
        <header class="domain-head">
            <h3 class="domain-name">{name}</h3>
            <span class=move || format!("state state-{}", card.label()) data-testid="domain-state">
                {move || match card.state.get() {
                    DomainState::None => "Removed",
                    DomainState::Added { .. } => "Added: waiting for DNS",
                    DomainState::Verified { .. } => "Verified: certificate pending",
                    DomainState::Reverifying { .. } => "Live: re-verified, new certificate pending",
                    DomainState::Live { .. } => "Live",
                }}
            </span>
            <Show when=move || card.is_primary.get()>
                <span class="state state-primary" data-testid="primary-badge">"Primary"</span>
            </Show>
        </header>
    }
}

/// The three steps, those done and the current one marked.
#[component]
fn Steps(card: Card) -> impl IntoView {
    let step_class = move |step: usize| {
        let reached = steps_reached(card.state.get());
        if step < reached {
            "step done"
        } else if step == reached {
            "step current"
        } else {
            "step"
        }
    };
    let current = move |step: usize| (step_class(step) == "step current").then_some("step");
    view! {
        <ol class="steps" aria-label="Progress">
            <li class=move || step_class(1) aria-current=move || current(1)>"1. Add"</li>
            <li class=move || step_class(2) aria-current=move || current(2)>"2. DNS record verified"</li>
            <li class=move || step_class(3) aria-current=move || current(3)>"3. Certificate issued: live"</li>
        </ol>
    }
}

/// The DNS record to create, with its copy buttons and what they did, and, while the domain
/// waits for it, how long the record may take to be seen.
#[component]
fn RecordToCreate(domain: Signal<DomainView>, card: Card) -> impl IntoView {
    let instruction = Memo::new(move |_| domain.with(|d| d.instruction.clone()));
    let now = Memo::new(move |_| domain.with(|d| d.now));
    let copied = RwSignal::new(String::new());
    view! {
        {move || {
            let waiting = matches!(card.state.get(), DomainState::Added { .. });
            instruction.get().map(|i| instruction_table(&i, waiting, copied))
        }}
        <p role="status" class="muted copy-status" data-testid="copy-status">{move || copied.get()}</p>
        {move || match card.state.get() {
            DomainState::Added { added_at } => Some(view! {
                <p class="muted" data-testid="propagation">
                    {format!("After creating the record, select Verify. {}", propagation_note(added_at, now.get()))}
                </p>
            }),
            _ => None,
        }}
    }
}

/// What a domain that serves, not as the primary, does: redirect or serve.
#[component]
fn RoleNote(card: Card) -> impl IntoView {
    let role = card.role;
    view! {
        <Show when=move || card.serves_besides_primary()>
            <p class="muted" data-testid="role" data-role=move || match role.get() {
                DomainRole::Redirect => "redirect",
                DomainRole::Serve => "serve",
            }>
                {move || match role.get() {
                    DomainRole::Redirect => "Redirects to the primary domain with 301.",
                    DomainRole::Serve => "Serves the project itself (not redirected).",
                }}
            </p>
        </Show>
    }
}

/// The card's buttons: Verify or Re-verify, Make primary and the role's toggle (a domain
/// that serves, not as the primary), and Remove, which opens or closes its confirmation.
#[component]
fn CardActions(card: Card, actions: Actions, confirming: RwSignal<bool>) -> impl IntoView {
    let Card { state, role, checking, .. } = card;
    let check = Memo::new(move |_| check_for(state.get()));
    view! {
        <div class="actions">
            {move || check.get().map(|c| view! {
                <button
                    type="button"
                    class=c.class
                    data-testid=c.testid
                    disabled=move || checking.get()
                    on:click=move |_| actions.on_check.run(c.again)
                >
                    {c.label}
                </button>
            })}
            <Show when=move || card.serves_besides_primary()>
                <button
                    type="button"
                    class="button"
                    data-testid="make-primary"
                    disabled=move || checking.get()
                    on:click=move |_| actions.on_make_primary.run(())
                >
                    "Make primary"
                </button>
            </Show>
            <Show when=move || card.serves_besides_primary()>
                <button
                    type="button"
                    class="button"
                    data-testid="role-toggle"
                    disabled=move || checking.get()
                    on:click=move |_| actions.on_role.run(match role.get() {
                        DomainRole::Redirect => DomainRole::Serve,
                        DomainRole::Serve => DomainRole::Redirect,
                    })
                >
                    {move || match role.get() {
                        DomainRole::Redirect => "Serve the project here too",
                        DomainRole::Serve => "Redirect to the primary instead",
                    }}
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
    }
}

/// The confirmation under Remove: what removing stops, a redirect to offer instead, Remove now
/// and Cancel.
#[component]
fn RemoveConfirm(
    name: String,
    #[prop(into)] warning: Signal<Option<RemovalWarning>>,
    #[prop(into)] busy: Signal<bool>,
    #[prop(into)] on_keep_as_redirect: Callback<String>,
    #[prop(into)] on_remove: Callback<()>,
    #[prop(into)] on_cancel: Callback<()>,
) -> impl IntoView {
    let message = {
        let name = name.clone();
        move || match warning.get() {
            Some(w) => w.message,
            None => format!(
                "Remove {name}? It does not serve traffic yet, so nothing stops; delete its DNS record at your provider afterwards."
            ),
        }
    };
    let redirect = move || {
        warning.get().and_then(|w| w.redirect_to).map(|target| {
            let text = format!("Keep it as a 301 redirect to {target} instead");
            view! {
                <button
                    type="button"
                    class="button"
                    data-testid="remove-redirect"
                    disabled=move || busy.get()
                    on:click=move |_| on_keep_as_redirect.run(target.clone())
                >
                    {text}
                </button>
            }
        })
    };
    view! {
        <div class="confirm" role="group" aria-label=format!("Confirm removing {name}") data-testid="remove-confirm">
            <p data-testid="remove-warning">{message}</p>
            <div class="actions">
                {redirect}
                <button
                    type="button"
                    class="button button-danger"
                    data-testid="remove-confirm-button"
                    disabled=move || busy.get()
                    on:click=move |_| on_remove.run(())
                >
                    {format!("Remove {name} now")}
                </button>
                <button type="button" class="button button-quiet" data-testid="remove-cancel" on:click=move |_| on_cancel.run(())>
                    "Cancel"
                </button>
            </div>
        </div>
    }
}

/// The result of the last action on the domain, with both values when a record points
/// elsewhere.
#[component]
fn OutcomeView(#[prop(into)] outcome: Signal<Option<Outcome>>) -> impl IntoView {
    view! {
        <div
            role="status"
            data-testid="domain-result"
            class=move || match outcome.get() {
                Some(o) if !o.ok => "result result-bad",
                Some(_) => "result result-ok",
                None => "result",
            }
        >
            {move || outcome.get().map(|o| view! {
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
    }
}
