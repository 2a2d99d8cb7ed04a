//! The host's backend: the page on a host (`playground host`) over its JSON API ([`HostCtx`]):
//! sign-in, then the owner's projects and the domain cards. No simulated zone and no settings:
//! the host's state is the only one. While a certificate is pending the page asks the host
//! again every [`POLL_EVERY_SECS`] seconds, while the tab is visible, for at most
//! [`POLL_FOR_SECS`]. Sign-in, sign-out, Try again and every change are Leptos `Action`s; the
//! project is read by a `LocalResource` (`HostCtx`).

use std::time::Duration;

use leptos::prelude::*;
use playground_domains::hosted::{POLL_EVERY_SECS, POLL_FOR_SECS};
use playground_domains::{DomainConfig, Trouble};

use super::add_domain::AddRequest;
use crate::backend::{CardSend, DomainsBackend};
use crate::browser;
use crate::host_state::{HostCtx, Session};
use crate::view::DomainView;

impl DomainsBackend for HostCtx {
    const MODE: &'static str = "host";

    fn run(self) {
        // The start-up check (who is signed in, then their projects), once per page.
        Action::new_local(move |_: &()| async move { self.start().await }).dispatch_local(());
    }

    fn session(self) -> Option<&'static str> {
        Some(match self.session.get() {
            Session::Checking => "checking",
            Session::SignedOut(_) => "signed-out",
            Session::SignedIn(_) => "signed-in",
        })
    }

    fn gate(self, session: &'static str) -> AnyView {
        if session == "signed-out" {
            view! { <SignInForm ctx=self /> }.into_any()
        } else {
            view! { <p class="muted" data-testid="session-checking">"Asking the host who is signed in\u{2026}"</p> }
                .into_any()
        }
    }

    fn header(self) -> AnyView {
        view! { <Account ctx=self /> }.into_any()
    }

    fn notices(self) -> RwSignal<Vec<String>> {
        self.notices
    }

    fn notices_more(self) -> AnyView {
        let retry = Action::new_local(move |_: &()| async move { self.load_projects().await });
        (move || {
            self.load_error.get().map(|message| {
                view! {
                    <div class="notice" data-testid="load-error">
                        <p>{message}</p>
                        <button
                            type="button"
                            class="button"
                            data-testid="load-retry"
                            on:click=move |_| {
                                retry.dispatch_local(());
                            }
                        >
                            "Try again"
                        </button>
                    </div>
                }
            })
        })
        .into_any()
    }

    fn follow(self) {
        poll_while_pending(self);
    }

    fn chooser(self) -> AnyView {
        view! { <ProjectChoice ctx=self /> }.into_any()
    }

    fn loaded(self) -> bool {
        self.project.with(Option::is_some)
    }

    fn loading(self) -> AnyView {
        let ctx = self;
        view! {
            <p class="muted" data-testid="project-loading">
                {move || if ctx.projects.with(Vec::is_empty) && !ctx.refreshing.get() && ctx.load_error.with(Option::is_none) {
                    "You own no project on this host."
                } else {
                    "Reading the project from the host\u{2026}"
                }}
            </p>
        }
        .into_any()
    }

    fn published(self) -> AnyView {
        view! { <Published ctx=self /> }.into_any()
    }

    async fn add_domain(self, request: AddRequest) {
        self.add(request).await;
    }

    fn announcement(self) -> RwSignal<String> {
        self.announcement
    }

    fn domain_names(self) -> Vec<String> {
        self.names()
    }

    fn card(self, name: &str) -> DomainView {
        self.domain_view(name)
    }

    async fn send(self, name: String, send: CardSend) {
        match send {
            CardSend::Check { again } => self.check(&name, again).await,
            CardSend::MakePrimary => self.set_primary(&name).await,
            CardSend::KeepAsRedirect(target) => self.keep_as_redirect(&name, &target).await,
            CardSend::Role(role) => self.set_role(&name, role).await,
            CardSend::Remove => self.remove(&name).await,
        }
    }

    fn troubles(self) -> Vec<Trouble> {
        self.project.with(|p| p.as_ref().map(|p| p.troubles()).unwrap_or_default())
    }

    fn config(self) -> DomainConfig {
        self.project
            .with(|p| p.as_ref().map(|p| p.config.clone()))
            .unwrap_or_else(|| playground_domains::build_config("", &[]))
    }

    fn attached(self) -> Vec<String> {
        self.project.with(|p| p.as_ref().map(|p| p.attached_names()).unwrap_or_default())
    }

    fn also_served(self) -> Vec<String> {
        self.project.with(|p| p.as_ref().map(|p| p.also_served.clone()).unwrap_or_default())
    }
}

/// Email and password; the host's refusal under the form.
#[component]
fn SignInForm(ctx: HostCtx) -> impl IntoView {
    let email = RwSignal::new(String::new());
    let password = RwSignal::new(String::new());
    let sign_in = Action::new_local(move |(typed_email, typed_password): &(String, String)| {
        let (typed_email, typed_password) = (typed_email.clone(), typed_password.clone());
        async move {
            let result = ctx.sign_in(&typed_email, &typed_password).await;
            // The form is gone once signed in; this then changes nothing.
            if result.is_ok() {
                password.set(String::new());
            }
            result.err().unwrap_or_default()
        }
    });
    let pending = sign_in.pending();
    // The host's refusal of the last sign-in, none while one is on its way.
    let error = move || sign_in.value().get().unwrap_or_default();
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        if pending.get_untracked() {
            return;
        }
        sign_in.clear();
        sign_in.dispatch_local((email.get_untracked(), password.get_untracked()));
    };
    let said = move || match ctx.session.get() {
        Session::SignedOut(Some(message)) => message,
        _ => String::new(),
    };
    view! {
        <section class="section sign-in" aria-labelledby="sign-in-title" data-testid="sign-in">
            <h2 id="sign-in-title">"Sign in"</h2>
            <p class="muted">"Only the project's owner manages its domains. Sign in with the email and password of host.toml's owner."</p>
            <p role="status" class="muted" data-testid="sign-in-status">{said}</p>
            <form class="sign-in-form" data-testid="sign-in-form" on:submit=submit>
                <label class="field">
                    <span class="field-label">"Email"</span>
                    <input
                        type="email"
                        autocomplete="username"
                        required
                        data-testid="sign-in-email"
                        prop:value=move || email.get()
                        on:input=move |ev| email.set(event_target_value(&ev))
                    />
                </label>
                <label class="field">
                    <span class="field-label">"Password"</span>
                    <input
                        type="password"
                        autocomplete="current-password"
                        required
                        data-testid="sign-in-password"
                        aria-invalid=move || (!error().is_empty()).to_string()
                        prop:value=move || password.get()
                        on:input=move |ev| password.set(event_target_value(&ev))
                    />
                </label>
                <button type="submit" class="button button-primary" data-testid="sign-in-button" disabled=move || pending.get()>
                    {move || if pending.get() { "Signing in\u{2026}" } else { "Sign in" }}
                </button>
            </form>
            <p role="alert" class="error" data-testid="sign-in-error">{error}</p>
        </section>
    }
}

/// Who is signed in, and Sign out.
#[component]
fn Account(ctx: HostCtx) -> impl IntoView {
    let sign_out = Action::new_local(move |_: &()| async move { ctx.sign_out().await });
    // Once signed out, the account is gone.
    let leaving = sign_out.pending();
    let email = move || match ctx.session.get() {
        Session::SignedIn(email) => email,
        _ => String::new(),
    };
    view! {
        <div class="account" data-testid="account">
            <span>"Signed in as " <strong data-testid="account-email">{email}</strong></span>
            <button
                type="button"
                class="button button-quiet"
                data-testid="sign-out"
                disabled=move || leaving.get()
                on:click=move |_| {
                    sign_out.dispatch_local(());
                }
            >
                "Sign out"
            </button>
        </div>
    }
}

/// The project's name, or a selector when the owner has several.
#[component]
fn ProjectChoice(ctx: HostCtx) -> impl IntoView {
    let several = move || ctx.projects.with(|p| p.len() > 1);
    view! {
        <Show
            when=several
            fallback=move || view! {
                <p class="project-name" data-testid="project-name">
                    "Project "
                    <strong>{move || ctx.selected.get().unwrap_or_default()}</strong>
                    {move || ctx.project.with(|p| p.as_ref().map(|p| format!(" ({} plan)", p.plan.as_str())))}
                </p>
            }
        >
            <label class="field project-select">
                <span class="field-label">"Project"</span>
                <select
                    data-testid="project-select"
                    prop:value=move || ctx.selected.get().unwrap_or_default()
                    on:change=move |ev| {
                        ctx.choose(&event_target_value(&ev));
                    }
                >
                    <For each=move || ctx.projects.get() key=|p| p.name.clone() let:project>
                        {
                            let name = project.name.clone();
                            view! {
                                <option
                                    value=project.name.clone()
                                    selected=move || ctx.selected.with(|s| s.as_deref() == Some(name.as_str()))
                                >
                                    {format!("{} ({} plan)", project.name, project.plan.as_str())}
                                </option>
                            }
                        }
                    </For>
                </select>
            </label>
        </Show>
    }
}

/// What the host says about the chosen project: where it is published, its plan.
#[component]
fn Published(ctx: HostCtx) -> impl IntoView {
    move || {
        ctx.project.with(|p| {
            p.as_ref().map(|p| {
                let default = p.published_address == p.default_address;
                let plan = (!p.custom_domains).then(|| {
                    format!(
                        "The {} plan does not include custom domains: the project stays at its default address until it moves to Pro or above.",
                        p.plan.as_str()
                    )
                });
                let deploy = (!p.deployed).then_some(
                    "The project's site is not published on this host yet (no index.html in its site folder): domains can be added once it is.",
                );
                view! {
                    <p class="published" data-testid="published">
                        "The project is published at "
                        <strong data-testid="published-address">{p.published_address.clone()}</strong>
                        {if default { " (the default address)." } else { "." }}
                    </p>
                    {plan.map(|text| view! { <p class="notice" data-testid="plan-note">{text}</p> })}
                    {deploy.map(|text| view! { <p class="notice" data-testid="deploy-note">{text}</p> })}
                }
            })
        })
    }
}

/// Asks the host again while a certificate is pending and the tab is visible, for at most
/// [`POLL_FOR_SECS`] of continuous pending.
fn poll_while_pending(ctx: HostCtx) {
    let since = StoredValue::new(None::<u64>);
    let poll = move || {
        let pending = ctx.project.with_untracked(|p| p.as_ref().is_some_and(|p| p.certificate_pending()));
        if !pending {
            since.set_value(None);
            return;
        }
        let now = browser::now_secs();
        let started = *since.get_value().get_or_insert(now);
        since.set_value(Some(started));
        let hidden = web_sys::window().and_then(|w| w.document()).is_some_and(|d| d.hidden());
        let busy = ctx.refreshing.get_untracked() || ctx.busy.with_untracked(|b| !b.is_empty());
        if hidden || busy || now.saturating_sub(started) > POLL_FOR_SECS {
            return;
        }
        ctx.refresh();
    };
    if let Ok(handle) = set_interval_with_handle(poll, Duration::from_secs(POLL_EVERY_SECS)) {
        on_cleanup(move || handle.clear());
    }
}
