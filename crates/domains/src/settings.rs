//! The dashboard's inputs: plan, deploy, the platform's names and the timing and resolver
//! settings. The page edits them; the core only reads them.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::doh::DEFAULT_DOH_RESOLVER;
use crate::machine::DEFAULT_CERTIFICATE_DELAY_SECS;
use crate::name::check_normalized;

/// The project's plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Plan {
    /// No custom domains.
    Free,
    /// Paid.
    Pro,
    /// Paid.
    Business,
    /// Paid.
    Enterprise,
}

impl Plan {
    /// Every plan, cheapest first.
    pub const ALL: [Plan; 4] = [Plan::Free, Plan::Pro, Plan::Business, Plan::Enterprise];

    /// Whether the plan includes custom domains (Pro or above).
    #[must_use]
    pub fn allows_custom_domains(self) -> bool {
        self >= Plan::Pro
    }

    /// The plan's name, such as `Pro`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Plan::Free => "Free",
            Plan::Pro => "Pro",
            Plan::Business => "Business",
            Plan::Enterprise => "Enterprise",
        }
    }
}

impl fmt::Display for Plan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The settings the dashboard works with.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Settings {
    /// The project's name, the first label of its default address.
    pub project: String,
    /// The hosting platform's domain, such as `docs-host.dev`.
    pub platform_domain: String,
    /// The host name custom domains point their CNAME (or ALIAS) at.
    pub cname_target: String,
    /// The project's plan.
    pub plan: Plan,
    /// Whether the project has a successful deploy.
    pub deploy_succeeded: bool,
    /// Seconds from verification to the certificate in the simulation.
    pub certificate_delay_secs: u64,
    /// Base URL of the DNS-over-HTTPS JSON resolver.
    pub doh_resolver: String,
    /// The certificate authority's CAA domain, such as `letsencrypt.org`.
    pub certificate_authority: String,
}

impl Settings {
    /// Settings for the offline demo: project `petstore` on `docs-host.dev`, Pro plan, deployed.
    #[must_use]
    pub fn example() -> Settings {
        Settings {
            project: "petstore".to_owned(),
            platform_domain: "docs-host.dev".to_owned(),
            cname_target: "cname.docs-host.dev".to_owned(),
            plan: Plan::Pro,
            deploy_succeeded: true,
            certificate_delay_secs: DEFAULT_CERTIFICATE_DELAY_SECS,
            doh_resolver: DEFAULT_DOH_RESOLVER.to_owned(),
            certificate_authority: "letsencrypt.org".to_owned(),
        }
    }

    /// The default address `{project}.{platform domain}`.
    #[must_use]
    pub fn default_address(&self) -> String {
        format!("{}.{}", self.project, self.platform_domain)
    }

    /// Checks the settings: the project name is one DNS label, the platform domain and CNAME
    /// target are normalised host names, the resolver is an https URL, the authority is named.
    ///
    /// # Errors
    /// What is wrong, naming the setting.
    pub fn check(&self) -> Result<(), String> {
        let label_ok = !self.project.is_empty()
            && self.project.len() <= 63
            && self.project.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
            && !self.project.starts_with('-')
            && !self.project.ends_with('-');
        if !label_ok {
            return Err(format!(
                "the project name \u{201c}{}\u{201d} must be 1 to 63 lower-case letters, digits or inner hyphens.",
                self.project
            ));
        }
        check_normalized(&self.platform_domain).map_err(|e| {
            format!("the platform domain \u{201c}{}\u{201d} is not valid: {e}", self.platform_domain)
        })?;
        check_normalized(&self.cname_target).map_err(|e| {
            format!("the CNAME target \u{201c}{}\u{201d} is not valid: {e}", self.cname_target)
        })?;
        check_normalized(&self.default_address())
            .map_err(|e| format!("the default address is not valid: {e}"))?;
        if !self.doh_resolver.starts_with("https://") || self.doh_resolver.len() <= "https://".len() {
            return Err(format!(
                "the DNS-over-HTTPS resolver \u{201c}{}\u{201d} must be an https:// URL.",
                self.doh_resolver
            ));
        }
        if self.certificate_authority.trim().is_empty() {
            return Err("the certificate authority is empty.".to_owned());
        }
        Ok(())
    }
}
