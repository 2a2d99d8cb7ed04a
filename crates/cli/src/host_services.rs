//! What `playground host` is given to reach the outside world: `playground-certs`' real DNS
//! (hickory), ACME client (instant-acme, HTTP-01) and SNI certificates (rustls), behind the
//! traits of [`playground_host::services`].

use std::io;
use std::sync::Arc;
use std::time::Duration;

use playground_certs::acme::{self, Acme};
use playground_certs::dns::Dns;
use playground_certs::sni::{self, Certificates};
use playground_domains::{DnsRecord, RecordKind, RecordSet};
use playground_host::Host;
use playground_host::services::{
    BoxFuture, CertificateStore, Challenges, Io, Issued, Issuer, Services, TlsAcceptor, Verifier,
};
use tokio::net::TcpStream;
use tokio::sync::Mutex;

/// Longest the start waits for the certificate authority's account (directory, new account).
const ACCOUNT_TIME: Duration = Duration::from_secs(10);

/// The most a PEM file named in `host.toml` may hold.
const MAX_ROOT_BYTES: u64 = 256 * 1024;

/// Why the services could not be made (the host does not start).
#[derive(Debug, thiserror::Error)]
pub enum ServicesError {
    /// The system's resolvers cannot be read.
    #[error("cannot use the system's DNS resolvers: {0}")]
    Dns(String),
    /// `acme.extra_root` cannot be read.
    #[error("cannot read acme.extra_root {path}: {problem}")]
    Root {
        /// The file.
        path: String,
        /// What went wrong.
        problem: String,
    },
}

/// The real services for `host`: DNS from `dns_server` or the system's resolvers; the ACME
/// account of `acme.directory_url` (the stored one, else a new one, stored); an HTTPS
/// listener when `listen.https` is set. A certificate authority that cannot be reached now is
/// tried again at the first certificate, so the sites are served meanwhile.
///
/// # Errors
/// The system's resolvers or `acme.extra_root` cannot be read.
pub async fn real(program: &str, host: &Host) -> Result<Services, ServicesError> {
    let config = host.config();
    let dns = match config.dns_server {
        Some(server) => Dns::with_server(server),
        None => Dns::system().map_err(|e| ServicesError::Dns(e.to_string()))?,
    };
    let extra_root = match &config.acme.extra_root {
        None => None,
        Some(path) => Some(
            read_root(path)
                .map_err(|problem| ServicesError::Root { path: path.display().to_string(), problem })?,
        ),
    };
    // Published in the host's state too, so the plain listener of any host on it answers them.
    let challenges = acme::Challenges::with_sink(Arc::new(StoredChallenges(Arc::clone(host.store()))));
    let issuer = AcmeIssuer {
        directory_url: config.acme.directory_url.clone(),
        contact: config.acme.contact.clone(),
        extra_root,
        stored: match host.store().acme_credentials(&config.acme.directory_url).await {
            Ok(stored) => stored,
            Err(e) => {
                eprintln!(
                    "{program}: warning: the stored ACME account cannot be read ({e}); a new one is opened"
                );
                None
            }
        },
        account: Mutex::new(None),
        challenges: challenges.clone(),
    };
    match tokio::time::timeout(ACCOUNT_TIME, issuer.connect()).await {
        Ok(Ok(fresh)) => {
            if let Some(credentials) = fresh {
                let now = playground_host::now();
                if let Err(e) =
                    host.store().set_acme_credentials(&issuer.directory_url, &credentials, now).await
                {
                    eprintln!("{program}: warning: the ACME account could not be stored: {e}");
                }
            }
        }
        Ok(Err(message)) => eprintln!(
            "{program}: warning: the certificate authority is not reachable now ({message}); it is tried again at the first certificate"
        ),
        Err(_) => eprintln!(
            "{program}: warning: the certificate authority did not answer within {}s; it is tried again at the first certificate",
            ACCOUNT_TIME.as_secs()
        ),
    }
    let certificates = Arc::new(Certificates::new());
    let tls = config.https.map(|_| {
        let acceptor = tokio_rustls::TlsAcceptor::from(sni::server_config(Arc::clone(&certificates)));
        Arc::new(Rustls(acceptor)) as Arc<dyn TlsAcceptor>
    });
    Ok(Services {
        verifier: Arc::new(DnsVerifier(dns)),
        issuer: Arc::new(issuer),
        challenges: Arc::new(HttpChallenges(challenges)),
        certificates: Arc::new(SniCertificates(certificates)),
        tls,
    })
}

/// A PEM file, bounded.
fn read_root(path: &std::path::Path) -> Result<String, String> {
    use std::io::Read;
    let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
    let mut text = String::new();
    file.take(MAX_ROOT_BYTES + 1).read_to_string(&mut text).map_err(|e| e.to_string())?;
    if text.len() as u64 > MAX_ROOT_BYTES {
        return Err(format!("it is larger than {} KiB", MAX_ROOT_BYTES / 1024));
    }
    if !text.contains("-----BEGIN CERTIFICATE-----") {
        return Err("it holds no PEM certificate".to_owned());
    }
    Ok(text)
}

/// DNS through hickory.
struct DnsVerifier(Dns);

impl Verifier for DnsVerifier {
    fn records<'a>(&'a self, name: &'a str) -> BoxFuture<'a, Result<RecordSet, String>> {
        Box::pin(async move { self.0.records(name).await.map_err(|e| e.to_string()) })
    }

    fn caa<'a>(&'a self, name: &'a str) -> BoxFuture<'a, Result<RecordSet, String>> {
        Box::pin(async move {
            let Some(relevant) = self.0.caa(name).await.map_err(|e| e.to_string())? else {
                return Ok(RecordSet::default());
            };
            // The relevant set (that of `name` or of its closest parent with any), as records
            // of the name that holds them: `caa_blocking` finds them there by climbing from
            // `name`, and every message names where the owner must change them.
            Ok(RecordSet(
                relevant
                    .records
                    .iter()
                    .map(|caa| DnsRecord::new(&relevant.name, RecordKind::Caa, &caa.to_string(), 0))
                    .collect(),
            ))
        })
    }
}

/// ACME with one account, opened at start or at the first certificate.
struct AcmeIssuer {
    directory_url: String,
    contact: String,
    extra_root: Option<String>,
    /// The account's credentials stored by an earlier start.
    stored: Option<String>,
    account: Mutex<Option<Acme>>,
    challenges: acme::Challenges,
}

impl AcmeIssuer {
    /// Opens the account if it is not open; the credentials of an account made now, to store.
    async fn connect(&self) -> Result<Option<String>, String> {
        let mut account = self.account.lock().await;
        if account.is_some() {
            return Ok(None);
        }
        let contact = Some(self.contact.as_str()).filter(|c| !c.trim().is_empty());
        let (acme, credentials) =
            Acme::connect(&self.directory_url, contact, self.stored.as_deref(), self.extra_root.as_deref())
                .await
                .map_err(|e| e.to_string())?;
        *account = Some(acme);
        Ok((self.stored.as_deref() != Some(credentials.as_str())).then_some(credentials))
    }
}

impl Issuer for AcmeIssuer {
    fn issue<'a>(&'a self, name: &'a str) -> BoxFuture<'a, Result<Issued, String>> {
        Box::pin(async move {
            if self.connect().await?.is_some() {
                // Made after the start: used until the host stops, made again at the next start.
                eprintln!("playground host: opened an ACME account at {}", self.directory_url);
            }
            // A clone of the account, so that issuances for several names run side by side.
            let Some(acme) = self.account.lock().await.clone() else {
                return Err("the certificate authority's account is not open".to_owned());
            };
            let issued = acme.issue(name, &self.challenges).await.map_err(|e| e.to_string())?;
            Ok(Issued {
                chain_pem: issued.chain_pem,
                key_pem: issued.key_pem,
                not_after: u64::try_from(issued.not_after_unix).unwrap_or(0),
            })
        })
    }
}

/// How long a published answer is kept at most: an issuance ends within `ISSUE_DEADLINE`, and
/// one whose withdrawal was lost (a `kill -9`) expires.
const CHALLENGE_TTL_SECS: u64 = 2 * acme::ISSUE_DEADLINE.as_secs();

/// The HTTP-01 answers in the host's state (`challenges`), beside `Acme::issue`'s own map.
struct StoredChallenges(Arc<playground_host::store::Store>);

impl acme::ChallengeSink for StoredChallenges {
    fn publish<'a>(
        &'a self,
        token: &'a str,
        key_authorization: &'a str,
    ) -> BoxFuture<'a, Result<(), String>> {
        Box::pin(async move {
            let now = playground_host::now();
            self.0
                .put_challenge(token, key_authorization, now + CHALLENGE_TTL_SECS, now)
                .await
                .map_err(|e| e.to_string())
        })
    }

    fn withdraw(&self, tokens: Vec<String>) {
        // Outside a runtime (one shutting down) nothing is spawned: the answers expire.
        let Ok(runtime) = tokio::runtime::Handle::try_current() else { return };
        let store = Arc::clone(&self.0);
        runtime.spawn(async move {
            for token in tokens {
                if let Err(e) = store.delete_challenge(&token).await {
                    eprintln!("playground host: cannot withdraw a challenge's answer: {e}");
                }
            }
        });
    }
}

/// The HTTP-01 answers `Acme::issue` publishes.
struct HttpChallenges(acme::Challenges);

impl Challenges for HttpChallenges {
    fn key_authorization(&self, token: &str) -> Option<String> {
        self.0.get(token)
    }
}

/// The certificates the HTTPS listener offers by SNI.
struct SniCertificates(Arc<Certificates>);

impl CertificateStore for SniCertificates {
    fn install(&self, name: &str, chain_pem: &str, key_pem: &str) -> Result<(), String> {
        self.0.insert(name, chain_pem, key_pem).map_err(|e| e.to_string())
    }

    fn withdraw(&self, name: &str) {
        self.0.remove(name);
    }
}

/// The rustls handshake.
struct Rustls(tokio_rustls::TlsAcceptor);

impl TlsAcceptor for Rustls {
    fn accept(&self, stream: TcpStream) -> BoxFuture<'static, io::Result<Box<dyn Io>>> {
        let acceptor = self.0.clone();
        Box::pin(async move {
            let stream = acceptor.accept(stream).await?;
            Ok(Box::new(stream) as Box<dyn Io>)
        })
    }
}
