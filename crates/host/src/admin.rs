//! The admin host's own certificate: the Domains page and its API carry the session cookie
//! (`Secure`), so outside `localhost` they are served over HTTPS. At start and then at every
//! renewal check, the stored certificate is offered, or one is requested from the authority
//! (HTTP-01 through the plain listener, as for custom domains) and stored; once offered, plain
//! HTTP to the admin host answers 301 to HTTPS.

use std::net::IpAddr;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use tokio::sync::watch;
use tokio::task::JoinHandle;

use crate::issuance::RENEW_BEFORE_SECS;
use crate::{Shared, now};

/// Whether the admin host `name` needs a certificate of its own: not for `localhost` (and
/// `*.localhost`) or an address, which browsers treat as secure over plain HTTP and no
/// authority issues for.
#[must_use]
pub fn wants_certificate(name: &str) -> bool {
    let name = name.trim_end_matches('.');
    !(name == "localhost"
        || name.ends_with(".localhost")
        || name.parse::<IpAddr>().is_ok()
        || name.starts_with('['))
}

pub(crate) fn spawn(shared: Arc<Shared>, mut stop: watch::Receiver<bool>) -> JoinHandle<()> {
    tokio::spawn(async move {
        let name = shared.config.admin_host.clone();
        let every = Duration::from_secs(shared.config.acme.renew_check_secs);
        loop {
            if let Err(problem) = keep(&shared, &name).await {
                eprintln!("playground host: no certificate for the admin host {name} yet: {problem}");
            }
            tokio::select! {
                _ = stop.wait_for(|s| *s) => return,
                () = tokio::time::sleep(every) => {}
            }
        }
    })
}

/// Offers a certificate for `name` good for more than [`RENEW_BEFORE_SECS`]: the stored one,
/// else a new one (stored before it is offered).
async fn keep(shared: &Shared, name: &str) -> Result<(), String> {
    let at = now();
    let stored = shared.store.certificate(name).await.map_err(|e| e.to_string())?;
    let (chain_pem, key_pem, not_after) = match stored {
        Some(c) if c.not_after > at.saturating_add(RENEW_BEFORE_SECS) => {
            (c.chain_pem, c.key_pem, c.not_after)
        }
        _ => {
            let issued = shared.services.issuer.issue(name).await?;
            shared.store.put_certificate(name, &issued, at).await.map_err(|e| e.to_string())?;
            eprintln!("playground host: certificate issued for the admin host {name}");
            (issued.chain_pem, issued.key_pem, issued.not_after)
        }
    };
    if shared.admin_not_after.load(Ordering::SeqCst) != not_after {
        shared.services.certificates.install(name, &chain_pem, &key_pem)?;
        shared.admin_not_after.store(not_after, Ordering::SeqCst);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_names_and_addresses_need_none() {
        for name in ["localhost", "admin.docs.localhost", "127.0.0.1", "[::1]", "::1"] {
            assert!(!wants_certificate(name), "{name}");
        }
        assert!(wants_certificate("admin.docs-host.dev"));
    }
}
