//! Helpers the domain tests share.
// Each test file is its own crate and uses only some of these.
#![allow(dead_code)]

use playground_domains::{DnsRecord, RecordKind, Settings, SimulatedZone};

pub fn idna(input: &str) -> Result<String, String> {
    idna::domain_to_ascii(input).map_err(|e| format!("{e:?}"))
}

pub fn settings() -> Settings {
    Settings::example()
}

pub const TARGET: &str = "cname.docs-host.dev";

pub fn rec(name: &str, kind: RecordKind, value: &str) -> DnsRecord {
    DnsRecord::new(name, kind, value, 3600)
}

pub fn good_cname(name: &str) -> SimulatedZone {
    let mut zone = SimulatedZone::new();
    zone.add(rec(name, RecordKind::Cname, TARGET)).expect("a valid CNAME");
    zone
}
