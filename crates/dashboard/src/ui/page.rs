//! The whole page: notices, where the project is published, settings, Add domain, the domain
//! cards, the simulated zone and the configuration. It keeps time passing and saves changes.

use leptos::prelude::*;
use playground_domains::{Dashboard, DnsRecord, DomainRole, Settings};

use super::add_domain::{AddDomain, AddRequest};
use super::config::ConfigView;
use super::domain_card::DomainCard;
use super::settings::SettingsForm;
use super::troubleshooting::TroubleshootingView;
use super::zone::ZoneEditor;
use crate::state::{Ctx, PageOptions, ResolverChoice};

/// The card of `name`, wired to the page's state and actions.
fn domain_card(ctx: Ctx, name: String) -> impl IntoView {
    let key = StoredValue::new(name.clone());
    view! {
        <DomainCard
            name=name
            domain=Memo::new(move |_| ctx.domain_view(&key.read_value()))
            on_check=move |again: bool| ctx.check(&key.read_value(), again)
            on_make_primary=move |()| ctx.set_primary(&key.read_value())
            on_keep_as_redirect=move |target: String| ctx.keep_as_redirect(&key.read_value(), &target)
            on_role=move |role: DomainRole| ctx.set_role(&key.read_value(), role)
            on_remove=move |()| {
                // A refusal (the domain is no longer attached: removed meanwhile) is shown at
                // the top of the page, like every other message that outlives its card.
                if let Err(refusal) = ctx.remove(&key.read_value()) {
                    ctx.notice(refusal);
                }
            }
        />
    }
}

/// Project settings > Domains.
#[component]
pub fn DomainsPage(
    /// The storage key and the tick interval.
    options: PageOptions,
) -> impl IntoView {
    let ctx = Ctx::new(&options.storage_key);

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
        <div class="domains-page" data-testid="domains-page" data-mode="demo">
            <h1>"Domains"</h1>
            <p class="demo-label" data-testid="demo-label">
                <strong>"Demo: "</strong>
                "simulated DNS zone, nothing is served. The DNS records, checks and certificates below live in this browser only; a host run with "
                <code>"playground host"</code>
                " serves this page with the real ones."
            </p>
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
            <SettingsForm
                settings=Signal::derive(move || ctx.dash.with(|d| d.settings.clone()))
                resolver=ctx.resolver
                on_change=move |settings: Settings| ctx.update_settings(settings)
                on_resolver=move |choice: ResolverChoice| ctx.set_resolver(choice)
            />
            <AddDomain on_add=move |request: AddRequest| request.finish(ctx.add(&request.name())) />
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
                let now = ctx.now.get();
                ctx.dash.with(|d| d.troubleshooting(now))
            }) />
            <ZoneEditor
                records=Signal::derive(move || ctx.dash.with(|d| d.zone.records().to_vec()))
                over_doh=Signal::derive(move || ctx.resolver.get() == ResolverChoice::Doh)
                on_save=move |(index, record): (Option<usize>, DnsRecord)| ctx.save_record(index, record)
                on_remove=move |index: usize| ctx.remove_record(index)
            />
            <ConfigView
                config=Signal::derive(move || ctx.dash.with(Dashboard::config))
                attached=Signal::derive(move || ctx.dash.with(Dashboard::attached_names))
                also_served=Signal::derive(move || ctx.dash.with(Dashboard::also_served))
            />
        </div>
    }
}
