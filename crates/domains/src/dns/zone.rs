//! The simulated zone of the offline demo: an editable list of records, each checked as a DNS
//! provider would before it is stored.

use std::net::{Ipv4Addr, Ipv6Addr};

use serde::{Deserialize, Serialize};

use super::caa::Caa;
use super::record::{DnsRecord, RecordKind, Resolver, same_name};
use crate::name::normalize_host;

/// Highest TTL the simulated zone accepts (one week, what common DNS providers allow).
pub const MAX_TTL: u32 = 604_800;

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
