//! The record model: types, records, name comparison, and the `Resolver` that answers questions.

use std::fmt;

use serde::{Deserialize, Serialize};

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

    pub(crate) fn is_address(self) -> bool {
        matches!(self, RecordKind::A | RecordKind::Aaaa)
    }

    pub(crate) fn is_alias(self) -> bool {
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
