//! The demo's backend: the page over the core [`Dashboard`] and its simulated zone
//! ([`Ctx`]), with the demo's label, its settings and its zone. Time passes on a timer and
//! every change is saved.

use leptos::prelude::*;
use playground_domains::{Dashboard, DnsRecord, DomainConfig, Settings, Trouble};

use super::add_domain::AddRequest;
use super::settings::SettingsForm;
use super::zone::ZoneEditor;
use crate::backend::{CardSend, DomainsBackend};
use crate::state::{Ctx, ResolverChoice};
use crate::view::DomainView;

impl DomainsBackend for Ctx {
    const MODE: &'static str = "demo";

    fn run(self) {
        // Saves after every change (and once at start, which replaces an unreadable value).
        Effect::new(move |_| {
            self.dash.track();
            self.save();
        });
        self.tick();
        if let Ok(handle) = set_interval_with_handle(move || self.tick(), self.tick_every()) {
            on_cleanup(move || handle.clear());
        }
    }

    fn label(self) -> AnyView {
        view! {
            <p class="demo-label" data-testid="demo-label">
                <strong>"Demo: "</strong>
                "simulated DNS zone, nothing is served. The DNS records, checks and certificates below live in this browser only; a host run with "
                <code>"playground host"</code>
                " serves this page with the real ones."
            </p>
        }
        .into_any()
    }

    fn notices(self) -> RwSignal<Vec<String>> {
        self.notices
    }

    fn published(self) -> AnyView {
        let published = move || self.dash.with(|d| d.published_address());
        let is_default = move || self.dash.with(|d| d.published_address() == d.default_address());
        view! {
            <p class="published" data-testid="published">
                "The project is published at "
                <strong data-testid="published-address">{published}</strong>
                {move || if is_default() { " (the default address)." } else { "." }}
            </p>
        }
        .into_any()
    }

    fn settings(self) -> AnyView {
        view! {
            <SettingsForm
                settings=Signal::derive(move || self.dash.with(|d| d.settings.clone()))
                resolver=self.resolver
                on_change=move |settings: Settings| self.update_settings(settings)
                on_resolver=move |choice: ResolverChoice| self.set_resolver(choice)
            />
        }
        .into_any()
    }

    fn zone(self) -> AnyView {
        view! {
            <ZoneEditor
                records=Signal::derive(move || self.dash.with(|d| d.zone.records().to_vec()))
                over_doh=Signal::derive(move || self.resolver.get() == ResolverChoice::Doh)
                on_save=move |(index, record): (Option<usize>, DnsRecord)| self.save_record(index, record)
                on_remove=move |index: usize| self.remove_record(index)
            />
        }
        .into_any()
    }

    async fn add_domain(self, request: AddRequest) {
        request.finish(self.add(&request.name()));
    }

    fn announcement(self) -> RwSignal<String> {
        self.announcement
    }

    fn domain_names(self) -> Vec<String> {
        self.dash.with(|d| d.domains.iter().map(|x| x.name.clone()).collect())
    }

    fn card(self, name: &str) -> DomainView {
        self.domain_view(name)
    }

    async fn send(self, name: String, send: CardSend) {
        match send {
            CardSend::Check { again } => self.check(&name, again).await,
            CardSend::MakePrimary => self.set_primary(&name),
            CardSend::KeepAsRedirect(target) => self.keep_as_redirect(&name, &target),
            CardSend::Role(role) => self.set_role(&name, role),
            CardSend::Remove => {
                // A refusal (the domain is no longer attached: removed meanwhile) is shown at
                // the top of the page, like every other message that outlives its card.
                if let Err(refusal) = self.remove(&name) {
                    self.notice(refusal);
                }
            }
        }
    }

    fn troubles(self) -> Vec<Trouble> {
        let now = self.now.get();
        self.dash.with(|d| d.troubleshooting(now))
    }

    fn config(self) -> DomainConfig {
        self.dash.with(Dashboard::config)
    }

    fn attached(self) -> Vec<String> {
        self.dash.with(Dashboard::attached_names)
    }

    fn also_served(self) -> Vec<String> {
        self.dash.with(Dashboard::also_served)
    }
}
