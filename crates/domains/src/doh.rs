//! DNS-over-HTTPS with the JSON API (`application/dns-json`, as Google and Cloudflare serve
//! it): the query URL and the parsing of answers into [`DnsRecord`]s. The page does the fetch.

use serde_json::Value;

use crate::dns::{DnsInstruction, DnsRecord, InstructionKind, RecordKind};

/// The `Accept` header value the request must carry.
pub const DOH_ACCEPT: &str = "application/dns-json";

/// A public resolver that serves the JSON API (the settings' default).
pub const DEFAULT_DOH_RESOLVER: &str = "https://cloudflare-dns.com/dns-query";

/// Why a DNS-over-HTTPS answer gave no records.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DohError {
    /// Status 3: the name does not exist (yet).
    #[error(
        "The name {name} does not exist in DNS (NXDOMAIN). If you just created the record, propagation usually takes a few minutes and can take up to 48 hours."
    )]
    NxDomain {
        /// The name asked about.
        name: String,
    },
    /// Status 2: the resolver could not get an answer from the domain's name servers.
    #[error(
        "The DNS resolver could not get an answer for {name} (SERVFAIL): the domain's name servers failed or returned broken DNSSEC data. Try again in a few minutes."
    )]
    ServFail {
        /// The name asked about.
        name: String,
    },
    /// Another non-zero status.
    #[error("The DNS resolver answered {name} with status {status} ({label}).")]
    Status {
        /// The name asked about.
        name: String,
        /// The DNS RCODE.
        status: u64,
        /// Its mnemonic, such as REFUSED.
        label: &'static str,
    },
    /// Not the JSON API's shape.
    #[error("The DNS resolver's answer could not be read: {0}")]
    Malformed(String),
}

impl DohError {
    /// Whether the error means "no record yet" (NXDOMAIN), which verification treats as an
    /// empty answer.
    #[must_use]
    pub fn is_not_found(&self) -> bool {
        matches!(self, DohError::NxDomain { .. })
    }
}

/// The numeric RR type of the JSON API for a kind. ALIAS and ANAME are not DNS types (the
/// provider answers with A/AAAA), so they have none.
#[must_use]
pub fn type_code(kind: RecordKind) -> Option<u16> {
    match kind {
        RecordKind::A => Some(1),
        RecordKind::Aaaa => Some(28),
        RecordKind::Cname => Some(5),
        RecordKind::Caa => Some(257),
        RecordKind::Txt => Some(16),
        RecordKind::Alias | RecordKind::Aname => None,
    }
}

fn kind_of(code: u64) -> Option<RecordKind> {
    match code {
        1 => Some(RecordKind::A),
        28 => Some(RecordKind::Aaaa),
        5 => Some(RecordKind::Cname),
        257 => Some(RecordKind::Caa),
        16 => Some(RecordKind::Txt),
        _ => None,
    }
}

/// The query URL: `{base}?name={name}&type={TYPE}` (`&` when `base` already has a query).
#[must_use]
pub fn query_url(base: &str, name: &str, kind: RecordKind) -> String {
    let separator = if base.contains('?') { '&' } else { '?' };
    let query = form_urlencoded::Serializer::new(String::new())
        .append_pair("name", name.trim_end_matches('.'))
        .append_pair("type", kind.as_str())
        .finish();
    format!("{base}{separator}{query}")
}

/// The `(name, type)` questions whose answers, collected into a [`crate::RecordSet`], let
/// [`crate::verify`] decide: the domain's CNAME, A and AAAA for a subdomain; for an apex its
/// A and AAAA and the CNAME target's A and AAAA (an ALIAS shows as the target's addresses).
#[must_use]
pub fn verification_queries(instruction: &DnsInstruction) -> Vec<(String, RecordKind)> {
    let name = instruction.domain.clone();
    match instruction.kind {
        InstructionKind::Cname => {
            vec![(name.clone(), RecordKind::Cname), (name.clone(), RecordKind::A), (name, RecordKind::Aaaa)]
        }
        InstructionKind::AliasOrAname => {
            let target = instruction.value.clone();
            vec![
                (name.clone(), RecordKind::A),
                (name, RecordKind::Aaaa),
                (target.clone(), RecordKind::A),
                (target, RecordKind::Aaaa),
            ]
        }
    }
}

/// The names whose CAA records decide whether the certificate may be issued: the domain and
/// each parent up to its last two labels (closest first), each to ask with type CAA.
#[must_use]
pub fn caa_queries(name: &str) -> Vec<String> {
    let mut names = vec![name.trim_end_matches('.').to_owned()];
    let mut current = name.trim_end_matches('.');
    while let Some((_, parent)) = current.split_once('.') {
        if !parent.contains('.') {
            break;
        }
        names.push(parent.to_owned());
        current = parent;
    }
    names
}

fn rcode_label(status: u64) -> &'static str {
    match status {
        1 => "FORMERR",
        4 => "NOTIMP",
        5 => "REFUSED",
        _ => "unknown status",
    }
}

/// Parses a JSON API answer body into records. Records of other types (RRSIG, ...) are
/// skipped; names and host-name values lose their trailing dot and are lower-cased; TXT
/// strings lose their quotes; CAA in RFC 3597 hex form (`\# 19 00 05 ...`, as Cloudflare
/// sends it) becomes `0 issue "letsencrypt.org"`.
///
/// # Errors
/// NXDOMAIN, SERVFAIL, another non-zero status, or JSON that is not the API's shape.
pub fn parse_answer(body: &str) -> Result<Vec<DnsRecord>, DohError> {
    let json: Value =
        serde_json::from_str(body).map_err(|e| DohError::Malformed(format!("it is not JSON ({e}).")))?;
    let status = json
        .get("Status")
        .and_then(Value::as_u64)
        .ok_or_else(|| DohError::Malformed("the Status field is missing or not a number.".to_owned()))?;
    let asked = json
        .get("Question")
        .and_then(Value::as_array)
        .and_then(|q| q.first())
        .and_then(|q| q.get("name"))
        .and_then(Value::as_str)
        .map_or_else(|| "the name".to_owned(), |n| n.trim_end_matches('.').to_ascii_lowercase());
    match status {
        0 => {}
        2 => return Err(DohError::ServFail { name: asked }),
        3 => return Err(DohError::NxDomain { name: asked }),
        other => return Err(DohError::Status { name: asked, status: other, label: rcode_label(other) }),
    }
    let answers = match json.get("Answer") {
        None | Some(Value::Null) => return Ok(Vec::new()),
        Some(Value::Array(items)) => items,
        Some(_) => return Err(DohError::Malformed("Answer is not a list.".to_owned())),
    };
    let mut records = Vec::new();
    for (i, item) in answers.iter().enumerate() {
        let field =
            |key: &str| item.get(key).ok_or_else(|| DohError::Malformed(format!("answer {i} has no {key}.")));
        let name = field("name")?
            .as_str()
            .ok_or_else(|| DohError::Malformed(format!("answer {i}: name is not text.")))?;
        let code = field("type")?
            .as_u64()
            .ok_or_else(|| DohError::Malformed(format!("answer {i}: type is not a number.")))?;
        let ttl = field("TTL")?
            .as_u64()
            .and_then(|t| u32::try_from(t).ok())
            .ok_or_else(|| DohError::Malformed(format!("answer {i}: TTL is not a number.")))?;
        let data = field("data")?
            .as_str()
            .ok_or_else(|| DohError::Malformed(format!("answer {i}: data is not text.")))?;
        let Some(kind) = kind_of(code) else { continue };
        let value = match kind {
            RecordKind::Cname => data.trim_end_matches('.').to_ascii_lowercase(),
            RecordKind::Txt => unquote_txt(data),
            RecordKind::Caa => caa_text(data).map_err(|e| DohError::Malformed(format!("answer {i}: {e}")))?,
            _ => data.to_owned(),
        };
        records.push(DnsRecord { name: name.trim_end_matches('.').to_ascii_lowercase(), kind, value, ttl });
    }
    Ok(records)
}

/// `"v=spf1" " -all"` -> `v=spf1 -all` (character-strings joined as DNS does).
fn unquote_txt(data: &str) -> String {
    let trimmed = data.trim();
    if !trimmed.starts_with('"') {
        return trimmed.to_owned();
    }
    trimmed.split('"').enumerate().filter(|(i, _)| i % 2 == 1).map(|(_, s)| s).collect::<String>()
}

/// A CAA value in presentation form, or decoded from RFC 3597's `\# len hex...`.
fn caa_text(data: &str) -> Result<String, String> {
    let Some(rest) = data.trim().strip_prefix("\\#") else {
        return Ok(data.trim().to_owned());
    };
    let mut parts = rest.split_whitespace();
    let len: usize = parts.next().and_then(|l| l.parse().ok()).ok_or("the CAA length is missing.")?;
    let hex: String = parts.collect();
    let bytes: Vec<u8> = (0..hex.len())
        .step_by(2)
        .map(|i| hex.get(i..i + 2).and_then(|b| u8::from_str_radix(b, 16).ok()))
        .collect::<Option<_>>()
        .ok_or("the CAA data is not hexadecimal.")?;
    if bytes.len() != len || len < 2 {
        return Err("the CAA data length does not match.".to_owned());
    }
    let tag_len = usize::from(bytes[1]);
    let tag = bytes.get(2..2 + tag_len).ok_or("the CAA tag is cut short.")?;
    let value = &bytes[2 + tag_len..];
    Ok(format!("{} {} \"{}\"", bytes[0], String::from_utf8_lossy(tag), String::from_utf8_lossy(value)))
}
