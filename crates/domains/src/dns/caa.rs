//! CAA (RFC 8659): the parsed record value and the check that can block the certificate.

use std::fmt;

use super::record::{DnsRecord, RecordKind, Resolver, same_name};

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
/// set is the CAA records of the closest name, walking up from `name` to its top-level domain,
/// that has any; it blocks when it has `issue` properties and none of them names the issuer.
/// Empty when issuance may go ahead. The records keep their own name: where they were found,
/// which [`caa_blocking_reason`] names.
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
            Some((_, parent)) if !parent.is_empty() => current = parent,
            _ => return Vec::new(),
        }
    }
}

/// Why `records` (what [`caa_blocking`] found) stop `issuer`, naming where they are and the
/// authorities they allow, as in `the CAA records at example.com allow only digicert.com to
/// issue certificates, not letsencrypt.org, the certificate authority used here`.
#[must_use]
pub fn caa_blocking_reason(issuer: &str, records: &[DnsRecord]) -> String {
    let place = records.first().map_or("", |r| r.name.trim_end_matches('.'));
    let mut allowed: Vec<String> = Vec::new();
    for caa in records.iter().filter_map(|r| Caa::parse(&r.value).ok()) {
        let domain = caa.value.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
        if !domain.is_empty() && !allowed.contains(&domain) {
            allowed.push(domain);
        }
    }
    if allowed.is_empty() {
        format!(
            "the CAA records at {place} allow no certificate authority to issue certificates, so not {issuer}, the certificate authority used here"
        )
    } else {
        format!(
            "the CAA records at {place} allow only {} to issue certificates, not {issuer}, the certificate authority used here",
            allowed.join(", ")
        )
    }
}
