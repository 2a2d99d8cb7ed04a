//! The page on a host (`playground host`): sign-in, then the owner's projects and the domain
//! cards, driven by the host's JSON API. No simulated zone and no settings: the host's state is
//! the only one. While a certificate is pending the page asks the host again every
//! [`POLL_EVERY_SECS`] seconds, while the tab is visible, for at most [`POLL_FOR_SECS`].

use std::time::Duration;

use leptos::prelude::*;
use leptos::task::spawn_local;
use playground_domains::hosted::{POLL_EVERY_SECS, POLL_FOR_SECS};
use playground_domains::{DomainConfig, DomainRole};

use super::add_domain::{AddDomain, AddRequest};
use super::config::ConfigView;
use super::domain_card::DomainCard;
use super::troubleshooting::TroubleshootingView;
use crate::browser;
use crate::host_state::{HostCtx, Session};

/// The card of `name`, wired to the host.
fn domain_card(ctx: HostCtx, name: String) -> impl IntoView {
    let key = StoredValue::new(name.clone());
    view! {
        <DomainCard
            name=name
            domain=Memo::new(move |_| ctx.domain_view(&key.read_value()))
            on_check=move |again: bool| {
                let name = key.get_value();
                spawn_local(async move { ctx.check(&name, again).await });
            }
            on_make_primary=move |()| {
                let name = key.get_value();
                spawn_local(async move { ctx.set_primary(&name).await });
            }
            on_keep_as_redirect=move |target: String| {
                let name = key.get_value();
                spawn_local(async move { ctx.keep_as_redirect(&name, &target).await });
            }
            on_role=move |role: DomainRole| {
                let name = key.get_value();
                spawn_local(async move { ctx.set_role(&name, role).await });
            }
            on_remove=move |()| {
                let name = key.get_value();
                spawn_local(async move { ctx.remove(&name).await });
            }
        />
    }
}

/// Email and password; the host's refusal under the form.
#[component]
fn SignInForm(ctx: HostCtx) -> impl IntoView {
    let email = RwSignal::new(String::new());
    let password = RwSignal::new(String::new());
    let error = RwSignal::new(String::new());
    let pending = RwSignal::new(false);
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        if pending.get_untracked() {
            return;
        }
        pending.set(true);
        error.set(String::new());
        let (typed_email, typed_password) = (email.get_untracked(), password.get_untracked());
        spawn_local(async move {
            let result = ctx.sign_in(&typed_email, &typed_password).await;
            // The form is gone once signed in; these then change nothing.
            pending.set(false);
            match result {
                Ok(()) => password.set(String::new()),
                Err(message) => error.set(message),
            }
        });
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
                        aria-invalid=move || (!error.get().is_empty()).to_string()
                        prop:value=move || password.get()
                        on:input=move |ev| password.set(event_target_value(&ev))
                    />
                </label>
                <button type="submit" class="button button-primary" data-testid="sign-in-button" disabled=move || pending.get()>
                    {move || if pending.get() { "Signing in\u{2026}" } else { "Sign in" }}
                </button>
            </form>
            <p role="alert" class="error" data-testid="sign-in-error">{move || error.get()}</p>
        </section>
    }
}

/// Who is signed in, and Sign out.
#[component]
fn Account(ctx: HostCtx) -> impl IntoView {
    let leaving = RwSignal::new(false);
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
                    leaving.set(true);
                    spawn_local(async move { ctx.sign_out().await });
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
                        let name = event_target_value(&ev);
                        spawn_local(async move { ctx.choose(&name).await });
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
        spawn_local(async move { ctx.refresh().await });
    };
    if let Ok(handle) = set_interval_with_handle(poll, Duration::from_secs(POLL_EVERY_SECS)) {
        on_cleanup(move || handle.clear());
    }
}

/// The signed-in page: account, project, Add domain, the cards, troubleshooting, configuration.
#[component]
fn Signed(ctx: HostCtx) -> impl IntoView {
    poll_while_pending(ctx);
    let names = move || ctx.names();
    let loaded = move || ctx.project.with(Option::is_some);
    view! {
        <Account ctx=ctx />
        <div class="notices" role="alert" data-testid="notices">
            <For each=move || ctx.notices.get() key=|n| n.clone() let:notice>
                <div class="notice" data-testid="notice">
                    <p>{notice.clone()}</p>
                    <button
                        type="button"
                        class="button button-quiet"
                        data-testid="notice-dismiss"
                        on:click=move |_| ctx.notices.update(|n| n.retain(|m| *m != notice))
                    >
                        "Dismiss"
                    </button>
                </div>
            </For>
            {move || ctx.load_error.get().map(|message| view! {
                <div class="notice" data-testid="load-error">
                    <p>{message}</p>
                    <button
                        type="button"
                        class="button"
                        data-testid="load-retry"
                        on:click=move |_| spawn_local(async move { ctx.load_projects().await })
                    >
                        "Try again"
                    </button>
                </div>
            })}
        </div>
        <ProjectChoice ctx=ctx />
        <Show
            when=loaded
            fallback=move || view! {
                <p class="muted" data-testid="project-loading">
                    {move || if ctx.projects.with(Vec::is_empty) && !ctx.refreshing.get() && ctx.load_error.with(Option::is_none) {
                        "You own no project on this host."
                    } else {
                        "Reading the project from the host\u{2026}"
                    }}
                </p>
            }
        >
            <Published ctx=ctx />
            <AddDomain
                on_add=move |request: AddRequest| spawn_local(async move { ctx.add(request).await })
                busy=Signal::derive(move || ctx.is_busy(""))
            />
            <section class="section" aria-labelledby="domains-title">
                <h2 id="domains-title">"Your domains"</h2>
                <p role="status" class="ok" data-testid="announcement">{move || ctx.announcement.get()}</p>
                <Show
                    when=move || !names().is_empty()
                    fallback=|| view! { <p class="muted" data-testid="no-domains">"No custom domain yet. Add one above."</p> }
                >
                    <div class="domain-list">
                        <For each=names key=|n| n.clone() let:name>
                            {domain_card(ctx, name)}
                        </For>
                    </div>
                </Show>
            </section>
            <TroubleshootingView troubles=Signal::derive(move || {
                ctx.project.with(|p| p.as_ref().map(|p| p.troubles()).unwrap_or_default())
            }) />
            <ConfigView
                config=Signal::derive(move || {
                    ctx.project.with(|p| p.as_ref().map(|p| p.config.clone())).unwrap_or_else(empty_config)
                })
                attached=Signal::derive(move || ctx.project.with(|p| p.as_ref().map(|p| p.attached_names()).unwrap_or_default()))
                also_served=Signal::derive(move || ctx.project.with(|p| p.as_ref().map(|p| p.also_served.clone()).unwrap_or_default()))
            />
        </Show>
    }
}

fn empty_config() -> DomainConfig {
    playground_domains::build_config("", &[])
}

/// Project settings > Domains on a host; `api` is the API's base path.
#[component]
pub fn HostPage(
    /// The API's base path on this host, such as `/_host/api`.
    api: String,
) -> impl IntoView {
    let ctx = HostCtx::new(&api);
    spawn_local(async move { ctx.start().await });
    // The part shown changes only when the owner signs in or out.
    let state = Memo::new(move |_| match ctx.session.get() {
        Session::Checking => "checking",
        Session::SignedOut(_) => "signed-out",
        Session::SignedIn(_) => "signed-in",
    });
    view! {
        <div class="domains-page" data-testid="domains-page" data-mode="host" data-session=state>
            <h1>"Domains"</h1>
            <p class="lead">
                "Publish the project at your own domain: add it, create the DNS record shown at your DNS provider, verify it, and the SSL certificate follows automatically."
            </p>
            {move || match state.get() {
                "signed-out" => view! { <SignInForm ctx=ctx /> }.into_any(),
                "signed-in" => view! { <Signed ctx=ctx /> }.into_any(),
                _ => view! { <p class="muted" data-testid="session-checking">"Asking the host who is signed in\u{2026}"</p> }.into_any(),
            }}
        </div>
    }
}
