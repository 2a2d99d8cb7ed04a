//! DNS for custom domains: the record the owner must configure, the record model, the
//! `Resolver` seam with its simulated zone, verification with the troubleshooting causes, and
//! the CAA check that can block the certificate.

use std::fmt;
use std::net::{Ipv4Addr, Ipv6Addr};

use serde::{Deserialize, Serialize};

use super::name::{is_apex, normalize_host, subdomain_part};

/// TTL of the CNAME record the dashboard asks for (spec part 8).
pub const CNAME_TTL: u32 = 3600;
/// Highest TTL the simulated zone accepts (one week, what common DNS providers allow).
pub const MAX_TTL: u32 = 604_800;

/// The record types the dashboard deals with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum RecordKind {
    /// IPv4 address.
    A,
    /// IPv6 address.
    Aaaa,
    /// Canonical name (alias of a subdomain).
    Cname,
    /// Provider-specific apex alias.
    Alias,
    /// Provider-specific apex alias (another name for ALIAS).
    Aname,
    /// Certification Authority Authorization.
    Caa,
    /// Free text.
    Txt,
}

impl RecordKind {
    /// Every kind, in the order the page lists them.
    pub const ALL: [RecordKind; 7] = [
        RecordKind::A,
        RecordKind::Aaaa,
        RecordKind::Cname,
        RecordKind::Alias,
        RecordKind::Aname,
        RecordKind::Caa,
        RecordKind::Txt,
    ];

    /// The type's name as DNS tools print it (`CNAME`).
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            RecordKind::A => "A",
            RecordKind::Aaaa => "AAAA",
            RecordKind::Cname => "CNAME",
            RecordKind::Alias => "ALIAS",
            RecordKind::Aname => "ANAME",
            RecordKind::Caa => "CAA",
            RecordKind::Txt => "TXT",
        }
    }

    /// Parses a type name, any case.
    #[must_use]
    pub fn parse(text: &str) -> Option<RecordKind> {
        RecordKind::ALL.into_iter().find(|k| k.as_str().eq_ignore_ascii_case(text.trim()))
    }

    fn is_address(self) -> bool {
        matches!(self, RecordKind::A | RecordKind::Aaaa)
    }

    fn is_alias(self) -> bool {
        matches!(self, RecordKind::Alias | RecordKind::Aname)
    }
}

impl fmt::Display for RecordKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One DNS record: full owner name, type, value (as DNS tools print it) and TTL in seconds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DnsRecord {
    /// Fully qualified owner name, such as `docs.example.com`.
    pub name: String,
    /// Record type.
    pub kind: RecordKind,
    /// Value: an address, a host name, `0 issue "letsencrypt.org"`, or text.
    pub value: String,
    /// Time to live in seconds.
    pub ttl: u32,
}

impl DnsRecord {
    /// A record from its parts.
    #[must_use]
    pub fn new(name: &str, kind: RecordKind, value: &str, ttl: u32) -> DnsRecord {
        DnsRecord { name: name.to_owned(), kind, value: value.to_owned(), ttl }
    }
}

impl fmt::Display for DnsRecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} {} (TTL {})", self.name, self.kind, self.value, self.ttl)
    }
}

/// Compares two DNS names or host-name values: case-insensitive, trailing dot ignored.
#[must_use]
pub fn same_name(a: &str, b: &str) -> bool {
    a.trim().trim_end_matches('.').eq_ignore_ascii_case(b.trim().trim_end_matches('.'))
}

/// Answers DNS questions: every record whose owner name is `name` (any type). The simulated
/// zone implements it; for real domains the page collects DNS-over-HTTPS answers into a
/// [`RecordSet`] and passes that.
pub trait Resolver {
    /// Records owned by `name` (compared with [`same_name`]).
    fn records(&self, name: &str) -> Vec<DnsRecord>;
}

/// A fixed list of records, such as the collected answers of DNS-over-HTTPS queries.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RecordSet(pub Vec<DnsRecord>);

impl Resolver for RecordSet {
    fn records(&self, name: &str) -> Vec<DnsRecord> {
        self.0.iter().filter(|r| same_name(&r.name, name)).cloned().collect()
    }
}

/// Why the simulated zone refused a record.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ZoneError {
    /// The owner name is not a valid DNS name.
    #[error("The record name \u{201c}{name}\u{201d} is not valid: {reason}")]
    BadName {
        /// The name as entered.
        name: String,
        /// Why.
        reason: String,
    },
    /// The value does not fit the type.
    #[error("\u{201c}{value}\u{201d} is not a valid {kind} value: {reason}")]
    BadValue {
        /// The record type.
        kind: RecordKind,
        /// The value as entered.
        value: String,
        /// Why.
        reason: String,
    },
    /// TTL out of range.
    #[error("A TTL of {ttl} seconds is out of range; use 1 to 604800 (3600 is common).")]
    BadTtl {
        /// The TTL entered.
        ttl: u32,
    },
    /// The same name, type and value already exist.
    #[error("The zone already has {record}.")]
    Duplicate {
        /// The existing record.
        record: String,
    },
    /// No record at that position.
    #[error("There is no record number {index} in the zone.")]
    NoSuchRecord {
        /// The 0-based position asked for.
        index: usize,
    },
}

/// An editable DNS zone for the offline demo and the tests: a list of records, each checked
/// when added or changed. It may hold conflicting records (an A beside a CNAME) on purpose, so
/// verification can show that cause.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SimulatedZone {
    records: Vec<DnsRecord>,
}

impl SimulatedZone {
    /// An empty zone.
    #[must_use]
    pub fn new() -> SimulatedZone {
        SimulatedZone::default()
    }

    /// The records, in the order they were added.
    #[must_use]
    pub fn records(&self) -> &[DnsRecord] {
        &self.records
    }

    /// Adds a record after checking it; returns the stored (normalised) record.
    ///
    /// # Errors
    /// A bad name, value or TTL, or an exact duplicate.
    pub fn add(&mut self, record: DnsRecord) -> Result<DnsRecord, ZoneError> {
        let record = check_record(record)?;
        self.refuse_duplicate(&record, None)?;
        self.records.push(record.clone());
        Ok(record)
    }

    /// Replaces the record at `index` after checking the new one.
    ///
    /// # Errors
    /// No record there, or the new record is refused as by [`SimulatedZone::add`].
    pub fn update(&mut self, index: usize, record: DnsRecord) -> Result<DnsRecord, ZoneError> {
        if index >= self.records.len() {
            return Err(ZoneError::NoSuchRecord { index });
        }
        let record = check_record(record)?;
        self.refuse_duplicate(&record, Some(index))?;
        self.records[index] = record.clone();
        Ok(record)
    }

    /// Removes and returns the record at `index`.
    ///
    /// # Errors
    /// No record there.
    pub fn remove(&mut self, index: usize) -> Result<DnsRecord, ZoneError> {
        if index >= self.records.len() {
            return Err(ZoneError::NoSuchRecord { index });
        }
        Ok(self.records.remove(index))
    }

    /// Checks every record as [`SimulatedZone::add`] would (for state read from storage).
    ///
    /// # Errors
    /// The first record refused.
    pub fn check(&self) -> Result<(), ZoneError> {
        let mut fresh = SimulatedZone::new();
        for record in &self.records {
            let stored = fresh.add(record.clone())?;
            if &stored != record {
                return Err(ZoneError::BadName {
                    name: record.name.clone(),
                    reason: "it is not stored in normal form.".to_owned(),
                });
            }
        }
        Ok(())
    }

    fn refuse_duplicate(&self, record: &DnsRecord, except: Option<usize>) -> Result<(), ZoneError> {
        let clash = self.records.iter().enumerate().any(|(i, r)| {
            Some(i) != except
                && r.kind == record.kind
                && same_name(&r.name, &record.name)
                && r.value.eq_ignore_ascii_case(&record.value)
        });
        if clash {
            return Err(ZoneError::Duplicate {
                record: format!("{} {} {}", record.name, record.kind, record.value),
            });
        }
        Ok(())
    }
}

impl Resolver for SimulatedZone {
    fn records(&self, name: &str) -> Vec<DnsRecord> {
        self.records.iter().filter(|r| same_name(&r.name, name)).cloned().collect()
    }
}

fn no_idna(_: &str) -> Result<String, String> {
    Err("enter internationalised names in their xn-- form here.".to_owned())
}

/// A zone owner name may also have `_service` labels and a leading `*`.
fn check_owner_name(name: &str) -> Result<String, ZoneError> {
    let bad = |reason: String| ZoneError::BadName { name: name.to_owned(), reason };
    let lower = name.trim().trim_end_matches('.').to_ascii_lowercase();
    let plain: Vec<String> = lower
        .split('.')
        .enumerate()
        .map(|(i, l)| match l {
            "*" if i == 0 => "wildcard".to_owned(),
            _ => l.strip_prefix('_').map_or_else(|| l.to_owned(), |rest| format!("u{rest}")),
        })
        .collect();
    normalize_host(&plain.join("."), &no_idna).map_err(|e| bad(e.to_string()))?;
    Ok(lower)
}

fn check_record(record: DnsRecord) -> Result<DnsRecord, ZoneError> {
    let name = check_owner_name(&record.name)?;
    let kind = record.kind;
    let raw = record.value.trim();
    let bad = |reason: &str| ZoneError::BadValue { kind, value: raw.to_owned(), reason: reason.to_owned() };
    let value = match kind {
        RecordKind::A => raw
            .parse::<Ipv4Addr>()
            .map_err(|_| bad("expected an IPv4 address such as 192.0.2.10."))?
            .to_string(),
        RecordKind::Aaaa => raw
            .parse::<Ipv6Addr>()
            .map_err(|_| bad("expected an IPv6 address such as 2001:db8::10."))?
            .to_string(),
        RecordKind::Cname | RecordKind::Alias | RecordKind::Aname => {
            normalize_host(raw, &no_idna).map_err(|e| bad(&e.to_string()))?
        }
        RecordKind::Caa => {
            let caa = Caa::parse(raw).map_err(|reason| bad(&reason))?;
            caa.to_string()
        }
        RecordKind::Txt => {
            if raw.is_empty() {
                return Err(bad("a TXT record needs some text."));
            }
            raw.to_owned()
        }
    };
    if record.ttl == 0 || record.ttl > MAX_TTL {
        return Err(ZoneError::BadTtl { ttl: record.ttl });
    }
    Ok(DnsRecord { name, kind, value, ttl: record.ttl })
}

/// A parsed CAA record value: `flags tag "value"`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Caa {
    /// Flags (128 = critical).
    pub flags: u8,
    /// `issue`, `issuewild` or `iodef`.
    pub tag: String,
    /// The property value without quotes, such as `letsencrypt.org`.
    pub value: String,
}

impl Caa {
    /// Parses `0 issue "letsencrypt.org"` (the quotes are optional).
    ///
    /// # Errors
    /// The reason the text is not a CAA value.
    pub fn parse(text: &str) -> Result<Caa, String> {
        let mut parts = text.trim().splitn(3, char::is_whitespace);
        let flags = parts
            .next()
            .and_then(|f| f.parse::<u8>().ok())
            .ok_or("a CAA value starts with flags 0 to 255, as in 0 issue \"letsencrypt.org\".")?;
        let tag = parts.next().unwrap_or("").to_ascii_lowercase();
        if tag.is_empty() || !tag.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return Err("the CAA tag (issue, issuewild or iodef) is missing.".to_owned());
        }
        let value = parts.next().unwrap_or("").trim();
        let value = value.strip_prefix('"').and_then(|v| v.strip_suffix('"')).unwrap_or(value);
        Ok(Caa { flags, tag, value: value.to_owned() })
    }

    /// Whether this `issue` property names `issuer` (the domain before any `;` parameters).
    #[must_use]
    pub fn names_issuer(&self, issuer: &str) -> bool {
        let domain = self.value.split(';').next().unwrap_or("").trim();
        !domain.is_empty() && same_name(domain, issuer)
    }
}

impl fmt::Display for Caa {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} \"{}\"", self.flags, self.tag, self.value)
    }
}

/// The CAA records that stop `issuer` from issuing for `name`, if any (RFC 8659): the relevant
/// set is the CAA records of the closest name, walking up from `name`, that has any; it blocks
/// when it has `issue` properties and none of them names the issuer. Empty when issuance may go
/// ahead.
#[must_use]
pub fn caa_blocking(name: &str, issuer: &str, resolver: &dyn Resolver) -> Vec<DnsRecord> {
    let mut current = name.trim_end_matches('.');
    loop {
        let set: Vec<DnsRecord> =
            resolver.records(current).into_iter().filter(|r| r.kind == RecordKind::Caa).collect();
        if !set.is_empty() {
            let issue: Vec<&DnsRecord> =
                set.iter().filter(|r| Caa::parse(&r.value).is_ok_and(|c| c.tag == "issue")).collect();
            let allowed = issue.iter().any(|r| Caa::parse(&r.value).is_ok_and(|c| c.names_issuer(issuer)));
            return if issue.is_empty() || allowed {
                Vec::new()
            } else {
                issue.into_iter().cloned().collect()
            };
        }
        match current.split_once('.') {
            Some((_, parent)) if parent.contains('.') => current = parent,
            _ => return Vec::new(),
        }
    }
}

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
/// (see [`super::name::is_apex`]) gets an ALIAS or ANAME with the provider caveat.
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
    /// An A or AAAA record for the same name blocks the CNAME (or ALIAS).
    #[error("A conflicting DNS record exists for {name}: {}. An existing A or AAAA record blocks the {expected}; delete it at your DNS provider, then verify again.", list(.records))]
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
/// ignored) and no A/AAAA record exists for the same name.
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
    let addresses: Vec<DnsRecord> = records.iter().filter(|r| r.kind.is_address()).cloned().collect();
    if !addresses.is_empty() {
        if instruction.kind == InstructionKind::AliasOrAname
            && candidates.is_empty()
            && is_flattened(&addresses, &instruction.value, resolver)
        {
            return Ok(addresses[0].clone());
        }
        return Err(VerifyFailure::Conflict {
            name: name.clone(),
            expected: instruction.kind.label().to_owned(),
            records: addresses,
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
