//! Rows to values and back: the text and integer columns of the tables.

use playground_domains::{DnsRecord, DomainRole, DomainState, Plan};

use super::{CertificateRow, Check, DomainRow, StoreError};

pub(super) fn as_i64(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

pub(super) fn as_u64(n: i64) -> u64 {
    u64::try_from(n).unwrap_or(0)
}

pub(super) fn read_certificate(r: &rusqlite::Row<'_>) -> rusqlite::Result<CertificateRow> {
    Ok(CertificateRow {
        name: r.get(0)?,
        chain_pem: r.get(1)?,
        key_pem: r.get(2)?,
        not_after: as_u64(r.get(3)?),
    })
}

pub(super) type DomainResult = Result<DomainRow, StoreError>;

pub(super) fn read_domain(r: &rusqlite::Row<'_>) -> rusqlite::Result<DomainResult> {
    let name: String = r.get(0)?;
    let project: String = r.get(1)?;
    let role: String = r.get(2)?;
    let state: String = r.get(3)?;
    let added_at = as_u64(r.get(4)?);
    let verified_at = r.get::<_, Option<i64>>(5)?.map(as_u64);
    let live_at = r.get::<_, Option<i64>>(6)?.map(as_u64);
    let check_ok: Option<bool> = r.get(7)?;
    let check_message: Option<String> = r.get(8)?;
    let checked_at = r.get::<_, Option<i64>>(9)?.map(as_u64);
    let caa: String = r.get(10)?;
    let issue_error: Option<String> = r.get(11)?;
    let issue_failed_at = r.get::<_, Option<i64>>(12)?.map(as_u64);
    Ok((|| {
        let bad = |what: &str| StoreError::Corrupt(format!("the domain {name}: {what}"));
        let state = match (state.as_str(), verified_at, live_at) {
            ("added", _, _) => DomainState::Added { added_at },
            ("verified", Some(verified_at), _) => DomainState::Verified { added_at, verified_at },
            ("reverifying", Some(verified_at), Some(live_at)) => {
                DomainState::Reverifying { added_at, verified_at, live_at }
            }
            ("live", Some(verified_at), Some(live_at)) => {
                DomainState::Live { added_at, verified_at, live_at }
            }
            _ => return Err(bad(&format!("state {state} without its times"))),
        };
        let role = match role.as_str() {
            "redirect" => DomainRole::Redirect,
            "serve" => DomainRole::Serve,
            other => return Err(bad(&format!("role {other}"))),
        };
        let check = match (check_ok, check_message, checked_at) {
            (Some(ok), Some(message), Some(at)) => Some(Check { ok, message, at }),
            _ => None,
        };
        let blocking_caa: Vec<DnsRecord> = serde_json::from_str(&caa).map_err(|e| bad(&e.to_string()))?;
        let issue_error = issue_error.map(|m| (m, issue_failed_at.unwrap_or(0)));
        Ok(DomainRow { name: name.clone(), project, role, state, check, blocking_caa, issue_error })
    })())
}

pub(super) fn state_columns(state: &DomainState) -> (&'static str, u64, Option<u64>, Option<u64>) {
    match *state {
        DomainState::None => ("added", 0, None, None),
        DomainState::Added { added_at } => ("added", added_at, None, None),
        DomainState::Verified { added_at, verified_at } => ("verified", added_at, Some(verified_at), None),
        DomainState::Reverifying { added_at, verified_at, live_at } => {
            ("reverifying", added_at, Some(verified_at), Some(live_at))
        }
        DomainState::Live { added_at, verified_at, live_at } => {
            ("live", added_at, Some(verified_at), Some(live_at))
        }
    }
}

pub(super) fn role_text(role: DomainRole) -> &'static str {
    match role {
        DomainRole::Redirect => "redirect",
        DomainRole::Serve => "serve",
    }
}

pub(super) fn plan_text(plan: Plan) -> &'static str {
    match plan {
        Plan::Free => "free",
        Plan::Pro => "pro",
        Plan::Business => "business",
        Plan::Enterprise => "enterprise",
    }
}

pub(super) fn parse_plan(text: &str) -> Result<Plan, StoreError> {
    Plan::ALL
        .into_iter()
        .find(|p| plan_text(*p) == text)
        .ok_or_else(|| StoreError::Corrupt(format!("a project has the plan {text}")))
}
