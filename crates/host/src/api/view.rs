//! What the API answers about a project and its domains: states, DNS instructions, certificate
//! status and troubleshooting, as JSON.

use playground_domains::dns::caa_blocking_reason;
use playground_domains::machine::propagation_note;
use playground_domains::{CertificateStatus, Dashboard, DomainState, RecordSet, instructions};
use serde_json::{Value, json};

use crate::store::{DomainRow, ProjectRow, StoreError};
use crate::{Shared, now};

pub(super) async fn certificate_view(
    shared: &Shared,
    dashboard: &Dashboard,
    row: &DomainRow,
    at: u64,
) -> Result<Value, StoreError> {
    let caa = RecordSet(row.blocking_caa.clone());
    Ok(match dashboard.certificate(&row.name, at, &caa) {
        CertificateStatus::NotRequested => json!({"status": "not_requested"}),
        CertificateStatus::Issuing { expected_at } => json!({"status": "issuing", "expectedAt": expected_at}),
        CertificateStatus::BlockedByCaa { records } => {
            json!({"status": "blocked_by_caa", "records": records})
        }
        CertificateStatus::Overdue { verified_at, blocking_caa, steps } => json!({
            "status": "overdue", "verifiedAt": verified_at, "blockingCaa": blocking_caa, "steps": steps,
        }),
        CertificateStatus::Issued { at } => {
            let not_after = shared.store.certificate(&row.name).await?.map(|c| c.not_after);
            json!({"status": "issued", "at": at, "notAfter": not_after})
        }
    })
}

pub(super) async fn domain_view(
    shared: &Shared,
    dashboard: &Dashboard,
    row: &DomainRow,
    at: u64,
) -> Result<Value, StoreError> {
    let (added_at, verified_at, live_at) = match row.state {
        DomainState::None => (None, None, None),
        DomainState::Added { added_at } => (Some(added_at), None, None),
        DomainState::Verified { added_at, verified_at } => (Some(added_at), Some(verified_at), None),
        DomainState::Reverifying { added_at, verified_at, live_at }
        | DomainState::Live { added_at, verified_at, live_at } => {
            (Some(added_at), Some(verified_at), Some(live_at))
        }
    };
    let published = dashboard.published_address();
    let certificate = certificate_view(shared, dashboard, row, at).await?;
    Ok(json!({
        "name": row.name,
        "state": row.state.label(),
        "serves": row.state.serves(),
        "addedAt": added_at,
        "verifiedAt": verified_at,
        "liveAt": live_at,
        "role": row.role,
        "primary": row.state.serves() && published == row.name,
        "instruction": instructions(&row.name, &shared.config.cname_target),
        "propagationNote": matches!(row.state, DomainState::Added { .. }).then(|| propagation_note(added_at.unwrap_or(at), at)),
        "lastCheck": row.check.as_ref().map(|c| json!({"ok": c.ok, "message": c.message, "at": c.at})),
        "certificate": certificate,
        "issueError": row.issue_error.as_ref().map(|(m, t)| json!({"message": m, "at": t})),
        "removalWarning": dashboard.removal_warning(&row.name).map(|w| json!({"message": w.message, "redirectTo": w.redirect_to})),
    }))
}

pub(super) async fn project_view(shared: &Shared, project: &ProjectRow) -> Result<Value, StoreError> {
    let rows = shared.store.domains_of(&project.name).await?;
    let dashboard = shared.dashboard(project, &rows);
    let at = now();
    let mut domains = Vec::with_capacity(rows.len());
    for r in &rows {
        domains.push(domain_view(shared, &dashboard, r, at).await?);
    }
    let troubleshooting: Vec<Value> = dashboard
        .troubleshooting(at)
        .into_iter()
        .map(|t| {
            let mut applies = t.applies_to;
            // What really happened: failed checks, the authority's errors, CAA.
            for r in &rows {
                match t.symptom {
                    playground_domains::Symptom::VerificationFails => {
                        if let Some(c) = r.check.as_ref().filter(|c| !c.ok) {
                            applies.push(format!("{}: {}", r.name, c.message));
                        }
                    }
                    playground_domains::Symptom::NoCertificate => {
                        if let Some((m, _)) = &r.issue_error {
                            applies.push(format!("{}: the certificate authority answered: {m}", r.name));
                        }
                        if !r.blocking_caa.is_empty() {
                            let list: Vec<String> = r.blocking_caa.iter().map(ToString::to_string).collect();
                            applies.push(format!(
                                "{}: {} ({})",
                                r.name,
                                caa_blocking_reason(&shared.config.acme.ca_identifier, &r.blocking_caa),
                                list.join("; ")
                            ));
                        }
                    }
                    _ => {}
                }
            }
            json!({"symptom": t.symptom.key(), "title": t.symptom.title(), "answer": t.answer, "appliesTo": applies})
        })
        .collect();
    Ok(json!({
        "project": project.name,
        "plan": project.plan,
        "customDomains": project.plan.allows_custom_domains(),
        "deployed": dashboard.settings.deploy_succeeded,
        "defaultAddress": dashboard.default_address(),
        "publishedAddress": dashboard.published_address(),
        "cnameTarget": shared.config.cname_target,
        "apexAddresses": shared.config.apex_addresses,
        "certificateAuthority": shared.config.acme.ca_identifier,
        "domains": domains,
        "alsoServed": dashboard.also_served(),
        "config": dashboard.config(),
        "troubleshooting": troubleshooting,
    }))
}
