//! The whole page, one component over its backend (the demo's simulated zone or the host's
//! API): the title, then the notices, where the project is published, Add domain, the domain
//! cards, troubleshooting and the configuration, with what only one mode has where the backend
//! puts it (the demo's settings and zone; the host's sign-in, account and project choice).
//! Every send is a Leptos `Action`: Add domain waits while its add is on its way.

use leptos::prelude::*;

use super::add_domain::{AddDomain, AddRequest};
use super::config::ConfigView;
use super::domain_card::DomainCard;
use super::troubleshooting::TroubleshootingView;
use crate::backend::{CardSend, DomainsBackend};

/// The card of `name`, its sends one `Action`.
fn domain_card<B: DomainsBackend>(backend: B, name: String) -> impl IntoView {
    let key = StoredValue::new(name.clone());
    let send = Action::new_local(move |send: &CardSend| backend.send(key.get_value(), send.clone()));
    let dispatch = move |what: CardSend| {
        send.dispatch_local(what);
    };
    view! {
        <DomainCard
            name=name
            domain=Memo::new(move |_| backend.card(&key.read_value()))
            on_check=move |again: bool| dispatch(CardSend::Check { again })
            on_make_primary=move |()| dispatch(CardSend::MakePrimary)
            on_keep_as_redirect=move |target: String| dispatch(CardSend::KeepAsRedirect(target))
            on_role=move |role| dispatch(CardSend::Role(role))
            on_remove=move |()| dispatch(CardSend::Remove)
        />
    }
}

/// The page-wide notices, each with Dismiss, and what the backend adds to them.
fn notices<B: DomainsBackend>(backend: B) -> impl IntoView {
    let notices = backend.notices();
    view! {
        <div class="notices" role="alert" data-testid="notices">
            <For each=move || notices.get() key=|n| n.clone() let:notice>
                <div class="notice" data-testid="notice">
                    <p>{notice.clone()}</p>
                    <button
                        type="button"
                        class="button button-quiet"
                        data-testid="notice-dismiss"
                        on:click=move |_| notices.update(|n| n.retain(|m| *m != notice))
                    >
                        "Dismiss"
                    </button>
                </div>
            </For>
            {backend.notices_more()}
        </div>
    }
}

/// The domains, once there is a project to manage (signed in, on a host).
fn managed<B: DomainsBackend>(backend: B) -> impl IntoView {
    backend.follow();
    let add = Action::new_local(move |request: &AddRequest| backend.add_domain(*request));
    let names = move || backend.domain_names();
    let announcement = backend.announcement();
    view! {
        {backend.header()}
        {notices(backend)}
        {backend.chooser()}
        <Show when=move || backend.loaded() fallback=move || backend.loading()>
            {backend.published()}
            {backend.settings()}
            <AddDomain
                on_add=move |request: AddRequest| {
                    add.dispatch_local(request);
                }
                busy=add.pending()
            />
            <section class="section" aria-labelledby="domains-title">
                <h2 id="domains-title">"Your domains"</h2>
                <p role="status" class="ok" data-testid="announcement">{move || announcement.get()}</p>
                <Show
                    when=move || !names().is_empty()
                    fallback=|| view! { <p class="muted" data-testid="no-domains">"No custom domain yet. Add one above."</p> }
                >
                    <div class="domain-list">
                        <For each=names key=|n| n.clone() let:name>
                            {domain_card(backend, name)}
                        </For>
                    </div>
                </Show>
            </section>
            <TroubleshootingView troubles=Signal::derive(move || backend.troubles()) />
            {backend.zone()}
            <ConfigView
                config=Signal::derive(move || backend.config())
                attached=Signal::derive(move || backend.attached())
                also_served=Signal::derive(move || backend.also_served())
            />
        </Show>
    }
}

/// Project settings > Domains over `backend`.
#[component]
pub fn DomainsPage<B: DomainsBackend>(
    /// Where the domains live: the demo's simulated zone or the host's API.
    backend: B,
) -> impl IntoView {
    backend.run();
    // The part shown changes only when the owner signs in or out.
    let session = Memo::new(move |_| backend.session());
    view! {
        <div class="domains-page" data-testid="domains-page" data-mode=B::MODE data-session=move || session.get()>
            <h1>"Domains"</h1>
            {backend.label()}
            <p class="lead">
                "Publish the project at your own domain: add it, create the DNS record shown at your DNS provider, verify it, and the SSL certificate follows automatically."
            </p>
            {move || match session.get() {
                None | Some("signed-in") => managed(backend).into_any(),
                Some(other) => backend.gate(other),
            }}
        </div>
    }
}
