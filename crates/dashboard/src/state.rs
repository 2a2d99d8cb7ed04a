//! The page's state around the core [`Dashboard`]: the signals, the chosen resolver, the last
//! result of each domain's check, and the actions (each reads the clock, calls the core, lets
//! time pass with `tick`, and says what happened).

use std::collections::HashMap;
use std::time::Duration;

use leptos::prelude::*;
use petstore_core::domains::{
    Dashboard, DnsRecord, DomainState, RecordKind, RecordSet, Refusal, Settings, VerifyFailure, doh,
};

use crate::browser;

/// The localStorage key of the saved dashboard (`Dashboard::to_json`).
pub const STORAGE_KEY: &str = "petstore-playground/domains/v1";

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

/// What the last action on a domain gave, shown on its card.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// Whether it went through.
    pub ok: bool,
    /// The sentence to show.
    pub message: String,
    /// For a record that points elsewhere: (the value shown, the value found).
    pub differs: Option<(String, String)>,
}

impl Outcome {
    fn ok(message: String) -> Outcome {
        Outcome { ok: true, message, differs: None }
    }

    fn refused(refusal: &Refusal) -> Outcome {
        let differs = match refusal {
            Refusal::VerificationFailed {
                cause: VerifyFailure::ValueDiffers { expected, found, .. },
                ..
            } => Some((expected.clone(), found.clone())),
            _ => None,
        };
        Outcome { ok: false, message: refusal.to_string(), differs }
    }
}

/// The page's state, shared through context (every field is a cheap handle).
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
    /// Page-wide notices (storage problems).
    pub notices: RwSignal<Vec<String>>,
    /// What happened to a domain that is no longer listed (its removal).
    pub announcement: RwSignal<String>,
    key: StoredValue<String>,
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
    /// Loads the saved state under `key` and makes the signals.
    #[must_use]
    pub fn new(key: &str) -> Ctx {
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
        }
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
                let message = format!(
                    "The SSL certificate of {name} has been issued: {name} is live and serves the project over HTTPS."
                );
                self.set_outcome(&name, Outcome::ok(message));
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
        Ok(format!(
            "{name} was added. Create the {} record shown below at your DNS provider, then select Verify.",
            instruction.kind.label()
        ))
    }

    /// Verify (`again` false) or Re-verify (`again` true) `name`: against the simulated zone
    /// at once, or after fetching the DNS-over-HTTPS answers.
    pub fn check(&self, name: &str, again: bool) {
        match self.resolver.get_untracked() {
            ResolverChoice::Simulated => {
                let records = RecordSet(self.dash.with_untracked(|d| d.zone.records().to_vec()));
                self.finish_check(name, again, &records);
            }
            ResolverChoice::Doh => {
                let ctx = *self;
                let name = name.to_owned();
                leptos::task::spawn_local(async move { ctx.check_over_doh(&name, again).await });
            }
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
            Err(message) => self.set_outcome(name, Outcome { ok: false, message, differs: None }),
        }
    }

    fn finish_check(&self, name: &str, again: bool, records: &RecordSet) {
        let now = self.clock();
        let mut dashboard = self.dash.get_untracked();
        let result =
            if again { dashboard.reverify(name, now, records) } else { dashboard.verify(name, now, records) };
        let outcome = match result {
            Ok(_) => {
                let issued = dashboard.tick(now, records);
                let live = issued.iter().any(|n| n == name);
                let first = if again {
                    format!("A fresh verification of {name} passed: its DNS record matches.")
                } else {
                    format!("{name} is verified: its DNS record matches.")
                };
                let rest = if live {
                    format!(
                        " Its SSL certificate has been issued: {name} is live and serves the project over HTTPS."
                    )
                } else {
                    " Its SSL certificate is now issued automatically, usually within a couple of minutes; there is nothing to install or renew.".to_owned()
                };
                self.dash.set(dashboard);
                Outcome::ok(format!("{first}{rest}"))
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
                Outcome::ok(format!(
                    "{name} is now the primary domain; every other domain redirects to it with 301."
                ))
            }
            Err(refusal) => Outcome::refused(&refusal),
        };
        self.set_outcome(name, outcome);
        self.tick();
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
        self.dash.set(dashboard);
        self.set_outcome(
            name,
            Outcome::ok(format!(
                "{name} stays attached and now redirects to {target} with 301, so inbound links keep working (see the domain configuration). Remove it later, once the links have moved."
            )),
        );
    }

    /// Remove: detaches `name`.
    ///
    /// # Errors
    /// Not attached, in words.
    pub fn remove(&self, name: &str) -> Result<String, String> {
        let now = self.clock();
        let mut dashboard = self.dash.get_untracked();
        let was_live = matches!(dashboard.domain(name).map(|d| d.state), Some(DomainState::Live { .. }));
        dashboard.remove(name, now).map_err(|e| e.to_string())?;
        let published = dashboard.published_address();
        self.dash.set(dashboard);
        self.outcomes.update(|o| {
            o.remove(name);
        });
        self.doh_answers.update(|a| {
            a.remove(name);
        });
        let message = if was_live {
            format!(
                "{name} was removed and no longer serves the project. The project is published at {published}."
            )
        } else {
            format!("{name} was removed. You can delete its DNS record at your DNS provider.")
        };
        self.announcement.set(message.clone());
        Ok(message)
    }

    /// Changes the settings if the result is valid with the attached domains.
    ///
    /// # Errors
    /// What is wrong, naming the setting; nothing is changed.
    pub fn update_settings(&self, change: impl FnOnce(&mut Settings)) -> Result<(), String> {
        let mut candidate = self.dash.get_untracked();
        change(&mut candidate.settings);
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
