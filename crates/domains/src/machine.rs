//! The custom-domain lifecycle of spec part 3 as a pure function: a state and an action give
//! the next state or a refusal the owner can read. Time is the `now` argument (seconds).

use serde::{Deserialize, Serialize};

use crate::Plan;
use crate::dns::{DnsRecord, VerifyFailure};
use crate::name::NameError;

/// Wait after verification before the missing certificate gets troubleshooting (30 minutes).
pub const CERTIFICATE_TROUBLESHOOT_AFTER_SECS: u64 = 30 * 60;
/// Default time from verification to the certificate ("usually within a couple of minutes").
pub const DEFAULT_CERTIFICATE_DELAY_SECS: u64 = 2 * 60;
/// Upper bound of DNS propagation (48 hours).
pub const DNS_PROPAGATION_MAX_SECS: u64 = 48 * 3600;

/// Where one domain is in its lifecycle, with the times (seconds) it got there.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "lowercase", rename_all_fields = "camelCase")]
pub enum DomainState {
    /// Not attached.
    None,
    /// Added; the DNS record is shown and waits for Verify.
    Added {
        /// When it was added.
        added_at: u64,
    },
    /// Verified; the certificate is being issued.
    Verified {
        /// When it was added.
        added_at: u64,
        /// When the last successful (re-)verification happened.
        verified_at: u64,
    },
    /// Live, and verified again (Re-verify): it keeps serving with its current certificate
    /// while a fresh one is issued, then it is live again.
    Reverifying {
        /// When it was added.
        added_at: u64,
        /// When the re-verification succeeded.
        verified_at: u64,
        /// When it went live (with the certificate it still serves).
        live_at: u64,
    },
    /// Serving the project over HTTPS.
    Live {
        /// When it was added.
        added_at: u64,
        /// When it was verified.
        verified_at: u64,
        /// When the certificate was issued.
        live_at: u64,
    },
}

impl DomainState {
    /// The state's name: `none`, `added`, `verified`, `reverifying` or `live`.
    #[must_use]
    pub fn label(&self) -> &'static str {
        match self {
            DomainState::None => "none",
            DomainState::Added { .. } => "added",
            DomainState::Verified { .. } => "verified",
            DomainState::Reverifying { .. } => "reverifying",
            DomainState::Live { .. } => "live",
        }
    }

    /// Whether the domain serves the project now: live, or live and re-verifying.
    #[must_use]
    pub fn serves(&self) -> bool {
        matches!(self, DomainState::Live { .. } | DomainState::Reverifying { .. })
    }

    /// When the last successful (re-)verification happened, while a certificate is being
    /// issued (verified or re-verifying).
    #[must_use]
    pub fn issuing_since(&self) -> Option<u64> {
        match *self {
            DomainState::Verified { verified_at, .. } | DomainState::Reverifying { verified_at, .. } => {
                Some(verified_at)
            }
            _ => None,
        }
    }

    fn added_at(&self) -> Option<u64> {
        match *self {
            DomainState::None => None,
            DomainState::Added { added_at }
            | DomainState::Verified { added_at, .. }
            | DomainState::Reverifying { added_at, .. }
            | DomainState::Live { added_at, .. } => Some(added_at),
        }
    }

    /// Whether the times are in order (added <= verified <= live; re-verifying: added <= live
    /// <= verified).
    #[must_use]
    pub fn times_in_order(&self) -> bool {
        match *self {
            DomainState::None | DomainState::Added { .. } => true,
            DomainState::Verified { added_at, verified_at } => added_at <= verified_at,
            DomainState::Live { added_at, verified_at, live_at } => {
                added_at <= verified_at && verified_at <= live_at
            }
            DomainState::Reverifying { added_at, verified_at, live_at } => {
                added_at <= live_at && live_at <= verified_at
            }
        }
    }
}

/// A dashboard action (or, for [`Action::CertificateIssued`], the platform's event).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// Add domain (the name, plan and deploy are checked by the dashboard before).
    Add,
    /// Verify, with the result of checking DNS.
    Verify(Result<DnsRecord, VerifyFailure>),
    /// Re-verify, with the result of checking DNS: a fresh attempt, certificate included.
    ReVerify(Result<DnsRecord, VerifyFailure>),
    /// Certificate issuance completed.
    CertificateIssued,
    /// Remove (menu next to the domain).
    Remove,
}

impl Action {
    /// The action's name as the page labels it.
    #[must_use]
    pub fn label(&self) -> &'static str {
        match self {
            Action::Add => "Add domain",
            Action::Verify(_) => "Verify",
            Action::ReVerify(_) => "Re-verify",
            Action::CertificateIssued => "Certificate issued",
            Action::Remove => "Remove",
        }
    }
}

/// Why an action was refused. The message is for the project owner.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// The Free plan has no custom domains.
    #[error(
        "Custom domains need a paid plan (Pro or above); this project is on the {plan} plan. Upgrade to add a domain."
    )]
    PlanRequired {
        /// The current plan.
        plan: Plan,
    },
    /// No successful deploy yet.
    #[error("Deploy the project successfully before adding a custom domain; there is nothing to serve yet.")]
    NotDeployed,
    /// The name typed is not acceptable.
    #[error("{0}")]
    InvalidName(NameError),
    /// The domain is not in the project's list.
    #[error("{name} is not attached to this project; add it first.")]
    NotAttached {
        /// The domain.
        name: String,
    },
    /// Add on a domain already in the list.
    #[error("{name} is already attached to this project (it is {state}).")]
    AlreadyAdded {
        /// The domain.
        name: String,
        /// Its state label.
        state: &'static str,
    },
    /// Verify on a verified domain.
    #[error(
        "{name} is already verified and its certificate is being issued. Use Re-verify for a fresh attempt."
    )]
    AlreadyVerified {
        /// The domain.
        name: String,
    },
    /// Verify or certificate on a live domain.
    #[error("{name} is already live. Use Re-verify if something looks wrong.")]
    AlreadyLive {
        /// The domain.
        name: String,
    },
    /// The DNS check did not pass.
    #[error("{name} could not be verified. {cause}")]
    VerificationFailed {
        /// The domain.
        name: String,
        /// The cause (spec part 7).
        cause: VerifyFailure,
    },
    /// A certificate for a domain that is not verified.
    #[error("{name} is not verified yet, so no certificate can be issued; verify it first.")]
    NotVerified {
        /// The domain.
        name: String,
    },
    /// Primary must serve traffic.
    #[error("{name} is not live yet; only a live domain can be the primary.")]
    NotLive {
        /// The domain.
        name: String,
    },
}

/// The next state of the domain `name` after `action` at `now`, or why not.
///
/// | from \ action | Add | Verify ok | Re-verify ok | Certificate | Remove |
/// |---|---|---|---|---|---|
/// | none | added | refused | refused | refused | refused |
/// | added | refused | verified | verified | refused | none |
/// | verified | refused | refused | verified (fresh) | live | none |
/// | live | refused | refused | reverifying | refused | none |
/// | reverifying | refused | refused | reverifying (fresh) | live | none |
///
/// A failed (re-)verification is refused with its cause and leaves the state as it was.
/// Re-verify on a live domain is the spec's "verified" with a fresh certificate requested, but
/// the domain keeps serving with the certificate it has meanwhile (`reverifying`): an owner
/// checking a domain that works must not take it offline, nor move the primary away from it.
/// Remove is also allowed before the domain is live (the spec only names live; an owner
/// expects to drop a mistyped domain), and nothing serves traffic then.
///
/// # Errors
/// The [`Refusal`] for the pair.
pub fn step(name: &str, state: &DomainState, action: Action, now: u64) -> Result<DomainState, Refusal> {
    let name_owned = || name.to_owned();
    match (state, action) {
        (DomainState::None, Action::Add) => Ok(DomainState::Added { added_at: now }),
        (s, Action::Add) => Err(Refusal::AlreadyAdded { name: name_owned(), state: s.label() }),
        (DomainState::None, _) => Err(Refusal::NotAttached { name: name_owned() }),
        (_, Action::Verify(Err(cause)) | Action::ReVerify(Err(cause))) => {
            Err(Refusal::VerificationFailed { name: name_owned(), cause })
        }
        (DomainState::Added { added_at }, Action::Verify(Ok(_)) | Action::ReVerify(Ok(_))) => {
            Ok(DomainState::Verified { added_at: *added_at, verified_at: now })
        }
        (DomainState::Verified { .. }, Action::Verify(Ok(_))) => {
            Err(Refusal::AlreadyVerified { name: name_owned() })
        }
        (DomainState::Live { .. } | DomainState::Reverifying { .. }, Action::Verify(Ok(_))) => {
            Err(Refusal::AlreadyLive { name: name_owned() })
        }
        (
            DomainState::Live { added_at, live_at, .. } | DomainState::Reverifying { added_at, live_at, .. },
            Action::ReVerify(Ok(_)),
        ) => Ok(DomainState::Reverifying { added_at: *added_at, verified_at: now, live_at: *live_at }),
        (s, Action::ReVerify(Ok(_))) => {
            Ok(DomainState::Verified { added_at: s.added_at().unwrap_or(now), verified_at: now })
        }
        (
            DomainState::Verified { added_at, verified_at }
            | DomainState::Reverifying { added_at, verified_at, .. },
            Action::CertificateIssued,
        ) => Ok(DomainState::Live { added_at: *added_at, verified_at: *verified_at, live_at: now }),
        (DomainState::Added { .. }, Action::CertificateIssued) => {
            Err(Refusal::NotVerified { name: name_owned() })
        }
        (DomainState::Live { .. }, Action::CertificateIssued) => {
            Err(Refusal::AlreadyLive { name: name_owned() })
        }
        (_, Action::Remove) => Ok(DomainState::None),
    }
}

/// Where the certificate of a domain stands at a given time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CertificateStatus {
    /// Not verified: no certificate is requested yet.
    NotRequested,
    /// Being issued; expected at `expected_at` (usually a couple of minutes).
    Issuing {
        /// When issuance should complete.
        expected_at: u64,
    },
    /// A CAA record does not allow the certificate authority (before the 30-minute mark).
    BlockedByCaa {
        /// The CAA records at fault.
        records: Vec<DnsRecord>,
    },
    /// 30 minutes after verification and still no certificate: show the troubleshooting steps.
    Overdue {
        /// When the domain was verified.
        verified_at: u64,
        /// CAA records that block issuance, if that is the cause.
        blocking_caa: Vec<DnsRecord>,
        /// The troubleshooting steps of spec part 7, to show in order.
        steps: Vec<String>,
    },
    /// Issued; the domain is live.
    Issued {
        /// When.
        at: u64,
    },
}

/// The troubleshooting steps for a certificate that has not appeared (spec part 7), naming the
/// domain and the certificate authority.
#[must_use]
pub fn certificate_troubleshooting(name: &str, issuer: &str) -> Vec<String> {
    vec![
        format!("Confirm that {name} still verifies: its DNS record must still match the values shown, with no conflicting record of the same name."),
        format!("Check that CAA records at your DNS provider do not block the certificate authority: if {name} or its parent domain has CAA records, one must be 0 issue \"{issuer}\"."),
        "Use Re-verify to trigger a fresh attempt.".to_owned(),
        "If the browser reports a private-connection warning, the certificate is not provisioned yet or an old one is cached: wait a few minutes and retry in a private window.".to_owned(),
        format!("If the domain works but redirects break, a cached redirect is the usual cause: test in a private window or with a HEAD request that ignores the local cache (curl -I https://{name})."),
    ]
}

/// What the dashboard says about propagation while a domain waits for verification.
pub const PROPAGATION_NOTE: &str =
    "DNS changes usually propagate within a few minutes but can take up to 48 hours.";

/// What to say while an added domain waits for its DNS record, `added_at` and `now` in
/// seconds: the propagation note for the first 48 hours, then that the record is probably wrong.
#[must_use]
pub fn propagation_note(added_at: u64, now: u64) -> String {
    if now.saturating_sub(added_at) < DNS_PROPAGATION_MAX_SECS {
        PROPAGATION_NOTE.to_owned()
    } else {
        "It has been more than 48 hours, longer than DNS propagation takes: check the record at your DNS provider against the values shown, and look for a conflicting record of the same name.".to_owned()
    }
}

/// Whether a verified domain's certificate may be issued at `now`: the delay has passed and no
/// CAA record blocks it (`blocking_caa` empty).
#[must_use]
pub fn certificate_due(state: &DomainState, now: u64, delay_secs: u64, blocking_caa: &[DnsRecord]) -> bool {
    state.issuing_since().is_some_and(|verified_at| now >= verified_at.saturating_add(delay_secs))
        && blocking_caa.is_empty()
}

/// The certificate status of a domain in `state` at `now`.
#[must_use]
pub fn certificate_status(
    name: &str,
    state: &DomainState,
    now: u64,
    delay_secs: u64,
    issuer: &str,
    blocking_caa: Vec<DnsRecord>,
) -> CertificateStatus {
    match *state {
        DomainState::None | DomainState::Added { .. } => CertificateStatus::NotRequested,
        DomainState::Live { live_at, .. } => CertificateStatus::Issued { at: live_at },
        DomainState::Verified { verified_at, .. } | DomainState::Reverifying { verified_at, .. } => {
            if now >= verified_at.saturating_add(CERTIFICATE_TROUBLESHOOT_AFTER_SECS) {
                CertificateStatus::Overdue {
                    verified_at,
                    blocking_caa,
                    steps: certificate_troubleshooting(name, issuer),
                }
            } else if !blocking_caa.is_empty() {
                CertificateStatus::BlockedByCaa { records: blocking_caa }
            } else {
                CertificateStatus::Issuing { expected_at: verified_at.saturating_add(delay_secs) }
            }
        }
    }
}
