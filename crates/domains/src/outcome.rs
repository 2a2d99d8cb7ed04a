//! What the dashboard says after an action: the sentence for each thing that can happen to a
//! domain, and the outcome a domain's card shows, so the words are tested on the host.

use std::fmt;

use crate::dns::{DnsRecord, InstructionKind, VerifyFailure, caa_blocking_reason};
use crate::machine::Refusal;

/// Something that happened to one domain, as the page reports it ([`fmt::Display`] gives the
/// sentence).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// The domain was added and waits for its DNS record.
    Added {
        /// The domain.
        name: String,
        /// The record to create.
        kind: InstructionKind,
    },
    /// A (re-)verification passed.
    Verified {
        /// The domain.
        name: String,
        /// Whether it was Re-verify (a fresh attempt) rather than the first Verify.
        again: bool,
        /// Whether the certificate was issued at once, so the domain is live.
        live: bool,
    },
    /// A (re-)verification passed, but CAA records do not allow the certificate authority: no
    /// certificate is requested until they do and the domain is verified again.
    VerifiedBlockedByCaa {
        /// The domain.
        name: String,
        /// Whether it was Re-verify rather than the first Verify.
        again: bool,
        /// Whether it keeps serving with its current certificate (a live domain re-verified).
        serving: bool,
        /// The certificate authority's CAA name.
        authority: String,
        /// The blocking records, each with the name that holds it ([`crate::dns::caa_blocking`]).
        records: Vec<DnsRecord>,
    },
    /// A live domain passed a fresh verification: it keeps serving while a new certificate is
    /// issued.
    Reverified {
        /// The domain.
        name: String,
    },
    /// The certificate was issued later, as time passed: the domain is live.
    CertificateIssued {
        /// The domain.
        name: String,
    },
    /// The domain became the primary.
    MadePrimary {
        /// The domain.
        name: String,
    },
    /// A live domain was kept attached as a 301 redirect instead of being removed.
    KeptAsRedirect {
        /// The domain.
        name: String,
        /// Where it redirects.
        target: String,
    },
    /// A domain that serves was set to redirect to the primary, or to serve the project
    /// itself.
    RoleChanged {
        /// The domain.
        name: String,
        /// What it does now.
        role: crate::DomainRole,
        /// The primary it redirects to.
        primary: String,
    },
    /// The domain was detached.
    Removed {
        /// The domain.
        name: String,
        /// Whether it was serving the project when it was removed.
        was_live: bool,
        /// Where the project is published now.
        published: String,
    },
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::Added { name, kind } => write!(
                f,
                "{name} was added. Create the {} record shown below at your DNS provider, then select Verify.",
                kind.label()
            ),
            Event::Verified { name, again, live } => {
                if *again {
                    write!(f, "A fresh verification of {name} passed: its DNS record matches.")?;
                } else {
                    write!(f, "{name} is verified: its DNS record matches.")?;
                }
                if *live {
                    write!(
                        f,
                        " Its SSL certificate has been issued: {name} is live and serves the project over HTTPS."
                    )
                } else {
                    f.write_str(
                        " Its SSL certificate is now issued automatically, usually within a couple of minutes; there is nothing to install or renew.",
                    )
                }
            }
            Event::VerifiedBlockedByCaa { name, again, serving, authority, records } => {
                if *again {
                    write!(f, "A fresh verification of {name} passed: its DNS record matches.")?;
                } else {
                    write!(f, "{name} is verified: its DNS record matches.")?;
                }
                let place = records.first().map_or(name.as_str(), |r| r.name.trim_end_matches('.'));
                write!(
                    f,
                    " But its SSL certificate cannot be issued: {}. Add the CAA record 0 issue \"{authority}\" at {place} (or remove the records there that name other authorities), then select Re-verify.",
                    caa_blocking_reason(authority, records)
                )?;
                if *serving {
                    write!(f, " {name} keeps serving the project with its current certificate meanwhile.")?;
                }
                Ok(())
            }
            Event::Reverified { name } => write!(
                f,
                "A fresh verification of {name} passed: its DNS record matches. {name} keeps serving the project with its current certificate while a new one is issued, usually within a couple of minutes."
            ),
            Event::CertificateIssued { name } => write!(
                f,
                "The SSL certificate of {name} has been issued: {name} is live and serves the project over HTTPS."
            ),
            Event::MadePrimary { name } => write!(
                f,
                "{name} is now the primary domain; every other live domain redirects to it with 301, except those set to serve the project themselves."
            ),
            Event::RoleChanged { name, role: crate::DomainRole::Serve, .. } => write!(
                f,
                "{name} now serves the project itself (for a region or an audience of its own) instead of redirecting."
            ),
            Event::RoleChanged { name, role: crate::DomainRole::Redirect, primary } => {
                write!(f, "{name} now redirects to {primary} with 301.")
            }
            Event::KeptAsRedirect { name, target } => write!(
                f,
                "{name} stays attached and now redirects to {target} with 301, so inbound links keep working (see the domain configuration). Remove it later, once the links have moved."
            ),
            Event::Removed { name, was_live: true, published } => write!(
                f,
                "{name} was removed and no longer serves the project. The project is published at {published}."
            ),
            Event::Removed { name, was_live: false, .. } => {
                write!(f, "{name} was removed. You can delete its DNS record at your DNS provider.")
            }
        }
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
    /// An action that went through.
    #[must_use]
    pub fn done(event: &Event) -> Outcome {
        Outcome { ok: true, message: event.to_string(), differs: None }
    }

    /// An action the dashboard refused; a record that points elsewhere also gives both values,
    /// so the card can show them side by side.
    #[must_use]
    pub fn refused(refusal: &Refusal) -> Outcome {
        let differs = match refusal {
            Refusal::VerificationFailed {
                cause: VerifyFailure::ValueDiffers { expected, found, .. },
                ..
            } => Some((expected.clone(), found.clone())),
            _ => None,
        };
        Outcome { ok: false, message: refusal.to_string(), differs }
    }

    /// An action that could not be carried out, with the reason (such as an unreachable
    /// DNS-over-HTTPS resolver).
    #[must_use]
    pub fn failed(message: String) -> Outcome {
        Outcome { ok: false, message, differs: None }
    }
}
