//! Certificates from an ACME CA (RFC 8555) over HTTP-01: the account, the challenge answers a
//! plain-HTTP listener serves, one issuance from order to chain, and when to renew.

use std::fmt;
use std::time::Duration;

use instant_acme::{
    Account, AccountCredentials, AuthorizationStatus, ChallengeType, Identifier, NewAccount, NewOrder, Order,
    OrderStatus, Problem,
};

use crate::http::{Bounded, client};

mod challenges;

use self::challenges::Published;
pub use self::challenges::{CHALLENGE_PATH, ChallengeSink, Challenges};

/// The longest issuance, from the order to the downloaded chain; past it [`Acme::issue`] fails
/// with [`AcmeStep::Deadline`].
pub const ISSUE_DEADLINE: Duration = Duration::from_secs(120);
/// The longest pause between two polls of the order.
const MAX_POLL_DELAY: Duration = Duration::from_secs(5);
/// The first pause between two polls of the order; it doubles up to [`MAX_POLL_DELAY`].
const FIRST_POLL_DELAY: Duration = Duration::from_millis(200);

/// The step of the ACME exchange that failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AcmeStep {
    /// Reaching the CA, reading its directory, or the account.
    Account,
    /// Placing the order or reading its authorizations.
    Order,
    /// The CA's validation of the HTTP-01 answer.
    Validation,
    /// Generating the key and CSR, or finalizing the order.
    Finalize,
    /// Downloading the certificate chain.
    Certificate,
    /// The whole issuance took longer than [`ISSUE_DEADLINE`].
    Deadline,
}

impl AcmeStep {
    fn describe(self) -> &'static str {
        match self {
            AcmeStep::Account => "setting up the ACME account",
            AcmeStep::Order => "placing the certificate order",
            AcmeStep::Validation => "validating the domain (HTTP-01)",
            AcmeStep::Finalize => "finalizing the order",
            AcmeStep::Certificate => "downloading the certificate",
            AcmeStep::Deadline => "issuing the certificate",
        }
    }
}

/// An RFC 7807 problem document from the CA: what it really said.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AcmeProblem {
    /// The problem type, such as `urn:ietf:params:acme:error:connection`.
    pub kind: Option<String>,
    /// The CA's explanation.
    pub detail: Option<String>,
    /// Per-identifier problems, as `type: detail` lines.
    pub subproblems: Vec<String>,
}

impl From<&Problem> for AcmeProblem {
    fn from(problem: &Problem) -> AcmeProblem {
        AcmeProblem {
            kind: problem.r#type.clone(),
            detail: problem.detail.clone(),
            subproblems: problem
                .subproblems
                .iter()
                .map(|s| {
                    format!(
                        "{}: {}",
                        s.r#type.as_deref().unwrap_or("problem"),
                        s.detail.as_deref().unwrap_or("")
                    )
                })
                .collect(),
        }
    }
}

impl fmt::Display for AcmeProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.detail.as_deref().unwrap_or("no detail given"))?;
        if let Some(kind) = &self.kind {
            write!(f, " ({kind})")?;
        }
        for sub in &self.subproblems {
            write!(f, "; {sub}")?;
        }
        Ok(())
    }
}

/// An issuance or account step that failed: the step, what went wrong, and the CA's problem
/// document when it sent one (its type and detail are in the message, for the dashboard).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AcmeError {
    /// The step that failed.
    pub step: AcmeStep,
    /// The problem document the CA sent, if any.
    pub problem: Option<AcmeProblem>,
    /// What went wrong, in words (without the problem document).
    pub message: String,
}

impl fmt::Display for AcmeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} failed: {}", self.step.describe(), self.message)?;
        if let Some(problem) = &self.problem {
            write!(f, "; the CA said: {problem}")?;
        }
        Ok(())
    }
}

impl std::error::Error for AcmeError {}

impl AcmeError {
    fn new(step: AcmeStep, message: impl Into<String>) -> AcmeError {
        AcmeError { step, problem: None, message: message.into() }
    }

    fn from_acme(step: AcmeStep, error: instant_acme::Error) -> AcmeError {
        match error {
            instant_acme::Error::Api(problem) => AcmeError {
                step,
                message: match (step, problem.status) {
                    (AcmeStep::Validation, _) => "the CA could not validate the domain".to_owned(),
                    (_, Some(status)) => format!("the CA refused (HTTP {status})"),
                    (_, None) => "the CA refused".to_owned(),
                },
                problem: Some(AcmeProblem::from(&problem)),
            },
            other => AcmeError::new(step, other.to_string()),
        }
    }
}

/// An issued certificate: the chain as the CA sent it (leaf first, PEM), its fresh private key
/// (PKCS#8 PEM) and its validity in Unix seconds.
#[derive(Clone, PartialEq, Eq)]
pub struct Issued {
    /// The certificate chain, leaf first, PEM.
    pub chain_pem: String,
    /// The certificate's private key, PKCS#8 PEM (ECDSA P-256).
    pub key_pem: String,
    /// The leaf's `notBefore`, Unix seconds.
    pub not_before_unix: i64,
    /// The leaf's `notAfter`, Unix seconds.
    pub not_after_unix: i64,
}

impl fmt::Debug for Issued {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Issued")
            .field("chain_pem", &format_args!("{} bytes", self.chain_pem.len()))
            .field("key_pem", &"(secret)")
            .field("not_before_unix", &self.not_before_unix)
            .field("not_after_unix", &self.not_after_unix)
            .finish()
    }
}

/// Whether a certificate valid from `not_before_unix` to `not_after_unix` should be renewed at
/// `now_unix`: in the last third of its lifetime, and at most 30 days before it ends (so a
/// 90-day certificate renews 30 days before, a 6-day one 2 days before). An expired or
/// inconsistent certificate is due.
#[must_use]
pub fn renew_due(not_before_unix: i64, not_after_unix: i64, now_unix: i64) -> bool {
    const THIRTY_DAYS: i64 = 30 * 86_400;
    let lifetime = not_after_unix.saturating_sub(not_before_unix);
    if lifetime <= 0 {
        return true;
    }
    let window = (lifetime / 3).min(THIRTY_DAYS);
    now_unix >= not_after_unix.saturating_sub(window)
}

/// An ACME account at one CA. Cheap to clone.
#[derive(Clone)]
pub struct Acme {
    account: Account,
    directory_url: String,
}

impl fmt::Debug for Acme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Acme")
            .field("directory_url", &self.directory_url)
            .field("account", &self.account.id())
            .finish()
    }
}

/// Whether `name` is a DNS name a CA could issue for: ASCII letters, digits and hyphens in
/// labels of 1 to 63, at least two labels, 253 characters at most, not an IP address.
fn check_name(name: &str) -> Result<(), AcmeError> {
    let ok = name.len() <= 253
        && name.contains('.')
        && name.parse::<std::net::IpAddr>().is_err()
        && name.split('.').all(|label| {
            (1..=63).contains(&label.len())
                && label.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
                && !label.starts_with('-')
                && !label.ends_with('-')
        });
    if ok {
        Ok(())
    } else {
        Err(AcmeError::new(AcmeStep::Order, format!("{name:?} is not a host name a CA can issue for")))
    }
}

/// An account step's error, naming the CA's directory when the CA sent no problem document.
fn account_error(directory_url: &str, error: instant_acme::Error) -> AcmeError {
    let mut error = AcmeError::from_acme(AcmeStep::Account, error);
    if error.problem.is_none() {
        error.message = format!("{directory_url}: {}", error.message);
    }
    error
}

impl Acme {
    /// Opens the account at the CA whose directory is `directory_url`: the stored one when
    /// `stored_credentials` (the JSON this function returned before, for the same directory) is
    /// given, else a new one with the `contact` e-mail address (`ops@example.org` or
    /// `mailto:ops@example.org`), agreeing to the CA's terms. `extra_root_pem` is a root to trust
    /// besides the system's, such as a test CA's listener certificate. Returns the account and
    /// its credentials as JSON to store (a secret: it holds the account key).
    ///
    /// # Errors
    /// The CA cannot be reached or refuses, or the stored credentials cannot be read.
    pub async fn connect(
        directory_url: &str,
        contact: Option<&str>,
        stored_credentials: Option<&str>,
        extra_root_pem: Option<&str>,
    ) -> Result<(Acme, String), AcmeError> {
        let http = client(extra_root_pem, true)
            .map_err(|e| AcmeError::new(AcmeStep::Account, format!("{directory_url}: {e}")))?;
        let builder = Account::builder_with_http(Box::new(Bounded(http)));
        let deadline = crate::http::REQUEST_TIMEOUT * 3;
        let open = async {
            match stored_credentials {
                Some(json) => {
                    let credentials: AccountCredentials = serde_json::from_str(json).map_err(|e| {
                        AcmeError::new(
                            AcmeStep::Account,
                            format!("the stored account credentials cannot be read: {e}"),
                        )
                    })?;
                    let account = builder
                        .from_credentials(credentials)
                        .await
                        .map_err(|e| account_error(directory_url, e))?;
                    Ok((account, json.to_owned()))
                }
                None => {
                    let contact = contact.map(|c| {
                        let c = c.trim();
                        if c.starts_with("mailto:") { c.to_owned() } else { format!("mailto:{c}") }
                    });
                    let contacts: Vec<&str> = contact.iter().map(String::as_str).collect();
                    let new = NewAccount {
                        contact: &contacts,
                        terms_of_service_agreed: true,
                        only_return_existing: false,
                    };
                    let (account, credentials) = builder
                        .create(&new, directory_url.to_owned(), None)
                        .await
                        .map_err(|e| account_error(directory_url, e))?;
                    let json = serde_json::to_string(&credentials)
                        .map_err(|e| AcmeError::new(AcmeStep::Account, e.to_string()))?;
                    Ok((account, json))
                }
            }
        };
        let (account, json) = tokio::time::timeout(deadline, open).await.map_err(|_| {
            AcmeError::new(
                AcmeStep::Account,
                format!("no answer from {directory_url} within {} seconds", deadline.as_secs()),
            )
        })??;
        Ok((Acme { account, directory_url: directory_url.to_owned() }, json))
    }

    /// The directory URL of the CA.
    #[must_use]
    pub fn directory_url(&self) -> &str {
        &self.directory_url
    }

    /// Issues a certificate for `name` over HTTP-01: places the order, publishes each key
    /// authorization in `challenges` (the host's port-80 listener must serve them), tells the CA
    /// it is ready, polls with a backoff (200 ms doubling to 5 s), finalizes with a fresh ECDSA
    /// P-256 key and downloads the chain, all within [`ISSUE_DEADLINE`]. The published tokens
    /// are removed afterwards, whatever the outcome.
    ///
    /// # Errors
    /// The step that failed, with the CA's problem document (for a failed validation, the
    /// challenge's error, such as a connection refused or a wrong answer).
    pub async fn issue(&self, name: &str, challenges: &Challenges) -> Result<Issued, AcmeError> {
        let name = name.trim().trim_end_matches('.').to_ascii_lowercase();
        check_name(&name)?;
        let mut published = Published { challenges, tokens: Vec::new() };
        let work = self.issue_inner(&name, &mut published);
        tokio::time::timeout(ISSUE_DEADLINE, work).await.map_err(|_| {
            AcmeError::new(
                AcmeStep::Deadline,
                format!("no certificate for {name} within {} seconds", ISSUE_DEADLINE.as_secs()),
            )
        })?
    }

    async fn issue_inner(&self, name: &str, published: &mut Published<'_>) -> Result<Issued, AcmeError> {
        let identifiers = [Identifier::Dns(name.to_owned())];
        let mut order = self
            .account
            .new_order(&NewOrder::new(&identifiers))
            .await
            .map_err(|e| AcmeError::from_acme(AcmeStep::Order, e))?;

        let mut authorizations = order.authorizations();
        while let Some(authorization) = authorizations.next().await {
            let mut authorization = authorization.map_err(|e| AcmeError::from_acme(AcmeStep::Order, e))?;
            match authorization.status {
                AuthorizationStatus::Valid => continue,
                AuthorizationStatus::Pending => {}
                other => {
                    return Err(AcmeError::new(
                        AcmeStep::Order,
                        format!("the authorization for {name} is {other:?}"),
                    ));
                }
            }
            let mut challenge = authorization.challenge(ChallengeType::Http01).ok_or_else(|| {
                AcmeError::new(AcmeStep::Order, "the CA offers no HTTP-01 challenge for this name")
            })?;
            let key_authorization = challenge.key_authorization();
            published.challenges.insert(&challenge.token, key_authorization.as_str());
            published.tokens.push(challenge.token.clone());
            if let Some(sink) = &published.challenges.sink {
                sink.publish(&challenge.token, key_authorization.as_str()).await.map_err(|e| {
                    AcmeError::new(
                        AcmeStep::Validation,
                        format!("the challenge's answer could not be published: {e}"),
                    )
                })?;
            }
            challenge.set_ready().await.map_err(|e| AcmeError::from_acme(AcmeStep::Validation, e))?;
        }

        let status =
            poll(&mut order, |s| matches!(s, OrderStatus::Ready | OrderStatus::Invalid | OrderStatus::Valid))
                .await
                .map_err(|e| AcmeError::from_acme(AcmeStep::Validation, e))?;
        if status == OrderStatus::Invalid {
            return Err(validation_failure(&mut order, name).await);
        }

        let key =
            rcgen::KeyPair::generate().map_err(|e| AcmeError::new(AcmeStep::Finalize, e.to_string()))?;
        let mut params = rcgen::CertificateParams::new(vec![name.to_owned()])
            .map_err(|e| AcmeError::new(AcmeStep::Finalize, e.to_string()))?;
        params.distinguished_name = rcgen::DistinguishedName::new();
        let csr =
            params.serialize_request(&key).map_err(|e| AcmeError::new(AcmeStep::Finalize, e.to_string()))?;
        if status == OrderStatus::Ready {
            order.finalize_csr(csr.der()).await.map_err(|e| AcmeError::from_acme(AcmeStep::Finalize, e))?;
        }
        let status = poll(&mut order, |s| !matches!(s, OrderStatus::Processing | OrderStatus::Ready))
            .await
            .map_err(|e| AcmeError::from_acme(AcmeStep::Certificate, e))?;
        if status != OrderStatus::Valid {
            let problem = order.state().error.as_ref().map(AcmeProblem::from);
            return Err(AcmeError {
                step: AcmeStep::Finalize,
                problem,
                message: format!("the order ended {status:?}"),
            });
        }
        let chain_pem = order
            .certificate()
            .await
            .map_err(|e| AcmeError::from_acme(AcmeStep::Certificate, e))?
            .ok_or_else(|| AcmeError::new(AcmeStep::Certificate, "the CA sent no certificate"))?;
        let (not_before_unix, not_after_unix) = crate::sni::certificate_validity(&chain_pem)
            .map_err(|e| AcmeError::new(AcmeStep::Certificate, e.to_string()))?;
        Ok(Issued { chain_pem, key_pem: key.serialize_pem(), not_before_unix, not_after_unix })
    }
}

/// Refreshes the order until `done` says its status is final, pausing 200 ms doubling to 5 s
/// (or the CA's Retry-After, within the same bounds); the caller's deadline bounds the whole.
async fn poll(
    order: &mut Order,
    done: impl Fn(OrderStatus) -> bool,
) -> Result<OrderStatus, instant_acme::Error> {
    let mut delay = FIRST_POLL_DELAY;
    loop {
        tokio::time::sleep(delay).await;
        let state = order.refresh().await?;
        if let Some(problem) = &state.error {
            return Err(instant_acme::Error::Api(problem.clone()));
        }
        if done(state.status) {
            return Ok(state.status);
        }
        delay = (delay * 2).min(MAX_POLL_DELAY);
    }
}

/// The error of the failed challenge, read back from the authorizations of an invalid order.
async fn validation_failure(order: &mut Order, name: &str) -> AcmeError {
    let mut authorizations = order.authorizations();
    while let Some(Ok(mut authorization)) = authorizations.next().await {
        if let Ok(state) = authorization.refresh().await
            && let Some(problem) = state.challenges.iter().find_map(|c| c.error.as_ref())
        {
            return AcmeError {
                step: AcmeStep::Validation,
                problem: Some(AcmeProblem::from(problem)),
                message: format!("the CA could not validate {name}"),
            };
        }
    }
    AcmeError::new(AcmeStep::Validation, format!("the CA could not validate {name} and gave no reason"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renewal_is_due_in_the_last_third_and_at_most_thirty_days_before() {
        let day = 86_400;
        // 90 days: due from day 60.
        assert!(!renew_due(0, 90 * day, 60 * day - 1));
        assert!(renew_due(0, 90 * day, 60 * day));
        // One year: due 30 days before the end, not at two thirds.
        assert!(!renew_due(0, 365 * day, 250 * day));
        assert!(renew_due(0, 365 * day, 335 * day));
        // Six days: due for the last two.
        assert!(!renew_due(0, 6 * day, 4 * day - 1));
        assert!(renew_due(0, 6 * day, 4 * day));
        // Expired, inconsistent or extreme values.
        assert!(renew_due(0, 90 * day, 100 * day));
        assert!(renew_due(10, 10, 0));
        assert!(renew_due(i64::MAX, i64::MIN, 0));
        assert!(!renew_due(i64::MIN, i64::MAX, 0));
    }

    #[test]
    fn only_host_names_are_ordered() {
        assert!(check_name("docs.example.com").is_ok());
        for bad in
            ["", "localhost", "127.0.0.1", "a..b", "-a.b", "a-.b", "a b.c", "*.example.com", "exämple.com"]
        {
            assert!(check_name(bad).is_err(), "{bad}");
        }
        assert!(check_name(&format!("{}.com", "a".repeat(64))).is_err());
    }

    #[test]
    fn errors_carry_the_problem_document() {
        let error = AcmeError {
            step: AcmeStep::Validation,
            problem: Some(AcmeProblem {
                kind: Some("urn:ietf:params:acme:error:connection".into()),
                detail: Some("127.0.0.1: Connection refused".into()),
                subproblems: vec![],
            }),
            message: "the CA could not validate docs.example.com".into(),
        };
        assert_eq!(
            error.to_string(),
            "validating the domain (HTTP-01) failed: the CA could not validate docs.example.com; the CA said: \
             127.0.0.1: Connection refused (urn:ietf:params:acme:error:connection)"
        );
    }
}
