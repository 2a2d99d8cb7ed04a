//! Drift: how a real exchange departs from the description. A request is checked as the mock
//! checks the requests it answers (operation, credentials, parameters, body); an answer for its
//! status (documented?), its media type, its required headers and its body against the schema,
//! with the one schema checker read for answers ([`Direction::Response`]).
//!
//! Pure: the proxy of `playground mock --proxy` and the page check real answers with it, and
//! `playground drift` sums up the log of those checks ([`Summary`]).

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::failure::{self, Failure};
use super::params::{self, Raw};
use super::spec::{Operation, Spec};
use super::{ApiMock, split_target};
use playground_http::{Request, Response};
use playground_openapi::pointer::resolve;

mod answer;
use answer::{answer_mismatches, escape};
use playground_openapi::schema::Direction;
use playground_validate::Step;

/// The most mismatches one check lists (the first ones found).
pub const MAX_MISMATCHES: usize = 50;

/// The largest answer body checked against its schema (8 MiB); a bigger one is one mismatch.
pub const MAX_CHECKED_BODY: usize = 8 * 1024 * 1024;

/// What a mismatch is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MismatchKind {
    /// No operation of the description has the request's method and path.
    Operation,
    /// The request breaks the description: credentials, a parameter, its body or media type.
    Request,
    /// The answer's status is not documented (not exactly, by range, nor by `default`).
    Status,
    /// The answer's media type is not one documented for its status.
    MediaType,
    /// A required header of the answer is missing, or a documented one breaks its schema.
    Header,
    /// The answer's body breaks its schema, or cannot be read as its media type.
    Body,
}

impl MismatchKind {
    /// The kind as logs and headers write it (`media-type`).
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            MismatchKind::Operation => "operation",
            MismatchKind::Request => "request",
            MismatchKind::Status => "status",
            MismatchKind::MediaType => "media-type",
            MismatchKind::Header => "header",
            MismatchKind::Body => "body",
        }
    }
}

impl fmt::Display for MismatchKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One way an exchange departs from the description.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mismatch {
    /// What it is about.
    pub kind: MismatchKind,
    /// Where in the body (the request's for [`MismatchKind::Request`], else the answer's), as
    /// a JSON pointer (`/items/0/id`); empty for the body as a whole and for what is not in a
    /// body (the status, a header, a parameter: the rule names it).
    pub pointer: String,
    /// The rule broken, in words: `expected integer, got string`, `status 418 is not
    /// documented`.
    pub rule: String,
}

impl Mismatch {
    fn new(kind: MismatchKind, pointer: impl Into<String>, rule: impl Into<String>) -> Self {
        Self { kind, pointer: pointer.into(), rule: rule.into() }
    }
}

/// `` `/items/0/id`: expected integer, got string ``, or the rule alone when it is not in a body.
impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.pointer.is_empty() {
            f.write_str(&self.rule)
        } else {
            write!(f, "`{}`: {}", self.pointer, self.rule)
        }
    }
}

/// A checked exchange: the operation the request named (its `operationId`, else `METHOD
/// template`), when one did, and every mismatch found, the request's first.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Checked {
    /// The operation, when the request's method and path name one.
    pub operation: Option<String>,
    /// What departs from the description; empty when nothing does.
    pub mismatches: Vec<Mismatch>,
}

/// Why an answer could not be checked for an operation: the description has no such operation.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the description has no operation {0}")]
pub struct UnknownOperation(pub String);

impl ApiMock {
    /// Checks a real exchange against the description: the request as the mock would check it
    /// ([`ApiMock::check_request`]), then the answer ([`ApiMock::check_answer`]). Never
    /// changes the mock.
    #[must_use]
    pub fn check_exchange(&self, request: &Request, response: &Response) -> Checked {
        let (mut checked, op) = self.checked_request(request);
        if let Some(op) = op {
            let spec = &*self.spec;
            checked.mismatches.extend(answer_mismatches(
                spec,
                op,
                response.status,
                &response.headers,
                &response.body,
            ));
            checked.mismatches.truncate(MAX_MISMATCHES);
        }
        checked
    }

    /// Checks a request as the mock checks those it answers: the operation its method and path
    /// name, the credentials its security asks for (present, whatever their value), its
    /// parameters and its body. Never changes the mock.
    #[must_use]
    pub fn check_request(&self, request: &Request) -> Checked {
        self.checked_request(request).0
    }

    fn checked_request(&self, request: &Request) -> (Checked, Option<&Operation>) {
        let spec = &*self.spec;
        let (path, query) = split_target(&request.target);
        let (_, path_params, op) = match super::route(spec, &self.api, &request.method, path) {
            Ok(found) => found,
            Err(failure) => {
                let rule = format!("{} {path}: {}", request.method.to_ascii_uppercase(), failure.message);
                let mismatches = vec![Mismatch::new(MismatchKind::Operation, "", rule)];
                return (Checked { operation: None, mismatches }, None);
            }
        };
        let mut mismatches = request_mismatches(spec, op, request, &path_params, query);
        mismatches.truncate(MAX_MISMATCHES);
        (Checked { operation: Some(op.id.clone()), mismatches }, Some(op))
    }

    /// Checks an answer of the operation `operation_id` (its `operationId`, else `METHOD
    /// template`): is `status` documented, is the media type one of those documented for it,
    /// are the required headers there (and the documented ones as their schemas say), does the
    /// body fit its schema. At most [`MAX_MISMATCHES`].
    ///
    /// # Errors
    /// When the description has no such operation.
    pub fn check_answer(
        &self,
        operation_id: &str,
        status: u16,
        headers: &[(String, String)],
        body: &[u8],
    ) -> Result<Vec<Mismatch>, UnknownOperation> {
        let spec = &*self.spec;
        let op = spec
            .paths
            .iter()
            .flat_map(|p| &p.ops)
            .find(|op| op.id == operation_id)
            .ok_or_else(|| UnknownOperation(operation_id.to_owned()))?;
        let mut found = answer_mismatches(spec, op, status, headers, body);
        found.truncate(MAX_MISMATCHES);
        Ok(found)
    }

    /// The values of a request that carry credentials, so that logs can leave them out: the
    /// `Authorization`, `Proxy-Authorization` and `Cookie` headers (and each cookie's value),
    /// and every API key the description's security schemes put in a header, the query or a
    /// cookie.
    #[must_use]
    pub fn credentials_in(&self, request: &Request) -> Vec<String> {
        let mut names: Vec<(&str, String)> = vec![
            ("header", "authorization".to_owned()),
            ("header", "proxy-authorization".to_owned()),
            ("header", "cookie".to_owned()),
        ];
        for scheme in playground_openapi::security::schemes(&self.spec.doc) {
            use playground_openapi::security::{ApiKeyIn, SchemeKind};
            if let SchemeKind::ApiKey { name, location } = scheme.kind {
                let place = match location {
                    ApiKeyIn::Header => "header",
                    ApiKeyIn::Query => "query",
                    ApiKeyIn::Cookie => "cookie",
                };
                names.push((place, name.to_ascii_lowercase()));
            }
        }
        let named =
            |place: &str, name: &str| names.iter().any(|(p, n)| *p == place && n.eq_ignore_ascii_case(name));
        let mut found: Vec<String> = Vec::new();
        let mut keep = |value: &str| {
            let value = value.trim();
            if !value.is_empty() && !found.iter().any(|f| f == value) {
                found.push(value.to_owned());
            }
        };
        for (name, value) in &request.headers {
            if named("header", name) {
                keep(value);
                // The token alone too (`Bearer abc`'s `abc`), as a message may quote it.
                if let Some((_, token)) = value.split_once(' ') {
                    keep(token);
                }
            }
            if name.eq_ignore_ascii_case("cookie") {
                for (_, cookie) in value.split(';').filter_map(|pair| pair.split_once('=')) {
                    keep(cookie);
                }
            }
        }
        let (_, query) = split_target(&request.target);
        for (name, value) in form_urlencoded::parse(query.as_bytes()) {
            if named("query", &name) {
                keep(&value);
            }
        }
        found
    }
}

/// The request's mismatches: credentials, parameters, body.
fn request_mismatches(
    spec: &Spec,
    op: &Operation,
    request: &Request,
    path_params: &[(String, String)],
    query: &str,
) -> Vec<Mismatch> {
    let query_pairs: Vec<(String, String)> = form_urlencoded::parse(query.as_bytes()).into_owned().collect();
    let mut out = Vec::new();
    if let Err(failure) = super::security::check_credentials(op, request, &query_pairs, &[]) {
        out.extend(from_failure(failure));
    }
    let raw = Raw { path: path_params, query: &query_pairs, request };
    if let Err(failure) = params::read_params(spec, op, &raw, true) {
        out.extend(from_failure(failure));
    }
    if let Some(body) = &op.body
        && let Err(failure) = params::read_body(spec, op, body, request, true, usize::MAX)
    {
        out.extend(from_failure(failure));
    }
    out
}

/// A refusal of the request, one mismatch per problem it lists (or one for the whole).
fn from_failure(failure: Failure) -> Vec<Mismatch> {
    if failure.problems.is_empty() {
        return vec![Mismatch::new(MismatchKind::Request, "", failure.message)];
    }
    failure
        .problems
        .into_iter()
        .map(|problem| {
            let in_body = problem.loc.first().and_then(Value::as_str) == Some("body");
            let pointer = if in_body {
                problem.loc[1..]
                    .iter()
                    .map(|step| match step {
                        Value::String(name) => format!("/{}", escape(name)),
                        other => format!("/{other}"),
                    })
                    .collect()
            } else {
                String::new()
            };
            Mismatch::new(MismatchKind::Request, pointer, problem.message)
        })
        .collect()
}

/// One line of the log of checked exchanges (JSON Lines): which operation, the status, the
/// mismatches. Nothing of the request's credentials is in it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExchangeLine {
    /// When, as RFC 3339 UTC text (as the writer gives it).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub time: String,
    /// The request's method.
    pub method: String,
    /// The request's path, without its query (which may carry an API key).
    pub path: String,
    /// The operation the request named, if any.
    pub operation: Option<String>,
    /// The answer's status (502 when the real API could not be reached).
    pub status: u16,
    /// Milliseconds from the request to the whole answer.
    #[serde(default)]
    pub ms: u64,
    /// What departs from the description.
    pub mismatches: Vec<Mismatch>,
    /// Why no answer came from the real API, when none did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// The most rows a [`Summary`] keeps; the exchanges of further operations (or of paths the
/// description lacks, which have a row each) are counted under [`OTHER_ROW`].
pub const MAX_SUMMARY_ROWS: usize = 1_000;

/// The row of the exchanges past [`MAX_SUMMARY_ROWS`].
pub const OTHER_ROW: &str = "(others)";

/// Calls and mismatches by kind, per operation: what `playground drift` prints from a log.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Summary {
    /// Per operation (`METHOD path` for requests that named none).
    pub operations: BTreeMap<String, OperationDrift>,
    /// Exchanges read.
    pub calls: u64,
}

/// One operation's calls and mismatches.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OperationDrift {
    /// Exchanges of the operation.
    pub calls: u64,
    /// Exchanges with at least one mismatch.
    pub drifted: u64,
    /// Mismatches of each kind.
    pub by_kind: BTreeMap<MismatchKind, u64>,
    /// Exchanges the real API did not answer.
    pub failed: u64,
}

impl Summary {
    /// Counts one exchange.
    pub fn add(&mut self, line: &ExchangeLine) {
        let mut key = line.operation.clone().unwrap_or_else(|| format!("{} {}", line.method, line.path));
        if self.operations.len() >= MAX_SUMMARY_ROWS && !self.operations.contains_key(&key) {
            key = OTHER_ROW.to_owned();
        }
        let entry = self.operations.entry(key).or_default();
        entry.calls += 1;
        self.calls += 1;
        if !line.mismatches.is_empty() {
            entry.drifted += 1;
        }
        if line.error.is_some() {
            entry.failed += 1;
        }
        for mismatch in &line.mismatches {
            *entry.by_kind.entry(mismatch.kind).or_default() += 1;
        }
    }
}

/// A table: one line per operation, with its calls, how many drifted, and the mismatches by
/// kind.
impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let width =
            self.operations.keys().map(|k| k.chars().count()).max().unwrap_or(0).max("operation".len());
        writeln!(f, "{:width$}  {:>6}  {:>8}  mismatches by kind", "operation", "calls", "drifted")?;
        for (name, drift) in &self.operations {
            let kinds: Vec<String> = drift.by_kind.iter().map(|(kind, n)| format!("{kind} {n}")).collect();
            let mut kinds = if kinds.is_empty() { "none".to_owned() } else { kinds.join(", ") };
            if drift.failed > 0 {
                kinds.push_str(&format!("; {} unanswered", drift.failed));
            }
            writeln!(f, "{name:width$}  {:>6}  {:>8}  {kinds}", drift.calls, drift.drifted)?;
        }
        let drifted: u64 = self.operations.values().map(|o| o.drifted).sum();
        write!(f, "{} calls of {} operations, {drifted} with mismatches", self.calls, self.operations.len())
    }
}

#[cfg(test)]
mod tests;
