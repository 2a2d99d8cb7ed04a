//! The Domains page on a host (`playground host`): how the page knows it is on one, the host's
//! JSON answers as the page reads them, the routes it calls, and the sentences it shows for
//! the host's errors. Pure, like the rest of the crate: the page fetches, this reads.
//!
//! Mode: the host adds `<meta name="playground-host-api" content="/_host/api">` ([`HOST_META`])
//! to the page's HTML as it serves it. A static copy of the page (the demo, `trunk serve`, a
//! published site) never has it, so the page knows where it is before any request, and the
//! demo sends none.

use serde::Deserialize;

use crate::dashboard::{DomainRole, RemovalWarning};
use crate::dns::{DnsInstruction, DnsRecord};
use crate::machine::{CertificateStatus, DomainState};
use crate::name::{ToAscii, validate_new_domain};
use crate::redirects::DomainConfig;
use crate::settings::Plan;
use crate::troubleshooting::{Symptom, Trouble};

/// The `name` of the `<meta>` element the host adds to the page; its `content` is the API's
/// path on the host (such as `/_host/api`).
pub const HOST_META: &str = "playground-host-api";

/// Where the host's API is unless the page is told otherwise.
pub const DEFAULT_API: &str = "/_host/api";

/// How often the page asks again while a certificate is pending, in seconds.
pub const POLL_EVERY_SECS: u64 = 2;

/// How long the page keeps asking on its own while a certificate stays pending, in seconds:
/// a little past the 30 minutes after which the host shows the troubleshooting steps.
pub const POLL_FOR_SECS: u64 = 31 * 60;

/// The API's base path from the `<meta>` element's `content`: an absolute path on the same
/// host, without a trailing slash. Anything else (a URL to another site, a relative path,
/// nothing) is refused, so the page never sends the owner's session elsewhere.
#[must_use]
pub fn api_base(content: &str) -> Option<String> {
    let content = content.trim().trim_end_matches('/');
    let safe = content.starts_with('/')
        && !content.starts_with("//")
        && content.len() <= 200
        && content.bytes().all(|b| b.is_ascii_alphanumeric() || b"/-_.".contains(&b));
    safe.then(|| content.to_owned())
}

/// One path segment (a project or a domain name) percent-encoded, so nothing typed can change
/// the route.
#[must_use]
pub fn segment(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for b in value.bytes() {
        if b.is_ascii_alphanumeric() || b == b'-' || b == b'.' || b == b'_' {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The routes of the host's API, relative to its base.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Route<'a> {
    /// `POST` signs in, `DELETE` signs out.
    Session,
    /// Who is signed in (`GET`).
    Me,
    /// The owner's projects (`GET`).
    Projects,
    /// A project's domains (`GET`), add one (`POST`).
    Domains(&'a str),
    /// One domain (`DELETE` removes it).
    Domain(&'a str, &'a str),
    /// `POST` Verify.
    Verify(&'a str, &'a str),
    /// `POST` Re-verify.
    Reverify(&'a str, &'a str),
    /// `POST` Make primary.
    Primary(&'a str, &'a str),
    /// `PUT {"role"}`: redirect or serve.
    Role(&'a str, &'a str),
    /// The domain configuration (`GET`).
    Config(&'a str),
}

impl Route<'_> {
    /// The path under `base`.
    #[must_use]
    pub fn path(self, base: &str) -> String {
        let domains = |p: &str| format!("{base}/projects/{}/domains", segment(p));
        let domain = |p: &str, d: &str| format!("{}/{}", domains(p), segment(d));
        match self {
            Route::Session => format!("{base}/session"),
            Route::Me => format!("{base}/me"),
            Route::Projects => format!("{base}/projects"),
            Route::Domains(p) => domains(p),
            Route::Domain(p, d) => domain(p, d),
            Route::Verify(p, d) => format!("{}/verify", domain(p, d)),
            Route::Reverify(p, d) => format!("{}/reverify", domain(p, d)),
            Route::Primary(p, d) => format!("{}/primary", domain(p, d)),
            Route::Role(p, d) => format!("{}/role", domain(p, d)),
            Route::Config(p) => format!("{base}/projects/{}/config", segment(p)),
        }
    }
}

/// The host's error answer: `{code, message, status}`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct ApiError {
    /// A stable code such as `bad_credentials` or `plan_required`.
    pub code: String,
    /// The sentence for the owner.
    pub message: String,
}

/// Whether an error answer means the owner must sign in (again).
#[must_use]
pub fn needs_sign_in(status: u16, code: Option<&str>) -> bool {
    status == 401 || matches!(code, Some("unauthenticated" | "session_expired"))
}

/// The sentence to show for a failed request: the host's message when the body is its error
/// JSON, otherwise what the status means. A 429 says when to try again (`retry_after`, the
/// `Retry-After` header in seconds) unless the message already does.
#[must_use]
pub fn error_text(status: u16, body: &str, retry_after: Option<&str>) -> String {
    let parsed = serde_json::from_str::<ApiError>(body).ok().filter(|e| !e.message.trim().is_empty());
    let mut text = match parsed {
        Some(e) => e.message,
        None => match status {
            401 => "Sign in first.".to_owned(),
            403 => "The host refused this request.".to_owned(),
            404 => "The host does not know this project or domain.".to_owned(),
            429 => "Too many attempts.".to_owned(),
            500..=599 => format!(
                "The host could not answer (HTTP {status}); nothing may have changed. Try again in a moment."
            ),
            _ => format!("The host answered HTTP {status}, which the page did not expect."),
        },
    };
    if status == 429 && !text.contains("try again") {
        let wait = retry_after.and_then(|s| s.trim().parse::<u64>().ok());
        text.push_str(&match wait {
            Some(1) => " Try again in 1 second.".to_owned(),
            Some(secs) => format!(" Try again in {secs} seconds."),
            None => " Try again in a minute.".to_owned(),
        });
    }
    text
}

/// What to say when the host took the password but the browser did not keep the session: the
/// session cookie is `Secure`, and browsers keep such a cookie only for a page opened over
/// HTTPS (or on localhost).
pub const SESSION_NOT_KEPT: &str = "The host accepted the password, but this browser did not keep the session: the host's session cookie is Secure, and browsers keep it only for a page opened over HTTPS (or on localhost). Open this page at its https:// address.";

/// The sentence for a request that got no answer at all.
#[must_use]
pub fn unreachable_text(detail: &str) -> String {
    let detail = detail.trim();
    if detail.is_empty() {
        "The host did not answer: check the connection and try again.".to_owned()
    } else {
        format!("The host did not answer ({detail}): check the connection and try again.")
    }
}

/// `GET /me`: who is signed in.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Me {
    /// The owner's email.
    pub email: String,
    /// The owner's projects, by name.
    #[serde(default)]
    pub projects: Vec<String>,
}

/// `POST /session`'s answer.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct SignedIn {
    /// The owner's email, as the host keeps it.
    pub email: String,
}

/// One of `GET /projects`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProjectSummary {
    /// The project's name.
    pub name: String,
    /// Its plan.
    pub plan: Plan,
    /// Whether the plan allows custom domains.
    #[serde(default)]
    pub custom_domains: bool,
    /// Whether its site is published.
    #[serde(default)]
    pub deployed: bool,
    /// Where the project is published now.
    #[serde(default)]
    pub published_address: String,
    /// How many domains are attached.
    #[serde(default)]
    pub domains: usize,
}

/// A domain's last DNS check, as the host keeps it.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct LastCheck {
    /// Whether it passed.
    pub ok: bool,
    /// What it found, in words.
    pub message: String,
    /// When (seconds since 1970).
    pub at: u64,
}

/// The certificate authority's last error for a domain.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct IssueError {
    /// What the authority (or the host talking to it) said.
    pub message: String,
    /// When (seconds since 1970).
    pub at: u64,
}

/// A domain's certificate as the host reports it (`status` tags the variant).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(tag = "status", rename_all = "snake_case", rename_all_fields = "camelCase")]
pub enum HostedCertificate {
    /// Not verified yet.
    NotRequested,
    /// Being issued.
    Issuing {
        /// When the host expects it.
        expected_at: u64,
    },
    /// CAA records forbid the certificate authority.
    BlockedByCaa {
        /// The records at fault.
        #[serde(default)]
        records: Vec<DnsRecord>,
    },
    /// 30 minutes after verification and still none.
    Overdue {
        /// When the domain was verified.
        verified_at: u64,
        /// CAA records blocking it, if that is the cause.
        #[serde(default)]
        blocking_caa: Vec<DnsRecord>,
        /// The troubleshooting steps.
        #[serde(default)]
        steps: Vec<String>,
    },
    /// Issued.
    Issued {
        /// When the domain went live.
        at: u64,
        /// When the certificate expires, if the host says.
        #[serde(default)]
        not_after: Option<u64>,
    },
}

impl HostedCertificate {
    /// The core's status, which the page's certificate part shows.
    #[must_use]
    pub fn status(&self) -> CertificateStatus {
        match self.clone() {
            HostedCertificate::NotRequested => CertificateStatus::NotRequested,
            HostedCertificate::Issuing { expected_at } => CertificateStatus::Issuing { expected_at },
            HostedCertificate::BlockedByCaa { records } => CertificateStatus::BlockedByCaa { records },
            HostedCertificate::Overdue { verified_at, blocking_caa, steps } => {
                CertificateStatus::Overdue { verified_at, blocking_caa, steps }
            }
            HostedCertificate::Issued { at, .. } => CertificateStatus::Issued { at },
        }
    }
}

/// The removal warning of a domain that serves.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HostedWarning {
    /// The sentence.
    pub message: String,
    /// A live domain to keep it redirecting to, if any.
    #[serde(default)]
    pub redirect_to: Option<String>,
}

/// One attached domain as the host reports it.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HostedDomain {
    /// The domain (ASCII, lower case).
    pub name: String,
    /// `added`, `verified`, `live` or `reverifying`.
    pub state: String,
    /// When it was added.
    #[serde(default)]
    pub added_at: Option<u64>,
    /// When it was verified.
    #[serde(default)]
    pub verified_at: Option<u64>,
    /// When it went live.
    #[serde(default)]
    pub live_at: Option<u64>,
    /// What it does while it serves and is not the primary.
    #[serde(default)]
    pub role: DomainRole,
    /// Whether the project is published at it.
    #[serde(default)]
    pub primary: bool,
    /// The DNS record it asks for.
    pub instruction: DnsInstruction,
    /// The last DNS check.
    #[serde(default)]
    pub last_check: Option<LastCheck>,
    /// The certificate.
    pub certificate: HostedCertificate,
    /// The certificate authority's last error, if issuance failed.
    #[serde(default)]
    pub issue_error: Option<IssueError>,
    /// What removing it stops, when it serves.
    #[serde(default)]
    pub removal_warning: Option<HostedWarning>,
}

impl HostedDomain {
    /// Its lifecycle state, rebuilt from the state's name and its times (an unknown name or a
    /// missing time reads as the earlier state the times support).
    #[must_use]
    pub fn domain_state(&self) -> DomainState {
        let added_at = self.added_at.unwrap_or(0);
        match (self.state.as_str(), self.verified_at, self.live_at) {
            ("live", Some(verified_at), Some(live_at)) => {
                DomainState::Live { added_at, verified_at, live_at }
            }
            ("reverifying", Some(verified_at), Some(live_at)) => {
                DomainState::Reverifying { added_at, verified_at, live_at }
            }
            ("verified" | "live" | "reverifying", Some(verified_at), _) => {
                DomainState::Verified { added_at, verified_at }
            }
            _ => DomainState::Added { added_at },
        }
    }

    /// Whether its certificate is being requested now (what the page polls for): verified or
    /// re-verifying, and no error from the authority since.
    #[must_use]
    pub fn certificate_pending(&self) -> bool {
        matches!(self.certificate, HostedCertificate::Issuing { .. } | HostedCertificate::BlockedByCaa { .. })
            && self.issue_error.is_none()
    }

    /// The removal warning as the page's confirmation shows it.
    #[must_use]
    pub fn removal(&self) -> Option<RemovalWarning> {
        self.removal_warning
            .as_ref()
            .map(|w| RemovalWarning { message: w.message.clone(), redirect_to: w.redirect_to.clone() })
    }
}

/// One troubleshooting answer as the host reports it.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HostedTrouble {
    /// The symptom's key (`verification`, `certificate`, ...).
    pub symptom: String,
    /// Cause and remedy.
    pub answer: String,
    /// Where it applies now, with what really happened.
    #[serde(default)]
    pub applies_to: Vec<String>,
}

/// `GET /projects/{project}/domains`: everything the page shows of a project.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProjectView {
    /// The project's name.
    pub project: String,
    /// Its plan.
    pub plan: Plan,
    /// Whether the plan allows custom domains.
    #[serde(default)]
    pub custom_domains: bool,
    /// Whether its site is published.
    #[serde(default)]
    pub deployed: bool,
    /// `{project}.{platform domain}`.
    pub default_address: String,
    /// Where the project is published now (the primary).
    pub published_address: String,
    /// The CNAME target.
    #[serde(default)]
    pub cname_target: String,
    /// The CAA name of the certificate authority.
    #[serde(default)]
    pub certificate_authority: String,
    /// The attached domains.
    #[serde(default)]
    pub domains: Vec<HostedDomain>,
    /// Live domains that serve the project themselves.
    #[serde(default)]
    pub also_served: Vec<String>,
    /// The domain configuration (primary and redirects).
    pub config: DomainConfig,
    /// The troubleshooting answers.
    #[serde(default)]
    pub troubleshooting: Vec<HostedTrouble>,
}

impl ProjectView {
    /// The platform's domain: the default address without the project's label.
    #[must_use]
    pub fn platform_domain(&self) -> &str {
        self.default_address
            .strip_prefix(&self.project)
            .and_then(|rest| rest.strip_prefix('.'))
            .unwrap_or(&self.default_address)
    }

    /// The domain called `name`.
    #[must_use]
    pub fn domain(&self, name: &str) -> Option<&HostedDomain> {
        self.domains.iter().find(|d| d.name == name)
    }

    /// Whether any certificate is being requested (the page polls while one is).
    #[must_use]
    pub fn certificate_pending(&self) -> bool {
        self.domains.iter().any(HostedDomain::certificate_pending)
    }

    /// Every address the project answers to, what an edited configuration is checked
    /// against: the default address and the attached domains.
    #[must_use]
    pub fn attached_names(&self) -> Vec<String> {
        std::iter::once(self.default_address.clone())
            .chain(self.domains.iter().map(|d| d.name.clone()))
            .collect()
    }

    /// The troubleshooting answers in the spec's order, as the page's section shows them
    /// (answers with an unknown symptom are left out).
    #[must_use]
    pub fn troubles(&self) -> Vec<Trouble> {
        Symptom::ALL
            .iter()
            .filter_map(|&symptom| {
                self.troubleshooting.iter().find(|t| t.symptom == symptom.key()).map(|t| Trouble {
                    symptom,
                    answer: t.answer.clone(),
                    applies_to: t.applies_to.clone(),
                })
            })
            .collect()
    }

    /// The instant check of a name typed into Add domain: the same rules the host applies to
    /// the name (syntax, not the platform's own domain, not already attached, not a public
    /// suffix). The host's answer still decides: the plan and the deploy are its to check.
    ///
    /// # Errors
    /// The first rule the name breaks, in words.
    pub fn check_new_name(&self, input: &str, to_ascii: ToAscii<'_>) -> Result<String, String> {
        let attached: Vec<&str> = self.domains.iter().map(|d| d.name.as_str()).collect();
        validate_new_domain(input, to_ascii, self.platform_domain(), &attached).map_err(|e| e.to_string())
    }
}

/// The answer of a change (add, verify, remove, primary, role): the host's sentence and the
/// project as it is now.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Changed {
    /// What happened, in words.
    pub message: String,
    /// The project after the change.
    pub project: ProjectView,
}

#[cfg(test)]
mod tests;
