//! The four troubleshooting answers of spec part 7, reachable at any time, each with the
//! domains its symptom can apply to now.

use crate::dashboard::Dashboard;
use crate::machine::{CERTIFICATE_TROUBLESHOOT_AFTER_SECS, DomainState};

/// Which of the four symptoms an answer is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Symptom {
    /// Verification keeps failing.
    VerificationFails,
    /// The SSL certificate does not appear after 30 minutes.
    NoCertificate,
    /// The browser reports a private-connection warning.
    PrivateConnectionWarning,
    /// The domain works but redirects break.
    RedirectsBreak,
}

impl Symptom {
    /// The four, in the spec's order.
    pub const ALL: [Symptom; 4] = [
        Symptom::VerificationFails,
        Symptom::NoCertificate,
        Symptom::PrivateConnectionWarning,
        Symptom::RedirectsBreak,
    ];

    /// The symptom as the owner sees it.
    #[must_use]
    pub fn title(self) -> &'static str {
        match self {
            Symptom::VerificationFails => "Verification keeps failing",
            Symptom::NoCertificate => "The SSL certificate does not appear after 30 minutes",
            Symptom::PrivateConnectionWarning => "The browser reports a private-connection warning",
            Symptom::RedirectsBreak => "The domain works but redirects break",
        }
    }

    /// A short name for tests and the page's `data-symptom`.
    #[must_use]
    pub fn key(self) -> &'static str {
        match self {
            Symptom::VerificationFails => "verification",
            Symptom::NoCertificate => "certificate",
            Symptom::PrivateConnectionWarning => "private-connection",
            Symptom::RedirectsBreak => "redirects",
        }
    }
}

/// One answer: the cause and remedy, and where the symptom can apply now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Trouble {
    /// The symptom.
    pub symptom: Symptom,
    /// Cause and remedy, in words.
    pub answer: String,
    /// Where it can apply now, one line per domain (what to check there); empty when nothing
    /// attached can show it.
    pub applies_to: Vec<String>,
}

impl Dashboard {
    /// The four troubleshooting answers at `now`, each with the domains its symptom can apply
    /// to: domains waiting for their DNS record (verification), waiting for a certificate (the
    /// certificate, with how long; a private-connection warning too), serving over HTTPS (a
    /// private-connection warning), and the redirect sources of the configuration (redirects).
    #[must_use]
    pub fn troubleshooting(&self, now: u64) -> Vec<Trouble> {
        let authority = &self.settings.certificate_authority;
        let mut waiting_dns = Vec::new();
        let mut waiting_certificate = Vec::new();
        let mut https = Vec::new();
        for d in &self.domains {
            if matches!(d.state, DomainState::Added { .. }) {
                waiting_dns.push(format!("{}: not verified yet", d.name));
            } else if let Some(verified_at) = d.state.issuing_since() {
                let overdue = now >= verified_at.saturating_add(CERTIFICATE_TROUBLESHOOT_AFTER_SECS);
                let waited = now.saturating_sub(verified_at).div_ceil(60);
                waiting_certificate.push(format!(
                    "{}: verified {waited} min ago{}",
                    d.name,
                    if overdue { ", overdue" } else { "" }
                ));
                let serving = if d.state.serves() { ", serving with its current one" } else { "" };
                https.push(format!("https://{}/ (certificate being issued{serving})", d.name));
            } else if d.state.serves() {
                https.push(format!("https://{}/", d.name));
            }
        }
        let redirects: Vec<String> = self
            .config()
            .domains
            .redirects
            .iter()
            .map(|r| format!("{} \u{2192} {}: curl -I https://{}/", r.from, r.to, r.from))
            .collect();
        vec![
            Trouble {
                symptom: Symptom::VerificationFails,
                answer: "A conflicting DNS record of the same name (any other record beside a CNAME blocks it; at an apex, an A or AAAA record blocks the ALIAS), or a value that differs from the one shown on the domain's card. Correct the record at your DNS provider, then select Verify; DNS changes can take up to 48 hours to propagate.".to_owned(),
                applies_to: waiting_dns,
            },
            Trouble {
                symptom: Symptom::NoCertificate,
                answer: format!("Confirm that the domain still verifies; check that CAA records at your DNS provider do not block the certificate authority (a CAA record 0 issue \"{authority}\" allows it); then use Re-verify to trigger a fresh attempt."),
                applies_to: waiting_certificate,
            },
            Trouble {
                symptom: Symptom::PrivateConnectionWarning,
                answer: "The certificate is not provisioned yet, or the browser holds an old one: wait a few minutes and retry in a private window.".to_owned(),
                applies_to: https,
            },
            Trouble {
                symptom: Symptom::RedirectsBreak,
                answer: "Browsers cache redirects (and redirect chains) aggressively: test in a private window, or with a HEAD request that ignores the local cache, such as curl -I.".to_owned(),
                applies_to: redirects,
            },
        ]
    }
}
