//! What the owner must configure for a domain and the check of what DNS answers against it,
//! with the troubleshooting causes.

use serde::{Deserialize, Serialize};

use super::record::{DnsRecord, RecordKind, Resolver, same_name};
use crate::name::{is_apex, subdomain_part};

/// TTL of the CNAME record the dashboard asks for (spec part 8).
pub const CNAME_TTL: u32 = 3600;

/// Which record the owner must create.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum InstructionKind {
    /// A CNAME record (subdomains).
    Cname,
    /// An ALIAS or ANAME record (apex domains).
    AliasOrAname,
}

/// The DNS record the dashboard shows after "Add domain" (spec part 3).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DnsInstruction {
    /// The custom domain it is for.
    pub domain: String,
    /// CNAME for a subdomain; ALIAS or ANAME for an apex.
    pub kind: InstructionKind,
    /// The name field at the registrar: the subdomain label(s) relative to the registrable
    /// zone (`docs` for `docs.example.com`); `None` for an apex (the spec gives no name; most
    /// providers write `@` or leave it empty).
    pub name: Option<String>,
    /// The value: the platform's CNAME target. For an apex the spec gives no value; the ALIAS
    /// must point at the same target, which is what verification checks.
    pub value: String,
    /// TTL in seconds for a CNAME; `None` for an apex (the spec gives none: provider default).
    pub ttl: Option<u32>,
    /// A caveat to show beside the record, if any.
    pub caveat: Option<String>,
}

/// The caveat shown for apex domains.
pub const APEX_CAVEAT: &str = "Not every DNS provider supports ALIAS or ANAME records for apex domains. If yours does not, use a subdomain such as www or docs instead.";

/// The record to configure for a normalised custom domain: a subdomain gets a CNAME (name =
/// its labels relative to the registrable zone, value = `cname_target`, TTL 3600); an apex
/// (see [`crate::name::is_apex`]) gets an ALIAS or ANAME with the provider caveat.
#[must_use]
pub fn instructions(domain: &str, cname_target: &str) -> DnsInstruction {
    let value = cname_target.trim_end_matches('.').to_ascii_lowercase();
    if is_apex(domain) {
        DnsInstruction {
            domain: domain.to_owned(),
            kind: InstructionKind::AliasOrAname,
            name: None,
            value,
            ttl: None,
            caveat: Some(APEX_CAVEAT.to_owned()),
        }
    } else {
        DnsInstruction {
            domain: domain.to_owned(),
            kind: InstructionKind::Cname,
            name: subdomain_part(domain).map(str::to_owned),
            value,
            ttl: Some(CNAME_TTL),
            caveat: None,
        }
    }
}

/// Why verification did not pass: the causes of spec part 7.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VerifyFailure {
    /// Another record of the same name blocks the CNAME (any other record: a CNAME cannot
    /// share its name), or an A or AAAA record blocks the apex's ALIAS.
    #[error("A conflicting DNS record exists for {name}: {}. {}; delete it at your DNS provider, then verify again.", list(.records), why(.expected))]
    Conflict {
        /// The domain.
        name: String,
        /// The record type that was expected.
        expected: String,
        /// The conflicting records.
        records: Vec<DnsRecord>,
    },
    /// The record exists but points elsewhere.
    #[error(
        "The {kind} record of {name} points to {found}, but the dashboard shows {expected}. Change its value to {expected}, then verify again."
    )]
    ValueDiffers {
        /// The domain.
        name: String,
        /// The type of the record found.
        kind: RecordKind,
        /// The value shown in the dashboard.
        expected: String,
        /// The value found.
        found: String,
    },
    /// Nothing found yet.
    #[error(
        "No {expected} record was found for {name} yet. DNS changes usually propagate within a few minutes but can take up to 48 hours; check the record at your DNS provider and verify again later."
    )]
    NotFound {
        /// The domain.
        name: String,
        /// The record type that was expected (`CNAME`, `ALIAS or ANAME`).
        expected: String,
    },
}

fn why(expected: &str) -> String {
    if expected == InstructionKind::Cname.label() {
        "A CNAME record cannot share its name with any other record".to_owned()
    } else {
        format!("An existing A or AAAA record blocks the {expected}")
    }
}

fn list(records: &[DnsRecord]) -> String {
    records.iter().map(|r| format!("{} {}", r.kind, r.value)).collect::<Vec<_>>().join(", ")
}

impl InstructionKind {
    /// How the record type is named in messages.
    #[must_use]
    pub fn label(self) -> &'static str {
        match self {
            InstructionKind::Cname => "CNAME",
            InstructionKind::AliasOrAname => "ALIAS or ANAME",
        }
    }
}

/// Checks the records a resolver returns for the domain against the instruction. Passes (with
/// the matching record) when the expected record matches (case-insensitive, trailing dot
/// ignored) and nothing conflicts: for a CNAME, no other record of the same name at all (TXT,
/// CAA and A alike: RFC 1034 lets a CNAME share its name with nothing); for an apex ALIAS, no
/// A/AAAA record (an apex keeps its other records).
///
/// An apex ALIAS is invisible over real DNS (the provider answers with the target's
/// addresses), so an apex with A/AAAA records also passes when they are exactly the addresses
/// the resolver returns for the CNAME target (a flattened ALIAS).
///
/// # Errors
/// The cause, in the order conflict, value differs, not found.
pub fn verify(instruction: &DnsInstruction, resolver: &dyn Resolver) -> Result<DnsRecord, VerifyFailure> {
    let name = &instruction.domain;
    let records: Vec<DnsRecord> =
        resolver.records(name).into_iter().filter(|r| same_name(&r.name, name)).collect();
    let wanted = |r: &&DnsRecord| match instruction.kind {
        InstructionKind::Cname => r.kind == RecordKind::Cname,
        InstructionKind::AliasOrAname => r.kind.is_alias(),
    };
    let candidates: Vec<&DnsRecord> = records.iter().filter(wanted).collect();
    let conflicts: Vec<DnsRecord> = match instruction.kind {
        // A CNAME shares its name with nothing.
        InstructionKind::Cname => records.iter().filter(|r| r.kind != RecordKind::Cname).cloned().collect(),
        // An apex keeps its other records; only addresses stand in the ALIAS's way, unless
        // they are the flattened ALIAS itself.
        InstructionKind::AliasOrAname => {
            let addresses: Vec<DnsRecord> = records.iter().filter(|r| r.kind.is_address()).cloned().collect();
            if !addresses.is_empty()
                && candidates.is_empty()
                && is_flattened(&addresses, &instruction.value, resolver)
            {
                return Ok(addresses[0].clone());
            }
            addresses
        }
    };
    if !conflicts.is_empty() {
        return Err(VerifyFailure::Conflict {
            name: name.clone(),
            expected: instruction.kind.label().to_owned(),
            records: conflicts,
        });
    }
    if let Some(found) = candidates.iter().find(|r| same_name(&r.value, &instruction.value)) {
        return Ok((*found).clone());
    }
    if let Some(other) = candidates.first() {
        return Err(VerifyFailure::ValueDiffers {
            name: name.clone(),
            kind: other.kind,
            expected: instruction.value.clone(),
            found: other.value.trim_end_matches('.').to_owned(),
        });
    }
    Err(VerifyFailure::NotFound { name: name.clone(), expected: instruction.kind.label().to_owned() })
}

fn is_flattened(addresses: &[DnsRecord], target: &str, resolver: &dyn Resolver) -> bool {
    let mut theirs: Vec<(RecordKind, String)> = resolver
        .records(target)
        .into_iter()
        .filter(|r| r.kind.is_address())
        .map(|r| (r.kind, r.value.to_ascii_lowercase()))
        .collect();
    let mut ours: Vec<(RecordKind, String)> =
        addresses.iter().map(|r| (r.kind, r.value.to_ascii_lowercase())).collect();
    theirs.sort_by(|a, b| (a.0.as_str(), &a.1).cmp(&(b.0.as_str(), &b.1)));
    ours.sort_by(|a, b| (a.0.as_str(), &a.1).cmp(&(b.0.as_str(), &b.1)));
    theirs.dedup();
    ours.dedup();
    !theirs.is_empty() && theirs == ours
}
