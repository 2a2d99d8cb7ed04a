//! Rows to values and back: the text and integer columns of the tables.

use playground_domains::{DnsRecord, DomainRole, DomainState, Plan};

use super::{Check, DomainRow, StoreError};

pub(super) fn as_i64(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

pub(super) fn as_u64(n: i64) -> u64 {
    u64::try_from(n).unwrap_or(0)
}

/// A domain's columns as read, before they are judged (either engine fills it).
#[derive(Debug)]
pub(super) struct DomainColumns {
    pub name: String,
    pub project: String,
    pub role: String,
    pub state: String,
    pub added_at: u64,
    pub verified_at: Option<u64>,
    pub live_at: Option<u64>,
    pub check_ok: Option<bool>,
    pub check_message: Option<String>,
    pub checked_at: Option<u64>,
    pub caa: String,
    pub issue_error: Option<String>,
    pub issue_failed_at: Option<u64>,
}

/// The columns every domain query selects, in [`DomainColumns`]' order.
pub(super) const DOMAIN_COLUMNS: &str = "name, project, role, state, added_at, verified_at, live_at, \
     check_ok, check_message, checked_at, blocking_caa, issue_error, issue_failed_at";

impl DomainColumns {
    /// The stored domain, or why the row is bad.
    pub(super) fn into_row(self) -> Result<DomainRow, StoreError> {
        let DomainColumns { name, project, role, state, added_at, verified_at, live_at, .. } = self;
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
        let check = match (self.check_ok, self.check_message, self.checked_at) {
            (Some(ok), Some(message), Some(at)) => Some(Check { ok, message, at }),
            _ => None,
        };
        let blocking_caa: Vec<DnsRecord> =
            serde_json::from_str(&self.caa).map_err(|e| bad(&e.to_string()))?;
        let issue_error = self.issue_error.map(|m| (m, self.issue_failed_at.unwrap_or(0)));
        Ok(DomainRow { name, project, role, state, check, blocking_caa, issue_error })
    }
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
