//! The page's state around the core [`Dashboard`]: the signals, the chosen resolver, the last
//! result of each domain's check, and the actions (each reads the clock, calls the core, lets
//! time pass with `tick`, and says what happened).

use std::collections::HashMap;
use std::time::Duration;

use leptos::prelude::*;
use playground_domains::{
    Dashboard, DnsRecord, DomainRole, DomainState, Event, Outcome, RecordKind, RecordSet, Settings, doh,
};

use crate::browser;
pub use crate::view::DomainView;

/// The localStorage key of the saved dashboard (`Dashboard::to_json`).
pub const STORAGE_KEY: &str = "playground/domains/v1";

/// Where an unreadable saved value is kept before the page starts fresh: the key plus this.
pub const UNREADABLE_SUFFIX: &str = "/unreadable";

/// Where the resolver choice is saved: the key plus this.
pub const RESOLVER_SUFFIX: &str = "/resolver";

/// How the page is mounted.
#[derive(Debug, Clone)]
pub struct PageOptions {
    /// The localStorage key of the saved dashboard.
    pub storage_key: String,
    /// How often time passes on its own (certificates issue after their delay).
    pub tick_every: Duration,
}

impl Default for PageOptions {
    fn default() -> PageOptions {
        PageOptions { storage_key: STORAGE_KEY.to_owned(), tick_every: Duration::from_secs(5) }
    }
}

/// Where DNS answers come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResolverChoice {
    /// The simulated zone edited on the page (offline; the default).
    Simulated,
    /// DNS-over-HTTPS with the resolver URL of the settings.
    Doh,
}

impl ResolverChoice {
    /// The saved form: `simulated` or `doh`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            ResolverChoice::Simulated => "simulated",
            ResolverChoice::Doh => "doh",
        }
    }

    /// Reads the saved form; anything else is the simulated zone.
    #[must_use]
    pub fn parse(text: &str) -> ResolverChoice {
        if text == "doh" { ResolverChoice::Doh } else { ResolverChoice::Simulated }
    }
}

/// The page's state (every field is a cheap handle). The page holds it and hands each
/// section only the signals and callbacks it needs.
#[derive(Debug, Clone, Copy)]
pub struct Ctx {
    /// The core dashboard: settings, domains, primary, simulated zone.
    pub dash: RwSignal<Dashboard>,
    /// The time (seconds) as of the last tick or action.
    pub now: RwSignal<u64>,
    /// Where DNS answers come from.
    pub resolver: RwSignal<ResolverChoice>,
    /// The DNS-over-HTTPS answers of each domain's last check (verification and CAA).
    pub doh_answers: RwSignal<HashMap<String, RecordSet>>,
    /// The last outcome of each domain's actions.
    pub outcomes: RwSignal<HashMap<String, Outcome>>,
    /// The domain whose DNS-over-HTTPS check is running.
    pub checking: RwSignal<Option<String>>,
    /// Page-wide notices (storage problems, a refused removal).
    pub notices: RwSignal<Vec<String>>,
    /// What happened to a domain that is no longer listed (its removal).
    pub announcement: RwSignal<String>,
    key: StoredValue<String>,
    tick_every: Duration,
}

/// Reads the saved dashboard under `key`: nothing saved gives the example settings; an
/// unreadable value is kept under `key` + [`UNREADABLE_SUFFIX`] and gives a fresh start with a
/// notice saying why.
#[must_use]
pub fn load_dashboard(key: &str) -> (Dashboard, Option<String>) {
    let fresh = || Dashboard::new(Settings::example());
    match browser::load(key) {
        Err(message) => (fresh(), Some(message)),
        Ok(None) => (fresh(), None),
        Ok(Some(text)) => match Dashboard::from_json(&text) {
            Ok(dashboard) => (dashboard, None),
            Err(e) => {
                let backup = format!("{key}{UNREADABLE_SUFFIX}");
                let kept = if browser::save(&backup, &text).is_ok() {
                    format!(
                        " A copy of the unreadable value is kept under the localStorage key \u{201c}{backup}\u{201d}."
                    )
                } else {
                    String::new()
                };
                (fresh(), Some(format!("{e} The page started fresh with the example settings.{kept}")))
            }
        },
    }
}

impl Ctx {
    /// Loads the state saved under the options' key and makes the signals.
    #[must_use]
    pub fn new(options: &PageOptions) -> Ctx {
        let key = options.storage_key.as_str();
        let (dashboard, notice) = load_dashboard(key);
        let resolver = browser::load(&format!("{key}{RESOLVER_SUFFIX}"))
            .ok()
            .flatten()
            .map_or(ResolverChoice::Simulated, |s| ResolverChoice::parse(&s));
        Ctx {
            dash: RwSignal::new(dashboard),
            now: RwSignal::new(browser::now_secs()),
            resolver: RwSignal::new(resolver),
            doh_answers: RwSignal::new(HashMap::new()),
            outcomes: RwSignal::new(HashMap::new()),
            checking: RwSignal::new(None),
            notices: RwSignal::new(notice.into_iter().collect()),
            announcement: RwSignal::new(String::new()),
            key: StoredValue::new(key.to_owned()),
            tick_every: options.tick_every,
        }
    }

    /// How often time passes on its own.
    #[must_use]
    pub fn tick_every(&self) -> Duration {
        self.tick_every
    }

    /// Saves the dashboard (called by an effect whenever it changes).
    pub fn save(&self) {
        let json = self.dash.with(Dashboard::to_json);
        if let Err(message) = browser::save(&self.key.get_value(), &json) {
            self.notice(message);
        }
    }

    /// Adds a page-wide notice unless it is already shown.
    pub fn notice(&self, message: String) {
        if !self.notices.with_untracked(|n| n.contains(&message)) {
            self.notices.update(|n| n.push(message));
        }
    }

    /// Chooses the resolver and saves the choice.
    pub fn set_resolver(&self, choice: ResolverChoice) {
        self.resolver.set(choice);
        if let Err(message) =
            browser::save(&format!("{}{RESOLVER_SUFFIX}", self.key.get_value()), choice.as_str())
        {
            self.notice(message);
        }
    }

    fn clock(&self) -> u64 {
        let now = browser::now_secs();
        self.now.set(now);
        now
    }

    /// The records DNS questions are answered from: the simulated zone, or the collected
    /// DNS-over-HTTPS answers.
    #[must_use]
    pub fn records(&self) -> RecordSet {
        match self.resolver.get() {
            ResolverChoice::Simulated => RecordSet(self.dash.with(|d| d.zone.records().to_vec())),
            ResolverChoice::Doh => {
                let mut all: Vec<DnsRecord> = Vec::new();
                self.doh_answers.with(|answers| {
                    for set in answers.values() {
                        for r in &set.0 {
                            if !all.contains(r) {
                                all.push(r.clone());
                            }
                        }
                    }
                });
                RecordSet(all)
            }
        }
    }

    /// What the card of `name` shows now.
    #[must_use]
    pub fn domain_view(&self, name: &str) -> DomainView {
        let records = self.records();
        let now = self.now.get();
        let checking = self.checking.with(|c| c.as_deref() == Some(name));
        let outcome = self.outcomes.with(|o| o.get(name).cloned());
        self.dash.with(|d| DomainView {
            state: d.domain(name).map_or(DomainState::None, |x| x.state),
            instruction: d.instructions(name).ok(),
            primary: d.published_address() == name,
            role: d.domain(name).map_or(DomainRole::Redirect, |x| x.role),
            checking,
            checking_note: "Asking the DNS-over-HTTPS resolver\u{2026}",
            outcome,
            now,
            certificate: d.certificate(name, now, &records),
            authority: d.settings.certificate_authority.clone(),
            removal: d.removal_warning(name),
            issue_error: None,
        })
    }

    fn set_outcome(&self, name: &str, outcome: Outcome) {
        self.outcomes.update(|o| {
            o.insert(name.to_owned(), outcome);
        });
    }

    /// Lets time pass: verified domains whose certificate is due go live.
    pub fn tick(&self) {
        let now = self.clock();
        let records = untrack(|| self.records());
        let mut dashboard = self.dash.get_untracked();
        let issued = dashboard.tick(now, &records);
        if !issued.is_empty() {
            self.dash.set(dashboard);
            for name in issued {
                let outcome = Outcome::done(&Event::CertificateIssued { name: name.clone() });
                self.set_outcome(&name, outcome);
            }
        }
    }

    /// Add domain: attaches `input` or says why not.
    ///
    /// # Errors
    /// The refusal (plan, deploy, name, already attached), in words.
    pub fn add(&self, input: &str) -> Result<String, String> {
        let now = self.clock();
        let mut dashboard = self.dash.get_untracked();
        let to_ascii = |name: &str| browser::to_ascii(name);
        let instruction = dashboard.add(input, now, &to_ascii).map_err(|e| e.to_string())?;
        let name = instruction.domain.clone();
        self.dash.set(dashboard);
        self.outcomes.update(|o| {
            o.remove(&name);
        });
        self.announcement.set(String::new());
        Ok(Event::Added { name, kind: instruction.kind }.to_string())
    }

    /// Verify (`again` false) or Re-verify (`again` true) `name`: against the simulated zone
    /// at once, or after fetching the DNS-over-HTTPS answers.
    pub async fn check(&self, name: &str, again: bool) {
        match self.resolver.get_untracked() {
            ResolverChoice::Simulated => {
                let records = RecordSet(self.dash.with_untracked(|d| d.zone.records().to_vec()));
                self.finish_check(name, again, &records);
            }
            ResolverChoice::Doh => self.check_over_doh(name, again).await,
        }
    }

    async fn check_over_doh(&self, name: &str, again: bool) {
        let Ok(instruction) = self.dash.with_untracked(|d| d.instructions(name)) else {
            return;
        };
        let resolver = self.dash.with_untracked(|d| d.settings.doh_resolver.clone());
        let mut questions = doh::verification_queries(&instruction);
        questions.extend(doh::caa_queries(name).into_iter().map(|n| (n, RecordKind::Caa)));
        self.checking.set(Some(name.to_owned()));
        let answers = crate::doh_fetch::collect(&resolver, &questions).await;
        self.checking.set(None);
        match answers {
            Ok(records) => {
                self.doh_answers.update(|a| {
                    a.insert(name.to_owned(), records);
                });
                let records = untrack(|| self.records());
                self.finish_check(name, again, &records);
            }
            Err(message) => self.set_outcome(name, Outcome::failed(message)),
        }
    }

    fn finish_check(&self, name: &str, again: bool, records: &RecordSet) {
        let now = self.clock();
        let mut dashboard = self.dash.get_untracked();
        let result =
            if again { dashboard.reverify(name, now, records) } else { dashboard.verify(name, now, records) };
        let outcome = match result {
            Ok(state) => {
                let live = dashboard.tick(now, records).iter().any(|n| n == name);
                self.dash.set(dashboard);
                let name = name.to_owned();
                if matches!(state, DomainState::Reverifying { .. }) && !live {
                    Outcome::done(&Event::Reverified { name })
                } else {
                    Outcome::done(&Event::Verified { name, again, live })
                }
            }
            Err(refusal) => Outcome::refused(&refusal),
        };
        self.set_outcome(name, outcome);
    }

    /// Makes `name` the primary.
    pub fn set_primary(&self, name: &str) {
        let mut dashboard = self.dash.get_untracked();
        let outcome = match dashboard.set_primary(name) {
            Ok(()) => {
                self.dash.set(dashboard);
                Outcome::done(&Event::MadePrimary { name: name.to_owned() })
            }
            Err(refusal) => Outcome::refused(&refusal),
        };
        self.set_outcome(name, outcome);
        self.tick();
    }

    /// Sets what `name` does while it serves and is not the primary.
    pub fn set_role(&self, name: &str, role: DomainRole) {
        let mut dashboard = self.dash.get_untracked();
        let outcome = match dashboard.set_role(name, role) {
            Ok(()) => {
                let primary = dashboard.published_address();
                self.dash.set(dashboard);
                Outcome::done(&Event::RoleChanged { name: name.to_owned(), role, primary })
            }
            Err(refusal) => Outcome::refused(&refusal),
        };
        self.set_outcome(name, outcome);
    }

    /// The alternative to removing a live domain: keep it attached as a 301 redirect to
    /// `target` (made the primary first if `name` was the published one).
    pub fn keep_as_redirect(&self, name: &str, target: &str) {
        let mut dashboard = self.dash.get_untracked();
        if dashboard.published_address() == name
            && let Err(refusal) = dashboard.set_primary(target)
        {
            self.set_outcome(name, Outcome::refused(&refusal));
            return;
        }
        // Kept as a redirect, it redirects even if it was set to serve.
        let _ = dashboard.set_role(name, DomainRole::Redirect);
        self.dash.set(dashboard);
        let event = Event::KeptAsRedirect { name: name.to_owned(), target: target.to_owned() };
        self.set_outcome(name, Outcome::done(&event));
    }

    /// Remove: detaches `name`.
    ///
    /// # Errors
    /// Not attached, in words.
    pub fn remove(&self, name: &str) -> Result<String, String> {
        let now = self.clock();
        let mut dashboard = self.dash.get_untracked();
        let was_live = dashboard.domain(name).is_some_and(|d| d.state.serves());
        dashboard.remove(name, now).map_err(|e| e.to_string())?;
        let published = dashboard.published_address();
        self.dash.set(dashboard);
        self.outcomes.update(|o| {
            o.remove(name);
        });
        self.doh_answers.update(|a| {
            a.remove(name);
        });
        let message = Event::Removed { name: name.to_owned(), was_live, published }.to_string();
        self.announcement.set(message.clone());
        Ok(message)
    }

    /// Replaces the settings if they are valid with the attached domains.
    ///
    /// # Errors
    /// What is wrong, naming the setting; nothing is changed.
    pub fn update_settings(&self, settings: Settings) -> Result<(), String> {
        let mut candidate = self.dash.get_untracked();
        candidate.settings = settings;
        candidate.check().map_err(|e| format!("Not saved: {e}"))?;
        self.dash.set(candidate);
        self.tick();
        Ok(())
    }

    /// Adds (`index` None) or replaces a record of the simulated zone.
    ///
    /// # Errors
    /// The zone's refusal, in words.
    pub fn save_record(&self, index: Option<usize>, record: DnsRecord) -> Result<DnsRecord, String> {
        let mut dashboard = self.dash.get_untracked();
        let stored = match index {
            None => dashboard.zone.add(record),
            Some(i) => dashboard.zone.update(i, record),
        }
        .map_err(|e| e.to_string())?;
        self.dash.set(dashboard);
        self.tick();
        Ok(stored)
    }

    /// Removes the record at `index` from the simulated zone.
    ///
    /// # Errors
    /// No such record, in words.
    pub fn remove_record(&self, index: usize) -> Result<DnsRecord, String> {
        let mut dashboard = self.dash.get_untracked();
        let removed = dashboard.zone.remove(index).map_err(|e| e.to_string())?;
        self.dash.set(dashboard);
        Ok(removed)
    }
}
