//! `host.toml`: the platform's names, where to listen, where the state lives, the certificate
//! authority, the DNS server, the owners and their projects. Read strictly: an unknown key is
//! an error naming the key, and every error names the file.

use std::collections::HashSet;
use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};

use playground_domains::Plan;
use playground_domains::name::check_normalized;
use serde::Deserialize;

/// Default lifetime of a session (12 hours).
pub const DEFAULT_SESSION_TTL_SECS: u64 = 12 * 3600;
/// Default time between two looks at certificates due for renewal or issuance (10 minutes).
pub const DEFAULT_RENEW_CHECK_SECS: u64 = 600;
/// Default time a connection may stay without moving a byte (one minute).
pub const DEFAULT_IDLE_TIMEOUT_SECS: u64 = 60;
/// Longest a TLS handshake may take, in seconds, when `idle_timeout_secs` is longer: a
/// handshake is a few round trips, and one that trickles a byte at a time must not hold the
/// connection for the whole idle time.
pub const MAX_HANDSHAKE_SECS: u64 = 10;
/// Largest `host.toml` read (1 MiB).
pub const MAX_CONFIG_BYTES: u64 = 1024 * 1024;

/// The host's settings, paths resolved against the configuration file's folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostConfig {
    /// The platform's domain: each project is at `{project}.{platform_domain}`.
    pub platform_domain: String,
    /// The host name custom subdomains point their CNAME at.
    pub cname_target: String,
    /// The addresses (A/AAAA) an apex custom domain must resolve to.
    pub apex_addresses: Vec<IpAddr>,
    /// The host name the Domains page and its JSON API answer on (default
    /// `admin.{platform_domain}`); no project site answers there.
    pub admin_host: String,
    /// Where to listen for plain HTTP (ACME HTTP-01 challenges, redirects to HTTPS, default
    /// addresses, the admin host).
    pub http: SocketAddr,
    /// Where to listen for HTTPS (custom domains by SNI), if anywhere.
    pub https: Option<SocketAddr>,
    /// The port clients reach HTTPS on, for redirects (`listen.public_https_port`, when a
    /// proxy or port forward stands in front; else the HTTPS listener's port once bound, else
    /// 443). 443 is left out of addresses.
    pub public_https_port: Option<u16>,
    /// `listen.proxy_protocol`: every connection, on both listeners, starts with a PROXY
    /// protocol v2 header from a balancer passing TCP through, naming the client's address
    /// (which the sign-in limits count); a connection without one is closed.
    pub proxy_protocol: bool,
    /// The folder of the SQLite state database and its lock (unused for the state when
    /// `database_url` is set).
    pub data_dir: PathBuf,
    /// `[database] url`: the state in this PostgreSQL database (`postgres://user@host:port/db`)
    /// instead of SQLite in `data_dir`. Checked when read; the server is reached at start.
    pub database_url: Option<String>,
    /// The Domains page's files served at `/` on the admin host, if any.
    pub dashboard_dir: Option<PathBuf>,
    /// The folder of the projects' sites when they are shared (every host reads it): a
    /// project's site is `{sites_dir}/{name}` unless its `site` says otherwise, and a relative
    /// `site` is relative to it.
    pub sites_dir: Option<PathBuf>,
    /// How long a session lasts, in seconds.
    pub session_ttl_secs: u64,
    /// A connection that moves no byte for this long is closed; a TLS handshake must end
    /// within it too (and within [`MAX_HANDSHAKE_SECS`]).
    pub idle_timeout: std::time::Duration,
    /// The certificate authority.
    pub acme: AcmeConfig,
    /// The DNS server verification asks; `None`: the system's resolvers.
    pub dns_server: Option<SocketAddr>,
    /// Those who may sign in.
    pub owners: Vec<Owner>,
    /// The published projects.
    pub projects: Vec<ProjectConfig>,
}

/// The certificate authority's settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AcmeConfig {
    /// The ACME directory URL (RFC 8555).
    pub directory_url: String,
    /// The account's contact, such as `mailto:ops@example.com`.
    pub contact: String,
    /// The authority's CAA identifier, such as `letsencrypt.org`.
    pub ca_identifier: String,
    /// Seconds between two looks at certificates to issue or renew.
    pub renew_check_secs: u64,
    /// A PEM file of extra roots to trust when talking to the directory (a test CA).
    pub extra_root: Option<PathBuf>,
}

/// One owner: an email and the argon2 hash of the password (`playground host hash-password`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Owner {
    /// Lower-case email; the sign-in name.
    pub email: String,
    /// PHC string, `$argon2id$...`.
    pub password_hash: String,
}

/// One published project.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProjectConfig {
    /// One DNS label; the first label of its default address.
    pub name: String,
    /// The output of `playground build`.
    pub site: PathBuf,
    /// The owner's email.
    pub owner: String,
    /// The plan (custom domains need Pro or above).
    pub plan: Plan,
}

/// Why `host.toml` was refused; the message names the file.
#[derive(Debug, thiserror::Error)]
#[error("{}: {message}", path.display())]
pub struct ConfigError {
    /// The configuration file.
    pub path: PathBuf,
    /// What is wrong, naming the key.
    pub message: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    platform_domain: String,
    cname_target: String,
    #[serde(default)]
    apex_addresses: Vec<String>,
    admin_host: Option<String>,
    data_dir: String,
    dashboard_dir: Option<String>,
    sites_dir: Option<String>,
    session_ttl_secs: Option<u64>,
    idle_timeout_secs: Option<u64>,
    listen: RawListen,
    acme: RawAcme,
    #[serde(default)]
    dns: RawDns,
    database: Option<RawDatabase>,
    #[serde(default)]
    owners: Vec<RawOwner>,
    #[serde(default)]
    projects: Vec<RawProject>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawListen {
    http: String,
    https: Option<String>,
    public_https_port: Option<u16>,
    #[serde(default)]
    proxy_protocol: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAcme {
    directory_url: String,
    contact: String,
    ca_identifier: String,
    renew_check_secs: Option<u64>,
    extra_root: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawDns {
    server: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDatabase {
    url: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawOwner {
    email: String,
    password_hash: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawProject {
    name: String,
    site: Option<String>,
    owner: String,
    plan: Plan,
}

impl HostConfig {
    /// Reads and checks `path`.
    ///
    /// # Errors
    /// The file cannot be read, is not TOML of this shape, or breaks a rule; the message names
    /// the file and the key.
    pub fn load(path: &Path) -> Result<HostConfig, ConfigError> {
        let fail = |message: String| ConfigError { path: path.to_owned(), message };
        let size = std::fs::metadata(path).map_err(|e| fail(format!("cannot read it: {e}")))?.len();
        if size > MAX_CONFIG_BYTES {
            return Err(fail(format!(
                "it is {size} bytes; a host configuration has at most {MAX_CONFIG_BYTES}"
            )));
        }
        let text = std::fs::read_to_string(path).map_err(|e| fail(format!("cannot read it: {e}")))?;
        let base = match path.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir.to_owned(),
            _ => PathBuf::from("."),
        };
        HostConfig::parse(&text, &base).map_err(fail)
    }

    /// Parses the text of a `host.toml` whose relative paths are relative to `base`.
    ///
    /// # Errors
    /// What is wrong, naming the key.
    pub fn parse(text: &str, base: &Path) -> Result<HostConfig, String> {
        let raw: Raw = toml::from_str(text).map_err(|e| e.to_string().trim_end().to_owned())?;
        let name_ok = |key: &str, value: &str| {
            check_normalized(value).map_err(|e| format!("{key} = \"{value}\" is not a host name: {e}"))
        };
        name_ok("platform_domain", &raw.platform_domain)?;
        name_ok("cname_target", &raw.cname_target)?;
        let admin_host = raw.admin_host.unwrap_or_else(|| format!("admin.{}", raw.platform_domain));
        name_ok("admin_host", &admin_host)?;
        let apex_addresses = raw
            .apex_addresses
            .iter()
            .map(|a| a.parse::<IpAddr>().map_err(|_| format!("apex_addresses: \"{a}\" is not an IP address")))
            .collect::<Result<Vec<_>, _>>()?;
        let socket = |key: &str, value: &str| {
            value
                .parse::<SocketAddr>()
                .map_err(|_| format!("{key} = \"{value}\" is not an address:port such as 0.0.0.0:80"))
        };
        let http = socket("listen.http", &raw.listen.http)?;
        let https = raw.listen.https.as_deref().map(|v| socket("listen.https", v)).transpose()?;
        let dns_server = raw.dns.server.as_deref().map(|v| socket("dns.server", v)).transpose()?;
        let database_url = raw.database.map(|d| database_url(d.url)).transpose()?;
        let session_ttl_secs = raw.session_ttl_secs.unwrap_or(DEFAULT_SESSION_TTL_SECS);
        if session_ttl_secs == 0 {
            return Err("session_ttl_secs must be at least 1".to_owned());
        }
        let acme = raw.acme;
        if !(acme.directory_url.starts_with("https://") || acme.directory_url.starts_with("http://")) {
            return Err(format!("acme.directory_url = \"{}\" is not an http(s) URL", acme.directory_url));
        }
        if acme.ca_identifier.trim().is_empty() {
            return Err("acme.ca_identifier is empty (the CA's CAA name, such as letsencrypt.org)".to_owned());
        }
        let renew_check_secs = acme.renew_check_secs.unwrap_or(DEFAULT_RENEW_CHECK_SECS).max(1);
        let mut owners = Vec::new();
        for (i, o) in raw.owners.into_iter().enumerate() {
            let email = o.email.trim().to_ascii_lowercase();
            if !plausible_email(&email) {
                return Err(format!("owners[{i}].email = \"{}\" is not an email address", o.email));
            }
            if owners.iter().any(|p: &Owner| p.email == email) {
                return Err(format!("owners[{i}].email: {email} is listed twice"));
            }
            if !o.password_hash.starts_with("$argon2") {
                return Err(format!(
                    "owners[{i}].password_hash is not an argon2 hash; make one with `playground host hash-password`"
                ));
            }
            owners.push(Owner { email, password_hash: o.password_hash });
        }
        let sites_dir = raw.sites_dir.map(|d| base.join(d));
        let projects = projects(raw.projects, &owners, sites_dir.as_deref(), base)?;
        Ok(HostConfig {
            platform_domain: raw.platform_domain,
            cname_target: raw.cname_target,
            apex_addresses,
            admin_host,
            http,
            https,
            public_https_port: raw.listen.public_https_port,
            proxy_protocol: raw.listen.proxy_protocol,
            data_dir: base.join(raw.data_dir),
            database_url,
            dashboard_dir: raw.dashboard_dir.map(|d| base.join(d)),
            sites_dir,
            session_ttl_secs,
            idle_timeout: std::time::Duration::from_secs(
                raw.idle_timeout_secs.unwrap_or(DEFAULT_IDLE_TIMEOUT_SECS).max(1),
            ),
            acme: AcmeConfig {
                directory_url: acme.directory_url,
                contact: acme.contact,
                ca_identifier: acme.ca_identifier,
                renew_check_secs,
                extra_root: acme.extra_root.map(|r| base.join(r)),
            },
            dns_server,
            owners,
            projects,
        })
    }

    /// The project called `name`.
    #[must_use]
    pub fn project(&self, name: &str) -> Option<&ProjectConfig> {
        self.projects.iter().find(|p| p.name == name)
    }

    /// `{project}.{platform_domain}`.
    #[must_use]
    pub fn default_address(&self, project: &str) -> String {
        format!("{project}.{}", self.platform_domain)
    }
}

/// `[database] url`, checked: the URL is not repeated in the error, it may hold a password.
fn database_url(url: String) -> Result<String, String> {
    crate::database_url::parse_url(&url).map_err(|reason| {
        format!("database.url is not a PostgreSQL URL such as postgres://user@127.0.0.1:5432/host: {reason}")
    })?;
    Ok(url)
}

/// The projects of `[[projects]]`, each owned by one of `owners`, their sites resolved against
/// `sites_dir` when set, else `base`.
fn projects(
    raw: Vec<RawProject>,
    owners: &[Owner],
    sites_dir: Option<&Path>,
    base: &Path,
) -> Result<Vec<ProjectConfig>, String> {
    let mut names = HashSet::new();
    let mut projects = Vec::new();
    for (i, p) in raw.into_iter().enumerate() {
        if !is_label(&p.name) {
            return Err(format!(
                "projects[{i}].name = \"{}\" must be 1 to 63 lower-case letters, digits or inner hyphens",
                p.name
            ));
        }
        if !names.insert(p.name.clone()) {
            return Err(format!("projects[{i}].name: {} is listed twice", p.name));
        }
        let owner = p.owner.trim().to_ascii_lowercase();
        if !owners.iter().any(|o| o.email == owner) {
            return Err(format!("projects[{i}].owner: {owner} is not one of [[owners]]"));
        }
        let site = match (sites_dir, p.site) {
            (Some(sites), Some(site)) => sites.join(site),
            (Some(sites), None) => sites.join(&p.name),
            (None, Some(site)) => base.join(site),
            (None, None) => {
                return Err(format!(
                    "projects[{i}].site is missing: name the folder of {}'s site, or set sites_dir",
                    p.name
                ));
            }
        };
        projects.push(ProjectConfig { name: p.name, site, owner, plan: p.plan });
    }
    Ok(projects)
}

fn is_label(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 63
        && name.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !name.starts_with('-')
        && !name.ends_with('-')
}

fn plausible_email(email: &str) -> bool {
    email.len() <= 254
        && email.split_once('@').is_some_and(|(user, domain)| {
            !user.is_empty() && domain.contains('.') && !email.chars().any(char::is_whitespace)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r#"
platform_domain = "docs-host.test"
cname_target = "cname.docs-host.test"
apex_addresses = ["192.0.2.10"]
data_dir = "data"
[listen]
http = "127.0.0.1:0"
[acme]
directory_url = "https://localhost:14000/dir"
contact = "mailto:ops@example.com"
ca_identifier = "pebble.letsencrypt.org"
[[owners]]
email = "Ana@Example.com"
password_hash = "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaA"
[[projects]]
name = "petstore"
site = "site"
owner = "ana@example.com"
plan = "pro"
"#;

    #[test]
    fn reads_a_good_file() {
        let config = HostConfig::parse(GOOD, Path::new("/etc/host")).unwrap();
        assert_eq!(config.admin_host, "admin.docs-host.test");
        assert_eq!(config.data_dir, Path::new("/etc/host/data"));
        assert_eq!(config.owners[0].email, "ana@example.com");
        assert_eq!(config.projects[0].plan, Plan::Pro);
        assert_eq!(config.default_address("petstore"), "petstore.docs-host.test");
    }

    #[test]
    fn the_example_reads() {
        let text = include_str!("../host.example.toml");
        let config = HostConfig::parse(text, Path::new("/srv")).unwrap();
        assert_eq!(config.https, Some("0.0.0.0:443".parse().unwrap()));
        assert_eq!(config.projects[0].site, Path::new("/srv/site/petstore"));
        assert_eq!(config.database_url, None);
        // Its PostgreSQL lines, uncommented, read too.
        let text = text.replace("# [database]\n# url", "[database]\nurl");
        let config = HostConfig::parse(&text, Path::new("/srv")).unwrap();
        assert_eq!(
            config.database_url.as_deref(),
            Some("postgres://playground@127.0.0.1:5432/playground_host")
        );
    }

    #[test]
    fn sites_dir_holds_the_sites_not_named_elsewhere() {
        let text =
            GOOD.replace("data_dir = \"data\"", "data_dir = \"data\"\nsites_dir = \"/mnt/shared/sites\"");
        let config = HostConfig::parse(&text, Path::new("/etc/host")).unwrap();
        assert_eq!(config.sites_dir.as_deref(), Some(Path::new("/mnt/shared/sites")));
        assert_eq!(config.projects[0].site, Path::new("/mnt/shared/sites/site"), "relative to sites_dir");
        let without_site = text.replace("site = \"site\"\n", "");
        let config = HostConfig::parse(&without_site, Path::new("/etc/host")).unwrap();
        assert_eq!(config.projects[0].site, Path::new("/mnt/shared/sites/petstore"), "the project's name");
        let error = HostConfig::parse(&GOOD.replace("site = \"site\"\n", ""), Path::new(".")).unwrap_err();
        assert!(error.contains("projects[0].site is missing"), "{error}");
    }

    #[test]
    fn unknown_keys_are_named() {
        let text = GOOD.replace("[listen]", "colour = \"red\"\n[listen]");
        let error = HostConfig::parse(&text, Path::new(".")).unwrap_err();
        assert!(error.contains("colour"), "{error}");
        let text = GOOD.replace("plan = \"pro\"", "plan = \"pro\"\nsites = 3");
        let error = HostConfig::parse(&text, Path::new(".")).unwrap_err();
        assert!(error.contains("sites"), "{error}");
    }

    #[test]
    fn bad_values_are_named() {
        for (from, to, key) in [
            ("\"docs-host.test\"", "\"Docs Host\"", "platform_domain"),
            ("\"192.0.2.10\"", "\"nope\"", "apex_addresses"),
            ("\"127.0.0.1:0\"", "\"here\"", "listen.http"),
            ("owner = \"ana@example.com\"", "owner = \"bo@example.com\"", "projects[0].owner"),
            ("name = \"petstore\"", "name = \"Pet Store\"", "projects[0].name"),
            ("plan = \"pro\"", "plan = \"gold\"", "gold"),
        ] {
            let error = HostConfig::parse(&GOOD.replace(from, to), Path::new(".")).unwrap_err();
            assert!(error.contains(key), "{key}: {error}");
        }
    }

    #[test]
    fn the_database_url_is_read_and_checked() {
        assert_eq!(HostConfig::parse(GOOD, Path::new(".")).unwrap().database_url, None, "SQLite by default");
        let with = |url: &str| GOOD.replace("[listen]", &format!("[database]\nurl = \"{url}\"\n[listen]"));
        let url = "postgres://host:pw@127.0.0.1:5432/host";
        let config = HostConfig::parse(&with(url), Path::new(".")).unwrap();
        assert_eq!(config.database_url.as_deref(), Some(url));
        // A unix socket's folder as the host parameter, as docs/hosting.md says.
        let socket = "postgresql://playground@/playground_host?host=/run/postgresql";
        assert_eq!(
            HostConfig::parse(&with(socket), Path::new(".")).unwrap().database_url.as_deref(),
            Some(socket)
        );
        let shown = crate::database_url::shown(&crate::database_url::parse_url(socket).unwrap());
        assert_eq!(shown, "postgres://playground@/run/postgresql:5432/playground_host");
        let shown = crate::database_url::shown(&crate::database_url::parse_url(url).unwrap());
        assert_eq!(shown, "postgres://host@127.0.0.1:5432/host", "never the password");
        for (bad, says) in [
            ("mysql://root:hunter2@127.0.0.1/host", "must start with postgres://"),
            ("postgres://", "names no host"),
            ("postgres://u:hunter2@127.0.0.1:port/db", "invalid"),
        ] {
            let error = HostConfig::parse(&with(bad), Path::new(".")).unwrap_err();
            assert!(error.starts_with("database.url is not a PostgreSQL URL"), "{bad}: {error}");
            assert!(error.contains(says), "{bad}: {error}");
            assert!(!error.contains("hunter2"), "the password is never repeated: {error}");
        }
        let error =
            HostConfig::parse(&GOOD.replace("[listen]", "[database]\nuri = \"x\"\n[listen]"), Path::new("."))
                .unwrap_err();
        assert!(error.contains("uri"), "{error}");
        // Through a file, the error names it.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("host.toml");
        std::fs::write(&path, with("postgresql:/nothing")).unwrap();
        let error = HostConfig::load(&path).unwrap_err().to_string();
        assert!(error.starts_with(&format!("{}: database.url", path.display())), "{error}");
    }

    #[test]
    fn errors_name_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("host.toml");
        std::fs::write(&path, "nonsense = [").unwrap();
        let error = HostConfig::load(&path).unwrap_err().to_string();
        assert!(error.starts_with(&path.display().to_string()), "{error}");
    }
}
