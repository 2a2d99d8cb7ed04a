//! Real DNS answers for custom domains: the CNAME, A and AAAA records at a name (what
//! [`playground_domains::verify`] checks) and the CAA records that decide which certificate
//! authorities may issue for it (RFC 8659).

use std::fmt;
use std::net::SocketAddr;
use std::time::Duration;

use hickory_resolver::config::{
    ConnectionConfig, NameServerConfig, ResolveHosts, ResolverConfig, ResolverOpts,
};
use hickory_resolver::net::NetError;
use hickory_resolver::net::runtime::TokioRuntimeProvider;
use hickory_resolver::proto::rr::{Name, RData, Record, RecordType};
use hickory_resolver::{Resolver, TokioResolver};
use playground_domains::dns::{Caa, same_name};
use playground_domains::{DnsRecord, RecordKind, RecordSet};

/// One CAA record: flags, tag (`issue`, `issuewild`, `iodef`, ...) and value, as in
/// `0 issue "letsencrypt.org"`. The same model the dashboard parses from DNS-over-HTTPS answers.
pub type CaaRecord = Caa;

/// The CAA records that decide for a name, and the name that holds them: the name asked about
/// or the closest parent with any (`caa-sub.test` for `docs.caa-sub.test`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaaSet {
    /// Where the records are, lower case, without the trailing dot.
    pub name: String,
    /// The records (at least one).
    pub records: Vec<CaaRecord>,
}

/// How long one question may take, all retries included: past it the lookup fails with
/// [`DnsFailure::Timeout`].
pub const LOOKUP_DEADLINE: Duration = Duration::from_secs(12);
/// How long the resolver waits for one server's answer before it tries again.
const ATTEMPT_TIMEOUT: Duration = Duration::from_secs(3);
/// Answers kept from one question: enough for any real record set, small enough to bound memory.
const MAX_ANSWERS: usize = 64;
/// The longest DNS name (RFC 1035) once the trailing dot is gone.
const MAX_NAME_LEN: usize = 253;

/// Why a DNS question failed. An absent name or an empty answer is not a failure.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DnsFailure {
    /// No answer within the deadline.
    Timeout,
    /// The server answered with an error code, such as `SERVFAIL` or `REFUSED`.
    Server(String),
    /// The name is not a valid DNS name.
    InvalidName,
    /// Anything else (network, malformed answer), with the resolver's words.
    Other(String),
}

/// A DNS question that got no usable answer: which name and type, asked of which servers, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DnsError {
    /// The name asked about.
    pub name: String,
    /// The record type asked for (`CNAME`, `A`, `AAAA`, `CAA`).
    pub record_type: String,
    /// The servers asked, such as `127.0.0.1:8053` or `the system's resolvers (192.0.2.53:53)`.
    pub servers: String,
    /// What went wrong.
    pub failure: DnsFailure,
}

impl fmt::Display for DnsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.name.is_empty() {
            write!(f, "DNS at {} is unusable: {}", self.servers, self.failure)
        } else {
            write!(
                f,
                "DNS lookup of {} records for {} at {} failed: {}",
                self.record_type, self.name, self.servers, self.failure
            )
        }
    }
}

impl std::error::Error for DnsError {}

impl fmt::Display for DnsFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DnsFailure::Timeout => write!(f, "no answer within {} seconds", LOOKUP_DEADLINE.as_secs()),
            DnsFailure::Server(code) => write!(f, "the server answered {code}"),
            DnsFailure::InvalidName => f.write_str("not a valid DNS name"),
            DnsFailure::Other(text) => f.write_str(text),
        }
    }
}

/// A DNS resolver: the system's or one configured server. Cheap to clone; nothing is cached, so
/// a changed record shows at the next question.
#[derive(Clone)]
pub struct Dns {
    resolver: TokioResolver,
    servers: String,
}

impl fmt::Debug for Dns {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Dns").field("servers", &self.servers).finish_non_exhaustive()
    }
}

fn options() -> ResolverOpts {
    let mut options = ResolverOpts::default();
    options.timeout = ATTEMPT_TIMEOUT;
    options.attempts = 2;
    options.cache_size = 0;
    options.use_hosts_file = ResolveHosts::Never;
    options.preserve_intermediates = true;
    options
}

impl Dns {
    /// The system's resolvers (`/etc/resolv.conf`), without its search domains (names are
    /// asked as fully qualified).
    ///
    /// # Errors
    /// The system configuration cannot be read.
    pub fn system() -> Result<Dns, DnsError> {
        let failed = |failure| DnsError {
            name: String::new(),
            record_type: String::new(),
            servers: "the system's resolvers".to_owned(),
            failure,
        };
        let (config, _) = hickory_resolver::system_conf::read_system_conf().map_err(|e| {
            failed(DnsFailure::Other(format!("cannot read the system's DNS configuration: {e}")))
        })?;
        let addresses: Vec<String> = config
            .name_servers()
            .iter()
            .map(|server| {
                let port = server.connections.first().map_or(53, |c| c.port);
                SocketAddr::new(server.ip, port).to_string()
            })
            .collect();
        let config = ResolverConfig::from_parts(None, Vec::new(), config.name_servers().to_vec());
        let resolver = Resolver::builder_with_config(config, TokioRuntimeProvider::default())
            .with_options(options())
            .build()
            .map_err(|e| failed(DnsFailure::Other(e.to_string())))?;
        Ok(Dns { resolver, servers: format!("the system's resolvers ({})", addresses.join(", ")) })
    }

    /// One server at `addr`, over UDP with TCP for truncated answers.
    ///
    /// # Panics
    /// Never: the configuration is fixed and valid.
    #[must_use]
    pub fn with_server(addr: SocketAddr) -> Dns {
        let mut server = NameServerConfig::udp_and_tcp(addr.ip());
        for connection in &mut server.connections {
            connection.port = addr.port();
            // A server on loopback is asked from loopback: no socket on other interfaces.
            if addr.ip().is_loopback() {
                connection.bind_addr = Some(SocketAddr::new(addr.ip(), 0));
            }
        }
        if server.connections.is_empty() {
            let mut udp = ConnectionConfig::udp();
            udp.port = addr.port();
            server.connections.push(udp);
        }
        let config = ResolverConfig::from_parts(None, Vec::new(), vec![server]);
        let builder =
            Resolver::builder_with_config(config, TokioRuntimeProvider::default()).with_options(options());
        // `build` fails only for TLS or DNSSEC settings, which are not used here.
        let resolver = builder.build().expect("a plain UDP and TCP resolver builds");
        Dns { resolver, servers: addr.to_string() }
    }

    /// The servers this resolver asks, as error messages name them.
    #[must_use]
    pub fn servers(&self) -> &str {
        &self.servers
    }

    /// The CNAME, A and AAAA records owned by exactly `name` (records of a CNAME's target are
    /// left out). A name that does not exist, or has none of these records, gives an empty set.
    ///
    /// # Errors
    /// A timeout, an error answer (`SERVFAIL`, `REFUSED`) or an invalid name.
    pub async fn records(&self, name: &str) -> Result<RecordSet, DnsError> {
        let (cname, a, aaaa) = tokio::join!(
            self.lookup(name, RecordType::CNAME),
            self.lookup(name, RecordType::A),
            self.lookup(name, RecordType::AAAA)
        );
        let owner = display_name(name);
        let mut set = Vec::new();
        for record in cname?.iter().chain(a?.iter()).chain(aaaa?.iter()) {
            if !same_name(&record.name.to_ascii(), &owner) {
                continue;
            }
            let (kind, value) = match &record.data {
                RData::CNAME(target) => (RecordKind::Cname, display_name(&target.0.to_ascii())),
                RData::A(ip) => (RecordKind::A, ip.0.to_string()),
                RData::AAAA(ip) => (RecordKind::Aaaa, ip.0.to_string()),
                _ => continue,
            };
            // The CNAME comes back with each question, its TTL perhaps a second apart.
            if !set.iter().any(|r: &DnsRecord| r.kind == kind && r.value == value) {
                set.push(DnsRecord::new(&owner, kind, &value, record.ttl));
            }
        }
        Ok(RecordSet(set))
    }

    /// The CAA records relevant to `name` (RFC 8659 section 3): those at `name` itself, or else
    /// at the closest parent that has any (an alias is followed to its target), with the name
    /// they were found at, which is where an owner must change them. `None` when no name up to
    /// the top-level domain has CAA records: any authority may issue.
    ///
    /// # Errors
    /// A timeout, an error answer or an invalid name: issuance must not go ahead then.
    pub async fn caa(&self, name: &str) -> Result<Option<CaaSet>, DnsError> {
        let mut current = display_name(name);
        loop {
            let records: Vec<CaaRecord> = self
                .lookup(&current, RecordType::CAA)
                .await?
                .iter()
                .filter_map(|record| match &record.data {
                    RData::CAA(caa) => Some(Caa {
                        flags: caa.flags(),
                        tag: caa.tag.to_ascii_lowercase(),
                        value: String::from_utf8_lossy(&caa.value).into_owned(),
                    }),
                    _ => None,
                })
                .collect();
            if !records.is_empty() {
                return Ok(Some(CaaSet { name: current, records }));
            }
            match current.split_once('.') {
                Some((_, parent)) if !parent.is_empty() => current = parent.to_owned(),
                _ => return Ok(None),
            }
        }
    }

    /// The answers to one question at the fully qualified `name`; no records is an empty list.
    async fn lookup(&self, name: &str, record_type: RecordType) -> Result<Vec<Record>, DnsError> {
        let failed = |failure| DnsError {
            name: display_name(name),
            record_type: record_type.to_string(),
            servers: self.servers.clone(),
            failure,
        };
        let fqdn = format!("{}.", display_name(name));
        if fqdn.len() > MAX_NAME_LEN + 1 {
            return Err(failed(DnsFailure::InvalidName));
        }
        let query = Name::from_ascii(&fqdn).map_err(|_| failed(DnsFailure::InvalidName))?;
        let answer = tokio::time::timeout(LOOKUP_DEADLINE, self.resolver.lookup(query, record_type)).await;
        match answer {
            Err(_) => Err(failed(DnsFailure::Timeout)),
            Ok(Ok(lookup)) => Ok(lookup.answers().iter().take(MAX_ANSWERS).cloned().collect()),
            Ok(Err(e)) if e.is_no_records_found() || e.is_nx_domain() => Ok(Vec::new()),
            Ok(Err(e)) => Err(failed(failure_of(&e))),
        }
    }
}

fn failure_of(error: &NetError) -> DnsFailure {
    match error {
        NetError::Timeout => DnsFailure::Timeout,
        NetError::Dns(hickory_resolver::net::DnsError::ResponseCode(code)) => {
            let mnemonic = match u16::from(*code) {
                1 => "FORMERR".to_owned(),
                2 => "SERVFAIL".to_owned(),
                4 => "NOTIMP".to_owned(),
                5 => "REFUSED".to_owned(),
                number => format!("{} (code {number})", code.to_str()),
            };
            DnsFailure::Server(mnemonic)
        }
        other => DnsFailure::Other(other.to_string()),
    }
}

/// A name as records show it: lower case, no trailing dot, no surrounding spaces.
fn display_name(name: &str) -> String {
    name.trim().trim_end_matches('.').to_ascii_lowercase()
}

/// Whether the CAA records allow an authority to issue.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CaaVerdict {
    /// The authority may issue (no records, no relevant property, or one names it).
    Allowed,
    /// The records forbid it.
    Forbidden {
        /// The property that decided: `issue`, `issuewild`, or a critical tag the authority does
        /// not understand.
        tag: String,
        /// The authorities the deciding properties name (empty: `issue ";"` allows none, or an
        /// unknown critical tag).
        allowed: Vec<String>,
    },
}

impl fmt::Display for CaaVerdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CaaVerdict::Allowed => f.write_str("CAA records allow issuance"),
            CaaVerdict::Forbidden { tag, allowed } if tag != "issue" && tag != "issuewild" => {
                let _ = allowed;
                write!(f, "a CAA record has the critical tag {tag}, which stops every issuance")
            }
            CaaVerdict::Forbidden { tag, allowed } if allowed.is_empty() => {
                write!(f, "CAA records ({tag}) allow no certificate authority to issue")
            }
            CaaVerdict::Forbidden { tag, allowed } => {
                write!(f, "CAA records ({tag}) allow only {} to issue", allowed.join(", "))
            }
        }
    }
}

/// Whether `records` (those of the [`CaaSet`] from [`Dns::caa`]; none when it found none) let the authority whose CAA
/// identifier is `ca_identifier` (such as `letsencrypt.org`) issue a certificate for a name that
/// is not a wildcard (RFC 8659 section 4): an empty set allows; a critical property with a tag
/// other than `issue`, `issuewild` and `iodef` forbids; otherwise the `issue` properties decide
/// when there are any, and one must name the authority.
#[must_use]
pub fn caa_allows(records: &[CaaRecord], ca_identifier: &str) -> CaaVerdict {
    verdict(records, ca_identifier, false)
}

/// [`caa_allows`] for a wildcard name (`*.example.com`): `issuewild` properties decide when
/// there are any, else `issue` ones.
#[must_use]
pub fn caa_allows_wildcard(records: &[CaaRecord], ca_identifier: &str) -> CaaVerdict {
    verdict(records, ca_identifier, true)
}

fn verdict(records: &[CaaRecord], ca_identifier: &str, wildcard: bool) -> CaaVerdict {
    const CRITICAL: u8 = 0b1000_0000;
    if let Some(unknown) = records.iter().find(|r| {
        r.flags & CRITICAL != 0
            && !matches!(r.tag.to_ascii_lowercase().as_str(), "issue" | "issuewild" | "iodef")
    }) {
        return CaaVerdict::Forbidden { tag: unknown.tag.to_ascii_lowercase(), allowed: Vec::new() };
    }
    let with_tag = |tag: &str| -> Vec<&CaaRecord> {
        records.iter().filter(|r| r.tag.eq_ignore_ascii_case(tag)).collect()
    };
    let (tag, properties) = match (wildcard, with_tag("issuewild")) {
        (true, wild) if !wild.is_empty() => ("issuewild", wild),
        _ => ("issue", with_tag("issue")),
    };
    if properties.is_empty() || properties.iter().any(|r| r.names_issuer(ca_identifier)) {
        return CaaVerdict::Allowed;
    }
    let mut allowed: Vec<String> = Vec::new();
    for property in properties {
        let issuer = property.value.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
        if !issuer.is_empty() && !allowed.contains(&issuer) {
            allowed.push(issuer);
        }
    }
    CaaVerdict::Forbidden { tag: tag.to_owned(), allowed }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn caa(flags: u8, tag: &str, value: &str) -> CaaRecord {
        Caa { flags, tag: tag.to_owned(), value: value.to_owned() }
    }

    #[test]
    fn no_records_allow_any_authority() {
        assert_eq!(caa_allows(&[], "pebble"), CaaVerdict::Allowed);
        assert_eq!(caa_allows_wildcard(&[], "pebble"), CaaVerdict::Allowed);
    }

    #[test]
    fn an_issue_property_naming_another_authority_forbids_and_names_it() {
        let records = [caa(0, "issue", "letsencrypt.org"), caa(0, "issue", "sectigo.com; account=1")];
        let verdict = caa_allows(&records, "pebble");
        assert_eq!(
            verdict,
            CaaVerdict::Forbidden {
                tag: "issue".into(),
                allowed: vec!["letsencrypt.org".into(), "sectigo.com".into()]
            }
        );
        assert_eq!(
            verdict.to_string(),
            "CAA records (issue) allow only letsencrypt.org, sectigo.com to issue"
        );
    }

    #[test]
    fn an_issue_property_naming_the_authority_allows_whatever_its_parameters_and_case() {
        let records =
            [caa(0, "issue", "letsencrypt.org"), caa(0, "ISSUE", "Pebble. ; validationmethods=http-01")];
        assert_eq!(caa_allows(&records, "pebble"), CaaVerdict::Allowed);
    }

    #[test]
    fn an_empty_issue_value_allows_no_one() {
        let verdict = caa_allows(&[caa(0, "issue", ";")], "letsencrypt.org");
        assert_eq!(verdict, CaaVerdict::Forbidden { tag: "issue".into(), allowed: vec![] });
        assert!(verdict.to_string().contains("allow no certificate authority"));
    }

    #[test]
    fn issuewild_decides_only_for_wildcards() {
        let records = [caa(0, "issuewild", "letsencrypt.org")];
        assert_eq!(caa_allows(&records, "pebble"), CaaVerdict::Allowed);
        assert_eq!(
            caa_allows_wildcard(&records, "pebble"),
            CaaVerdict::Forbidden { tag: "issuewild".into(), allowed: vec!["letsencrypt.org".into()] }
        );
        let records = [caa(0, "issue", "pebble"), caa(0, "issuewild", ";")];
        assert_eq!(caa_allows(&records, "pebble"), CaaVerdict::Allowed);
        assert!(matches!(caa_allows_wildcard(&records, "pebble"), CaaVerdict::Forbidden { .. }));
        // No issuewild: issue decides for wildcards too.
        assert!(matches!(
            caa_allows_wildcard(&[caa(0, "issue", "letsencrypt.org")], "pebble"),
            CaaVerdict::Forbidden { .. }
        ));
    }

    #[test]
    fn iodef_alone_allows_and_an_unknown_critical_tag_forbids() {
        assert_eq!(caa_allows(&[caa(0, "iodef", "mailto:ops@example.com")], "pebble"), CaaVerdict::Allowed);
        assert_eq!(caa_allows(&[caa(0, "contactemail", "ops@example.com")], "pebble"), CaaVerdict::Allowed);
        let verdict = caa_allows(&[caa(128, "tbs", "x"), caa(0, "issue", "pebble")], "pebble");
        assert_eq!(verdict, CaaVerdict::Forbidden { tag: "tbs".into(), allowed: vec![] });
        assert!(verdict.to_string().contains("critical tag tbs"));
    }

    #[test]
    fn errors_name_the_name_type_and_server() {
        let error = DnsError {
            name: "docs.example.com".into(),
            record_type: "A".into(),
            servers: "127.0.0.1:8053".into(),
            failure: DnsFailure::Server("SERVFAIL".into()),
        };
        assert_eq!(
            error.to_string(),
            "DNS lookup of A records for docs.example.com at 127.0.0.1:8053 failed: the server answered SERVFAIL"
        );
    }

    #[tokio::test]
    async fn the_system_resolvers_are_named() {
        match Dns::system() {
            Ok(dns) => assert!(dns.servers().starts_with("the system's resolvers ("), "{dns:?}"),
            Err(error) => {
                assert!(error.to_string().starts_with("DNS at the system's resolvers is unusable"), "{error}")
            }
        }
    }

    #[tokio::test]
    async fn invalid_names_fail_without_asking() {
        let dns = Dns::with_server("127.0.0.1:9".parse().unwrap_or_else(|_| unreachable!()));
        let long = format!("{}.example.com", "a".repeat(300));
        let error = dns.records(&long).await.err();
        assert_eq!(error.map(|e| e.failure), Some(DnsFailure::InvalidName));
        let error = dns.caa("bad..name").await.err();
        assert_eq!(error.map(|e| e.failure), Some(DnsFailure::InvalidName));
    }
}
