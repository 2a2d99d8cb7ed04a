//! What one domain's card reads, the same in the demo and on a host.

use playground_domains::{
    CertificateStatus, DnsInstruction, DomainRole, DomainState, Outcome, RemovalWarning,
};

/// What one domain's card shows, read from the page's state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DomainView {
    /// Its lifecycle state (`None` once removed).
    pub state: DomainState,
    /// The DNS record it asks for, while attached.
    pub instruction: Option<DnsInstruction>,
    /// Whether the project is published at it.
    pub primary: bool,
    /// What it does while it serves and is not the primary.
    pub role: DomainRole,
    /// Whether a check (or, on a host, any request about it) is running: its buttons wait.
    pub checking: bool,
    /// What the card says while `checking`.
    pub checking_note: &'static str,
    /// The last outcome of its actions.
    pub outcome: Option<Outcome>,
    /// The time (seconds) as of the last tick or action.
    pub now: u64,
    /// Where its certificate stands.
    pub certificate: CertificateStatus,
    /// The certificate authority CAA records must allow.
    pub authority: String,
    /// What to say before removing it, when removal stops traffic.
    pub removal: Option<RemovalWarning>,
    /// On a host: the certificate authority's last error, when issuance failed.
    pub issue_error: Option<String>,
}
