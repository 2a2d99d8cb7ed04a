//! The whole page: notices, where the project is published, settings, Add domain, the domain
//! cards, the simulated zone and the configuration. It keeps time passing and saves changes.

use leptos::prelude::*;

use super::add_domain::AddDomain;
use super::config::ConfigView;
use super::domain_card::DomainCard;
use super::settings::SettingsForm;
use super::zone::ZoneEditor;
use crate::state::{Ctx, PageOptions};

/// Project settings > Domains.
#[component]
pub fn DomainsPage(
    /// The storage key and the tick interval.
    options: PageOptions,
) -> impl IntoView {
    let ctx = Ctx::new(&options.storage_key);
    provide_context(ctx);

    // Saves after every change (and once at start, which replaces an unreadable value).
    Effect::new(move |_| {
        ctx.dash.track();
        ctx.save();
    });
    ctx.tick();
    if let Ok(handle) = set_interval_with_handle(move || ctx.tick(), options.tick_every) {
        on_cleanup(move || handle.clear());
    }

    let names = move || ctx.dash.with(|d| d.domains.iter().map(|x| x.name.clone()).collect::<Vec<_>>());
    let published = move || ctx.dash.with(|d| d.published_address());
    let is_default = move || ctx.dash.with(|d| d.published_address() == d.default_address());

    view! {
        <div class="domains-page" data-testid="domains-page">
            <h1>"Domains"</h1>
            <p class="lead">
                "Publish the project at your own domain: add it, create the DNS record shown at your DNS provider, verify it, and the SSL certificate follows automatically."
            </p>
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
            </div>
            <p class="published" data-testid="published">
                "The project is published at "
                <strong data-testid="published-address">{published}</strong>
                {move || if is_default() { " (the default address)." } else { "." }}
            </p>
            <SettingsForm />
            <AddDomain />
            <section class="section" aria-labelledby="domains-title">
                <h2 id="domains-title">"Your domains"</h2>
                <p role="status" class="ok" data-testid="announcement">{move || ctx.announcement.get()}</p>
                <Show
                    when=move || !names().is_empty()
                    fallback=|| view! { <p class="muted" data-testid="no-domains">"No custom domain yet. Add one above."</p> }
                >
                    <div class="domain-list">
                        <For each=names key=|n| n.clone() let:name>
                            <DomainCard name=name />
                        </For>
                    </div>
                </Show>
            </section>
            <ZoneEditor />
            <ConfigView />
        </div>
    }
}
