//! Certificates in the background: after a verification the domain's name is queued; a task
//! asks the [`crate::services::Issuer`] and records the outcome in one transaction (the
//! certificate and the domain going live through the core's `CertificateIssued`, or the
//! authority's message for troubleshooting). A timer looks again at what is pending (so a
//! restart after `kill -9` resumes issuance) and at certificates due for renewal, and looks
//! again when another host's change is announced. Only the host holding the issuance lease
//! (`Store::lead_issuance`: always with SQLite, a PostgreSQL advisory lock otherwise) asks the
//! authority; it gives the lease up when it stops.

use std::sync::Arc;
use std::time::Duration;

use playground_domains::{Action, DomainState, step};
use tokio::sync::{mpsc, watch};
use tokio::task::{JoinHandle, JoinSet};

use crate::services::Issued;
use crate::store::StoreError;
use crate::{Shared, lock, now};

/// Renew a certificate this long before it expires (30 days).
pub const RENEW_BEFORE_SECS: u64 = 30 * 24 * 3600;
/// Longest one issuance may take before it counts as failed.
const ISSUE_TIME: Duration = Duration::from_secs(10 * 60);

pub(crate) fn spawn(
    shared: Arc<Shared>,
    mut queue: mpsc::UnboundedReceiver<String>,
    mut stop: watch::Receiver<bool>,
) -> JoinHandle<()> {
    tokio::spawn(async move {
        let mut timer = tokio::time::interval(Duration::from_secs(shared.config.acme.renew_check_secs));
        let mut running = JoinSet::new();
        loop {
            let mut look = false;
            let mut queued = None;
            tokio::select! {
                _ = stop.wait_for(|s| *s) => break,
                Some(name) = queue.recv() => queued = Some(name),
                _ = timer.tick() => look = true,
                () = shared.look_again.notified() => look = true,
                Some(_) = running.join_next(), if !running.is_empty() => {}
            }
            // Outside the select: its outcome holds the stop signal's read guard.
            if queued.is_some() || look {
                // Only the host holding the issuance lease asks the authority; another host's
                // verified names are found by the lease holder's look (on the change's
                // notification, or its timer).
                match shared.store.lead_issuance().await {
                    Ok(true) => {}
                    Ok(false) => continue,
                    Err(e) => {
                        eprintln!("playground host: cannot take the issuance lease: {e}");
                        continue;
                    }
                }
            }
            if let Some(name) = queued {
                begin(&shared, name, &mut running);
            }
            if look {
                match due(&shared).await {
                    Ok(names) => names.into_iter().for_each(|n| begin(&shared, n, &mut running)),
                    Err(e) => eprintln!("playground host: cannot look for certificates to issue: {e}"),
                }
            }
        }
        // What was not recorded yet is resumed at the next start (the domain is still
        // verified in the database).
        running.abort_all();
        while running.join_next().await.is_some() {}
        shared.store.leave_issuance().await;
    })
}

/// Names waiting for a first certificate (verified or re-verifying, no CAA in the way, no
/// failure in the last check period), and live ones whose certificate is due for renewal.
async fn due(shared: &Shared) -> Result<Vec<String>, StoreError> {
    let at = now();
    let retry = shared.config.acme.renew_check_secs;
    let mut names = Vec::new();
    for d in shared.store.all_domains().await? {
        let waiting = d.state.issuing_since().is_some()
            && d.blocking_caa.is_empty()
            && d.issue_error.as_ref().is_none_or(|(_, failed)| failed.saturating_add(retry) <= at);
        let renew = matches!(d.state, DomainState::Live { .. })
            && shared
                .store
                .certificate(&d.name)
                .await?
                .is_none_or(|c| c.not_after <= at.saturating_add(RENEW_BEFORE_SECS));
        if waiting || renew {
            names.push(d.name);
        }
    }
    Ok(names)
}

fn begin(shared: &Arc<Shared>, name: String, running: &mut JoinSet<()>) {
    if !lock(&shared.issuing).insert(name.clone()) {
        return;
    }
    let shared = Arc::clone(shared);
    running.spawn(async move {
        let result = match tokio::time::timeout(ISSUE_TIME, shared.services.issuer.issue(&name)).await {
            Ok(result) => result,
            Err(_) => Err(format!(
                "the certificate authority did not finish within {} minutes",
                ISSUE_TIME.as_secs() / 60
            )),
        };
        if let Err(e) = finish(&shared, &name, result).await {
            eprintln!("playground host: cannot record the certificate of {name}: {e}");
        }
        lock(&shared.issuing).remove(&name);
    });
}

/// How often recording is read and made again when another writer overtook it.
const RECORD_TRIES: usize = 3;

/// Records what the authority gave, if the domain still wants it; made again on what another
/// writer (another host on the same PostgreSQL state) committed meanwhile, if one did.
async fn finish(shared: &Shared, name: &str, result: Result<Issued, String>) -> Result<(), StoreError> {
    let _write = shared.write.lock().await;
    let mut tries = 0;
    loop {
        tries += 1;
        match record(shared, name, &result).await {
            Err(StoreError::Conflict { .. }) if tries < RECORD_TRIES => {}
            other => return other,
        }
    }
}

async fn record(shared: &Shared, name: &str, result: &Result<Issued, String>) -> Result<(), StoreError> {
    let Some(project_name) = shared.store.domain_project(name).await? else {
        // Removed meanwhile: the certificate is not kept, nothing is served.
        return Ok(());
    };
    let Some(project) = shared.store.project(&project_name).await? else { return Ok(()) };
    let mut rows = shared.store.domains_of(&project_name).await?;
    let Some(row) = rows.iter_mut().find(|r| r.name == name) else { return Ok(()) };
    let at = now();
    match result {
        Ok(issued) => {
            if row.state.issuing_since().is_some() {
                match step(name, &row.state, Action::CertificateIssued, at) {
                    Ok(next) => row.state = next,
                    Err(refusal) => {
                        eprintln!("playground host: {refusal}");
                        return Ok(());
                    }
                }
            } else if !matches!(row.state, DomainState::Live { .. }) {
                // Added only (re-verified away?): not live, keep nothing.
                return Ok(());
            }
            row.issue_error = None;
            // Offered before the domain reads `live`: the API reads the database, so whoever
            // sees `live` must already reach the certificate.
            if let Err(e) = shared.services.certificates.install(name, &issued.chain_pem, &issued.key_pem) {
                eprintln!("playground host: cannot offer the certificate of {name}: {e}");
            }
            let written = shared
                .store
                .write_project(&project, project.primary.as_deref(), &rows, Some((name, issued, at)))
                .await;
            if let Err(error) = written {
                // Not stored: offer again what the database holds (nothing, or the certificate
                // being renewed).
                shared.services.certificates.withdraw(name);
                lock(&shared.installed).remove(name);
                let _ = shared.refresh().await;
                return Err(error);
            }
            eprintln!("playground host: certificate issued for {name}");
        }
        Err(message) => {
            eprintln!("playground host: the certificate of {name} was not issued: {message}");
            let message: String = message.chars().take(2000).collect();
            row.issue_error = Some((message, at));
            shared.store.write_project(&project, project.primary.as_deref(), &rows, None).await?;
        }
    }
    shared.refresh().await
}
