//! The dashboard's whole state (settings, domains with their states, primary, simulated zone),
//! its actions, and its versioned JSON form for `localStorage`.

use serde::{Deserialize, Serialize};

use crate::dns::{DnsInstruction, Resolver, SimulatedZone, caa_blocking, instructions, verify};
use crate::machine::{
    Action, CertificateStatus, DomainState, Refusal, certificate_due, certificate_status, step,
};
use crate::name::{ToAscii, check_normalized, is_under, validate_new_domain};
use crate::redirects::{DomainConfig, build_config};
use crate::settings::Settings;

/// Version of the saved JSON; another version is refused.
pub const STATE_VERSION: u64 = 1;

/// One attached custom domain.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Domain {
    /// The normalised (ASCII, lower-case) name.
    pub name: String,
    /// What it does while it serves and is not the primary (saved states from before the
    /// choice existed read as [`DomainRole::Redirect`]).
    #[serde(default)]
    pub role: DomainRole,
    /// Its lifecycle state with times.
    #[serde(flatten)]
    pub state: DomainState,
}

/// What a domain that serves does when it is not the primary. The spec allows several domains
/// per project "to redirect old URLs or serve several regions".
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DomainRole {
    /// 301-redirects to the primary (an old address).
    #[default]
    Redirect,
    /// Serves the project itself (a region, an audience of its own); not in `redirects`.
    Serve,
}

/// What to show before removing a live domain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RemovalWarning {
    /// The sentence to show.
    pub message: String,
    /// A live domain to offer as a 301 target first, if there is one.
    pub redirect_to: Option<String>,
}

/// Why saved state was refused; the page starts fresh and shows this.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StateError {
    /// Not JSON, or not the dashboard's shape.
    #[error("The saved domain settings could not be read: {0}")]
    Malformed(String),
    /// Written by another version.
    #[error("The saved domain settings have version {found}; this page reads version {expected}.")]
    UnsupportedVersion {
        /// Version found.
        found: u64,
        /// Version expected.
        expected: u64,
    },
    /// Well-formed but contradicts itself.
    #[error("The saved domain settings are inconsistent: {0}")]
    Inconsistent(String),
}

/// The custom-domain dashboard of one project.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Dashboard {
    /// The inputs.
    pub settings: Settings,
    /// Attached domains in the order they were added (never in state `none`).
    pub domains: Vec<Domain>,
    /// The chosen primary (chosen while live; it stays chosen through a re-verification);
    /// `None` means the first live domain.
    pub primary: Option<String>,
    /// The simulated DNS zone of the offline demo.
    pub zone: SimulatedZone,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Saved {
    version: u64,
    dashboard: Dashboard,
}

impl Dashboard {
    /// A dashboard with no domains and an empty zone.
    #[must_use]
    pub fn new(settings: Settings) -> Dashboard {
        Dashboard { settings, domains: Vec::new(), primary: None, zone: SimulatedZone::new() }
    }

    /// `{project}.{platform domain}`.
    #[must_use]
    pub fn default_address(&self) -> String {
        self.settings.default_address()
    }

    /// Where the project is served: the primary (or first) live custom domain, else the
    /// default address.
    #[must_use]
    pub fn published_address(&self) -> String {
        self.primary_live().unwrap_or_else(|| self.default_address())
    }

    fn primary_live(&self) -> Option<String> {
        let serves = |n: &str| self.domains.iter().any(|d| d.name == n && d.state.serves());
        match &self.primary {
            Some(p) if serves(p) => Some(p.clone()),
            _ => self.domains.iter().find(|d| d.state.serves()).map(|d| d.name.clone()),
        }
    }

    /// The domain called `name` (normalised), if attached.
    #[must_use]
    pub fn domain(&self, name: &str) -> Option<&Domain> {
        self.domains.iter().find(|d| d.name == name)
    }

    fn state_of(&self, name: &str) -> DomainState {
        self.domain(name).map_or(DomainState::None, |d| d.state)
    }

    fn set_state(&mut self, name: &str, state: DomainState) {
        if state == DomainState::None {
            self.domains.retain(|d| d.name != name);
            if self.primary.as_deref() == Some(name) {
                self.primary = None;
            }
        } else if let Some(d) = self.domains.iter_mut().find(|d| d.name == name) {
            d.state = state;
        } else {
            self.domains.push(Domain { name: name.to_owned(), role: DomainRole::default(), state });
        }
    }

    /// Add domain: checks the plan (Pro or above), the deploy and the name, attaches the
    /// domain in state `added` and returns the DNS record to configure.
    ///
    /// # Errors
    /// The plan, the deploy, or the name's [`crate::NameError`].
    pub fn add(&mut self, input: &str, now: u64, to_ascii: ToAscii<'_>) -> Result<DnsInstruction, Refusal> {
        if !self.settings.plan.allows_custom_domains() {
            return Err(Refusal::PlanRequired { plan: self.settings.plan });
        }
        if !self.settings.deploy_succeeded {
            return Err(Refusal::NotDeployed);
        }
        let attached: Vec<&str> = self.domains.iter().map(|d| d.name.as_str()).collect();
        let name = validate_new_domain(input, to_ascii, &self.settings.platform_domain, &attached)
            .map_err(Refusal::InvalidName)?;
        let next = step(&name, &DomainState::None, Action::Add, now)?;
        self.set_state(&name, next);
        Ok(instructions(&name, &self.settings.cname_target))
    }

    /// The DNS record to configure for an attached domain.
    ///
    /// # Errors
    /// Not attached.
    pub fn instructions(&self, name: &str) -> Result<DnsInstruction, Refusal> {
        self.domain(name)
            .map(|d| instructions(&d.name, &self.settings.cname_target))
            .ok_or_else(|| Refusal::NotAttached { name: name.to_owned() })
    }

    fn check_dns(
        &self,
        name: &str,
        resolver: &dyn Resolver,
    ) -> Result<crate::DnsRecord, crate::VerifyFailure> {
        verify(&instructions(name, &self.settings.cname_target), resolver)
    }

    /// Verify: checks DNS with `resolver` and moves `added` to `verified`.
    ///
    /// # Errors
    /// Not attached, already verified or live, or the verification cause.
    pub fn verify(&mut self, name: &str, now: u64, resolver: &dyn Resolver) -> Result<DomainState, Refusal> {
        let state = self.state_of(name);
        let result = self.check_dns(name, resolver);
        let next = step(name, &state, Action::Verify(result), now)?;
        self.set_state(name, next);
        Ok(next)
    }

    /// Re-verify from any attached state: a fresh attempt; on success the domain is `verified`
    /// again and its certificate is requested anew.
    ///
    /// # Errors
    /// Not attached, or the verification cause (the state is then unchanged).
    pub fn reverify(
        &mut self,
        name: &str,
        now: u64,
        resolver: &dyn Resolver,
    ) -> Result<DomainState, Refusal> {
        let state = self.state_of(name);
        let result = self.check_dns(name, resolver);
        let next = step(name, &state, Action::ReVerify(result), now)?;
        self.set_state(name, next);
        Ok(next)
    }

    /// Lets time pass: every verified domain whose certificate delay has passed and whose CAA
    /// records allow the authority goes live. Returns the names that went live.
    pub fn tick(&mut self, now: u64, resolver: &dyn Resolver) -> Vec<String> {
        let mut issued = Vec::new();
        for i in 0..self.domains.len() {
            let Domain { name, state, .. } = self.domains[i].clone();
            let blocking = caa_blocking(&name, &self.settings.certificate_authority, resolver);
            if certificate_due(&state, now, self.settings.certificate_delay_secs, &blocking)
                && let Ok(next) = step(&name, &state, Action::CertificateIssued, now)
            {
                self.domains[i].state = next;
                issued.push(name);
            }
        }
        issued
    }

    /// The certificate status of a domain at `now` (CAA looked up with `resolver`).
    #[must_use]
    pub fn certificate(&self, name: &str, now: u64, resolver: &dyn Resolver) -> CertificateStatus {
        let blocking = caa_blocking(name, &self.settings.certificate_authority, resolver);
        certificate_status(
            name,
            &self.state_of(name),
            now,
            self.settings.certificate_delay_secs,
            &self.settings.certificate_authority,
            blocking,
        )
    }

    /// What to say before removing `name`: for a live domain, that traffic stops at once, and
    /// another live domain to redirect it to first. `None` when removal stops no traffic.
    #[must_use]
    pub fn removal_warning(&self, name: &str) -> Option<RemovalWarning> {
        if !self.state_of(name).serves() {
            return None;
        }
        let redirect_to = self.primary_live().filter(|p| p != name).or_else(|| {
            self.domains.iter().find(|d| d.name != name && d.state.serves()).map(|d| d.name.clone())
        });
        let message = match &redirect_to {
            Some(target) => format!(
                "Removing {name} stops its traffic immediately and breaks inbound links. Set up a 301 redirect from {name} to {target} first to keep them working."
            ),
            None => format!(
                "Removing {name} stops its traffic immediately and breaks inbound links; the project will be served at {} only. Add another domain and a 301 redirect first to keep them working.",
                self.default_address()
            ),
        };
        Some(RemovalWarning { message, redirect_to })
    }

    /// Remove: detaches the domain (from any attached state).
    ///
    /// # Errors
    /// Not attached.
    pub fn remove(&mut self, name: &str, now: u64) -> Result<(), Refusal> {
        let next = step(name, &self.state_of(name), Action::Remove, now)?;
        self.set_state(name, next);
        Ok(())
    }

    /// Chooses what `name` does while it serves and is not the primary: redirect to the
    /// primary with 301, or serve the project itself.
    ///
    /// # Errors
    /// Not attached.
    pub fn set_role(&mut self, name: &str, role: DomainRole) -> Result<(), Refusal> {
        let domain = self
            .domains
            .iter_mut()
            .find(|d| d.name == name)
            .ok_or_else(|| Refusal::NotAttached { name: name.to_owned() })?;
        domain.role = role;
        Ok(())
    }

    /// Makes a live domain the primary.
    ///
    /// # Errors
    /// Not attached, or not live.
    pub fn set_primary(&mut self, name: &str) -> Result<(), Refusal> {
        match self.state_of(name) {
            DomainState::None => Err(Refusal::NotAttached { name: name.to_owned() }),
            DomainState::Live { .. } | DomainState::Reverifying { .. } => {
                self.primary = Some(name.to_owned());
                Ok(())
            }
            _ => Err(Refusal::NotLive { name: name.to_owned() }),
        }
    }

    /// Every address the project answers to: the attached domains and the default address
    /// (what [`crate::validate_config`] takes as `attached`).
    #[must_use]
    pub fn attached_names(&self) -> Vec<String> {
        let mut names: Vec<String> = self.domains.iter().map(|d| d.name.clone()).collect();
        names.push(self.default_address());
        names
    }

    /// The domain configuration: the published address is primary and every other domain
    /// that serves (live, or live and re-verifying) redirects to it with 301, unless it is set
    /// to serve the project itself ([`DomainRole::Serve`]: it is then in neither part). A
    /// domain still waiting for its DNS record or its first certificate serves nothing, so it
    /// redirects nothing either.
    #[must_use]
    pub fn config(&self) -> DomainConfig {
        let primary = self.published_address();
        let others: Vec<&str> = self
            .domains
            .iter()
            .filter(|d| d.state.serves() && d.role == DomainRole::Redirect)
            .map(|d| d.name.as_str())
            .collect();
        build_config(&primary, &others)
    }

    /// The domains that serve the project themselves besides the primary.
    #[must_use]
    pub fn also_served(&self) -> Vec<String> {
        let primary = self.published_address();
        self.domains
            .iter()
            .filter(|d| d.state.serves() && d.role == DomainRole::Serve && d.name != primary)
            .map(|d| d.name.clone())
            .collect()
    }

    /// The saved form: `{"version": 1, "dashboard": {...}}`.
    #[must_use]
    pub fn to_json(&self) -> String {
        let saved = Saved { version: STATE_VERSION, dashboard: self.clone() };
        serde_json::to_string(&saved).unwrap_or_default()
    }

    /// Reads the saved form, refusing corrupt or inconsistent data.
    ///
    /// # Errors
    /// Not the shape, another version, or inconsistent (see [`Dashboard::check`]).
    pub fn from_json(text: &str) -> Result<Dashboard, StateError> {
        let value: serde_json::Value = serde_json::from_str(text)
            .map_err(|e| StateError::Malformed(format!("it is not JSON ({e}).")))?;
        let version = value
            .get("version")
            .and_then(serde_json::Value::as_u64)
            .ok_or_else(|| StateError::Malformed("the version is missing.".to_owned()))?;
        if version != STATE_VERSION {
            return Err(StateError::UnsupportedVersion { found: version, expected: STATE_VERSION });
        }
        let saved: Saved =
            serde_json::from_value(value).map_err(|e| StateError::Malformed(format!("{e}.")))?;
        saved.dashboard.check().map_err(StateError::Inconsistent)?;
        Ok(saved.dashboard)
    }

    /// Checks the invariants: valid settings; each domain normalised, not the platform's,
    /// attached once, never `none`, times in order; the primary attached and verified or live;
    /// every zone
    /// record valid.
    ///
    /// # Errors
    /// The first broken invariant, in words.
    pub fn check(&self) -> Result<(), String> {
        self.settings.check()?;
        let platform = &self.settings.platform_domain;
        for (i, d) in self.domains.iter().enumerate() {
            check_normalized(&d.name)
                .map_err(|e| format!("the domain \u{201c}{}\u{201d} is not valid: {e}", d.name))?;
            if d.name == *platform || is_under(&d.name, platform) {
                return Err(format!("the domain {} is the platform's own domain.", d.name));
            }
            if self.domains[..i].iter().any(|p| p.name == d.name) {
                return Err(format!("the domain {} is listed twice.", d.name));
            }
            if d.state == DomainState::None {
                return Err(format!("the domain {} is listed but not attached.", d.name));
            }
            if !d.state.times_in_order() {
                return Err(format!("the domain {} has its times out of order.", d.name));
            }
        }
        if let Some(p) = &self.primary {
            match self.state_of(p) {
                DomainState::Live { .. } | DomainState::Reverifying { .. } | DomainState::Verified { .. } => {
                }
                DomainState::None => return Err(format!("the primary {p} is not attached.")),
                DomainState::Added { .. } => return Err(format!("the primary {p} was never verified.")),
            }
        }
        self.zone.check().map_err(|e| format!("the DNS zone has a bad record: {e}"))
    }
}
