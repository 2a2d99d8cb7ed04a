//! Several domains per project: one primary, the others redirect to it with 301. The
//! configuration has exactly the shape of spec part 2 ("Domain configuration").

use serde::{Deserialize, Serialize};

/// The only redirect status the configuration uses (spec part 8).
pub const REDIRECT_STATUS: u16 = 301;

/// `{"domains": {"primary": ..., "redirects": [...]}}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DomainConfig {
    /// The `domains` object.
    pub domains: DomainsSection,
}

/// The `domains` object of [`DomainConfig`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DomainsSection {
    /// The main domain or subdomain of the project.
    pub primary: String,
    /// Each entry redirects an old address to the primary one.
    pub redirects: Vec<Redirect>,
}

/// One redirect: `{"from", "to", "status"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Redirect {
    /// Domain that redirects.
    pub from: String,
    /// Target domain.
    pub to: String,
    /// HTTP redirect status; 301.
    pub status: u16,
}

/// Why a domain configuration was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RedirectError {
    /// The primary is not one of the project's domains.
    #[error("The primary domain {name} is not attached to this project.")]
    PrimaryNotAttached {
        /// The primary.
        name: String,
    },
    /// `from` equals `to`.
    #[error("{name} redirects to itself; a redirect must point to another domain.")]
    SelfRedirect {
        /// The domain.
        name: String,
    },
    /// A status other than 301.
    #[error("The redirect from {from} uses status {status}; only 301 (moved permanently) is used.")]
    BadStatus {
        /// The redirect's source.
        from: String,
        /// The status given.
        status: u16,
    },
    /// Two redirects from the same domain.
    #[error("{from} has more than one redirect; keep one.")]
    DuplicateFrom {
        /// The repeated source.
        from: String,
    },
    /// A source that is not attached.
    #[error("{from} is not attached to this project, so it cannot redirect; add it first.")]
    UnknownSource {
        /// The source.
        from: String,
    },
    /// A target that is not attached.
    #[error("The redirect from {from} points to {to}, which is not attached to this project.")]
    UnknownTarget {
        /// The source.
        from: String,
        /// The target.
        to: String,
    },
    /// The primary itself redirects away.
    #[error("The primary domain {name} cannot redirect; choose another primary first.")]
    PrimaryRedirects {
        /// The primary.
        name: String,
    },
    /// Following the redirects comes back to where it started.
    #[error("These redirects form a loop: {}.", .chain.join(" \u{2192} "))]
    Loop {
        /// The domains around the loop, the first repeated at the end.
        chain: Vec<String>,
    },
    /// A redirect to a domain other than the primary (a chain).
    #[error(
        "{from} redirects to {to}, which is not the primary {primary}; point it straight at {primary} (browsers cache redirect chains aggressively)."
    )]
    NotToPrimary {
        /// The source.
        from: String,
        /// Its target.
        to: String,
        /// The primary.
        primary: String,
    },
}

/// The configuration for a primary and the other attached domains: each of `others` (except
/// the primary) redirects to the primary with 301, in the order given.
#[must_use]
pub fn build_config(primary: &str, others: &[&str]) -> DomainConfig {
    let redirects = others
        .iter()
        .filter(|d| **d != primary)
        .map(|d| Redirect { from: (*d).to_owned(), to: primary.to_owned(), status: REDIRECT_STATUS })
        .collect();
    DomainConfig { domains: DomainsSection { primary: primary.to_owned(), redirects } }
}

/// Checks a configuration against the domains attached to the project (`attached`, which
/// includes the primary and may include the default platform address).
///
/// Checks in order: primary attached; for each redirect in turn: not to itself, status 301,
/// `from` not repeated, `from` and `to` attached, not from the primary; then loops; then
/// every redirect goes straight to the primary.
///
/// # Errors
/// The first problem found.
pub fn validate_config(config: &DomainConfig, attached: &[&str]) -> Result<(), RedirectError> {
    let primary = config.domains.primary.as_str();
    let is_attached = |name: &str| attached.iter().any(|a| a.eq_ignore_ascii_case(name));
    if !is_attached(primary) {
        return Err(RedirectError::PrimaryNotAttached { name: primary.to_owned() });
    }
    let redirects = &config.domains.redirects;
    for (i, r) in redirects.iter().enumerate() {
        if r.from.eq_ignore_ascii_case(&r.to) {
            return Err(RedirectError::SelfRedirect { name: r.from.clone() });
        }
        if r.status != REDIRECT_STATUS {
            return Err(RedirectError::BadStatus { from: r.from.clone(), status: r.status });
        }
        if redirects[..i].iter().any(|p| p.from.eq_ignore_ascii_case(&r.from)) {
            return Err(RedirectError::DuplicateFrom { from: r.from.clone() });
        }
        if !is_attached(&r.from) {
            return Err(RedirectError::UnknownSource { from: r.from.clone() });
        }
        if !is_attached(&r.to) {
            return Err(RedirectError::UnknownTarget { from: r.from.clone(), to: r.to.clone() });
        }
        if r.from.eq_ignore_ascii_case(primary) {
            return Err(RedirectError::PrimaryRedirects { name: primary.to_owned() });
        }
    }
    let next =
        |name: &str| redirects.iter().find(|r| r.from.eq_ignore_ascii_case(name)).map(|r| r.to.as_str());
    for start in redirects {
        let mut chain = vec![start.from.to_ascii_lowercase()];
        let mut current = start.from.as_str();
        while let Some(to) = next(current) {
            let to_lower = to.to_ascii_lowercase();
            if let Some(at) = chain.iter().position(|c| *c == to_lower) {
                let mut looped = chain[at..].to_vec();
                looped.push(to_lower);
                return Err(RedirectError::Loop { chain: looped });
            }
            chain.push(to_lower);
            current = to;
        }
    }
    if let Some(r) = redirects.iter().find(|r| !r.to.eq_ignore_ascii_case(primary)) {
        return Err(RedirectError::NotToPrimary {
            from: r.from.clone(),
            to: r.to.clone(),
            primary: primary.to_owned(),
        });
    }
    Ok(())
}
