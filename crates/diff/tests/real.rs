//! Real pairs (`tests/fixtures/real/README.md`): two published releases of one public API's
//! description each, Swagger 2.0 (converted first, as `playground diff` does), OpenAPI 3.0 and
//! OpenAPI 3.1. The changes asserted here were found by hand in the two files (an operation
//! added, a path parameter renamed in place, a required request property swapped for another, a
//! response enum grown, a request body that appeared, ...); each must be reported with the id and
//! the level `docs/diff.md` gives it. A description compared with itself reports nothing. All the
//! misses of a pair are reported together.

use std::fmt::Write as _;

use playground_diff::{Change, Options, Report, compare};
use serde_json::Value;
use support::to_json;

mod support;

// ---------------------------------------------------------------------------------------------
// Reading

/// `tests/fixtures/real/<pair>/<file>` as OpenAPI 3.x: JSON or YAML by its extension, a Swagger
/// 2.0 description converted.
fn read(pair: &str, file: &str) -> Value {
    let path = format!("{}/tests/fixtures/real/{pair}/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let doc = if file.ends_with(".json") {
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
    } else {
        let mut yaml: serde_yaml_ng::Value =
            serde_yaml_ng::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
        yaml.apply_merge().unwrap_or_else(|e| panic!("{path}: merging `<<`: {e}"));
        to_json(yaml)
    };
    if doc.get("swagger").is_some() {
        playground_convert::swagger2_to_openapi3(&doc)
            .unwrap_or_else(|e| panic!("{path}: converting Swagger 2.0: {e}"))
            .document
    } else {
        doc
    }
}

/// Both sides of a pair: `old.<ext>` and `new.<ext>`.
fn pair(name: &str, ext: &str) -> (Value, Value) {
    (read(name, &format!("old.{ext}")), read(name, &format!("new.{ext}")))
}

fn diff(old: &Value, new: &Value) -> Report {
    compare(old, new, &Options::default())
}

// ---------------------------------------------------------------------------------------------
// Expectations

/// One change that must be reported.
#[derive(Debug, Clone, Copy)]
struct Want {
    id: &'static str,
    level: &'static str,
    /// An operation it must name (`GET /pets`), when it names one.
    operation: Option<&'static str>,
    /// The component schema it must be reported under.
    schema: Option<&'static str>,
    /// `request` or `response`, for a schema's change.
    direction: Option<&'static str>,
    /// How its pointer must end (`/properties/name`).
    pointer_ends: Option<&'static str>,
}

const fn want(id: &'static str, level: &'static str) -> Want {
    Want { id, level, operation: None, schema: None, direction: None, pointer_ends: None }
}

impl Want {
    const fn on(mut self, operation: &'static str) -> Self {
        self.operation = Some(operation);
        self
    }

    const fn schema(mut self, schema: &'static str) -> Self {
        self.schema = Some(schema);
        self
    }

    const fn direction(mut self, direction: &'static str) -> Self {
        self.direction = Some(direction);
        self
    }

    const fn at(mut self, pointer_ends: &'static str) -> Self {
        self.pointer_ends = Some(pointer_ends);
        self
    }

    fn matches(&self, change: &Change) -> bool {
        change.id == self.id
            && change.level.as_str() == self.level
            && self.operation.is_none_or(|label| names(change, label))
            && self.schema.is_none_or(|schema| change.schema.as_deref() == Some(schema))
            && self.direction.is_none_or(|d| change.direction.map(|x| x.as_str()) == Some(d))
            && self.pointer_ends.is_none_or(|end| change.pointer.ends_with(end))
    }

    fn describe(&self) -> String {
        let mut text = format!("{} {}", self.id, self.level);
        if let Some(direction) = self.direction {
            let _ = write!(text, " ({direction})");
        }
        if let Some(schema) = self.schema {
            let _ = write!(text, " [schema {schema}]");
        }
        if let Some(operation) = self.operation {
            let _ = write!(text, " on {operation}");
        }
        if let Some(end) = self.pointer_ends {
            let _ = write!(text, " at ...{end}");
        }
        text
    }
}

/// Whether `change` names the operation `label` (`GET /pets`).
fn names(change: &Change, label: &str) -> bool {
    change.operations.iter().any(|operation| operation.label() == label)
}

fn describe_change(change: &Change) -> String {
    let mut text = format!("{} {}", change.id, change.level.as_str());
    if let Some(direction) = change.direction {
        let _ = write!(text, " ({})", direction.as_str());
    }
    if let Some(schema) = &change.schema {
        let _ = write!(text, " [schema {schema}]");
    }
    let operations: Vec<String> =
        change.operations.iter().map(playground_diff::OperationKey::label).collect();
    if !operations.is_empty() {
        let _ = write!(text, " [{}]", operations.join(", "));
    }
    let _ = write!(text, " at {} ({}): {}", change.place, change.pointer, change.message);
    text
}

/// The changes of `report` that `pick` selects, one a line, for a failure message.
fn listing(report: &Report, pick: impl Fn(&Change) -> bool) -> String {
    let lines: Vec<String> = report
        .changes
        .iter()
        .filter(|change| pick(change))
        .map(|change| format!("    {}", describe_change(change)))
        .collect();
    if lines.is_empty() { "    (none)".to_owned() } else { lines.join("\n") }
}

/// What must not be reported: in words, and a predicate on a change.
type Forbidden<'a> = (&'a str, &'a dyn Fn(&Change) -> bool);

/// Every `wants` must be reported, and no change may match one of `forbidden`; all misses
/// together.
fn check(name: &str, report: &Report, wants: &[Want], forbidden: &[Forbidden<'_>]) {
    let mut failures = String::new();
    for wanted in wants {
        if !report.changes.iter().any(|change| wanted.matches(change)) {
            let _ = writeln!(
                failures,
                "  missing: {}\n  reported with that id:\n{}",
                wanted.describe(),
                listing(report, |change| change.id == wanted.id
                    && wanted.operation.is_none_or(|label| names(change, label)))
            );
        }
    }
    for (what, pick) in forbidden {
        if report.changes.iter().any(pick) {
            let _ = writeln!(failures, "  reported, but must not be: {what}\n{}", listing(report, pick));
        }
    }
    assert!(
        failures.is_empty(),
        "{name}: {} changes ({} breaking, {} deprecation, {} non-breaking)\n{failures}",
        report.changes.len(),
        report.count(playground_diff::Level::Breaking),
        report.count(playground_diff::Level::Deprecation),
        report.count(playground_diff::Level::NonBreaking),
    );
}

/// A description compared with itself reports nothing.
fn assert_same(name: &str, doc: &Value) {
    let report = diff(doc, doc);
    assert!(
        report.changes.is_empty(),
        "{name} compared with itself reports {} changes:\n{}",
        report.changes.len(),
        listing(&report, |_| true)
    );
}

// ---------------------------------------------------------------------------------------------
// The pairs

/// `@netlify/open-api` 2.50.0 to 2.60.0, Swagger 2.0.
#[test]
fn netlify_swagger2() {
    let (old, new) = pair("netlify", "json");
    let report = diff(&old, &new);
    // `/sites/{site_id}/database/branch/{...}` itself (deeper paths are new operations).
    let renamed = |change: &Change| {
        matches!(change.id, "operation-removed" | "operation-added")
            && change.operations.iter().any(|op| {
                op.path
                    .strip_prefix("/sites/{site_id}/database/branch/{")
                    .is_some_and(|rest| rest.ends_with('}') && !rest.contains('/'))
            })
    };
    check(
        "netlify 2.50.0 -> 2.60.0",
        &report,
        &[
            // New operations.
            want("operation-added", "non-breaking").on("GET /sites/{site_id}/agent_runner_hooks"),
            want("operation-added", "non-breaking").on("POST /sites/{site_id}/agent_runner_hooks"),
            want("operation-added", "non-breaking").on("PUT /deploys/{deploy_id}/server/{code_sha}"),
            want("operation-added", "non-breaking").on("GET /sites/{site_id}/database/migrations"),
            // `{deploy_id}` renamed `{branch_id}` in place (a path-level parameter): the same
            // operations, the rename reported.
            want("path-parameter-renamed", "non-breaking")
                .on("GET /sites/{site_id}/database/branch/{branch_id}"),
            want("path-parameter-renamed", "non-breaking")
                .on("DELETE /sites/{site_id}/database/branch/{branch_id}"),
            // An optional query parameter `role` (an enum) on two operations.
            want("parameter-added", "non-breaking").on("GET /sites/{site_id}/database"),
            want("parameter-added", "non-breaking").on("GET /sites/{site_id}/database/branch/{branch_id}"),
            // The inline body of POST .../database/branch: required `deploy_id` gone, required
            // `branch_id` and optional `metadata` new.
            want("property-removed", "breaking")
                .on("POST /sites/{site_id}/database/branch")
                .direction("request")
                .at("/properties/deploy_id"),
            want("property-added", "breaking")
                .on("POST /sites/{site_id}/database/branch")
                .direction("request")
                .at("/properties/branch_id"),
            want("property-added", "non-breaking")
                .on("POST /sites/{site_id}/database/branch")
                .direction("request")
                .at("/properties/metadata"),
            // POST .../database/snapshot: optional `branch_name` gone from the request.
            want("property-removed", "breaking")
                .on("POST /sites/{site_id}/database/snapshot")
                .direction("request")
                .at("/properties/branch_name"),
            // POST /oauth/tickets: an optional body parameter (a request body, not required)
            // and two error statuses.
            want("request-body-added", "non-breaking").on("POST /oauth/tickets"),
            want("response-added", "non-breaking").on("POST /oauth/tickets").at("/401"),
            want("response-added", "non-breaking").on("POST /oauth/tickets").at("/422"),
        ],
        &[(
            "an operation under database/branch/{...} removed or added (the path only renamed its parameter)",
            &renamed,
        )],
    );
    assert_same("netlify 2.50.0", &old);
    assert_same("netlify 2.60.0", &new);
}

/// `@blockfrost/openapi` 0.1.49 to 0.1.60, OpenAPI 3.0.0.
#[test]
fn blockfrost_openapi30() {
    let (old, new) = pair("blockfrost", "yaml");
    let report = diff(&old, &new);
    check(
        "blockfrost 0.1.49 -> 0.1.60",
        &report,
        &[
            want("operation-added", "non-breaking").on("GET /mempool/addresses/{address}"),
            want("operation-added", "non-breaking").on("POST /utils/txs/evaluate/utxos"),
            // `asset.onchain_metadata_standard` (a response) grew the value `CIP68v1`: a client's
            // switch meets a value it does not know.
            want("enum-value-added", "breaking")
                .schema("asset")
                .direction("response")
                .on("GET /assets/{asset}"),
            // A required `address` in each item of `address_utxo_content` (a response): narrows
            // what the response holds.
            want("property-added", "non-breaking")
                .schema("address_utxo_content")
                .direction("response")
                .on("GET /addresses/{address}/utxos")
                .at("/properties/address"),
            want("property-added", "non-breaking")
                .schema("address_utxo_content")
                .on("GET /addresses/{address}/utxos/{asset}")
                .at("/properties/address"),
            // An optional `address` in `mempool_tx_content.inputs[]` (a response).
            want("property-added", "non-breaking")
                .schema("mempool_tx_content")
                .direction("response")
                .on("GET /mempool/{hash}")
                .at("/properties/address"),
            // Request bodies where there were none: required on the two CBOR submissions,
            // optional on the IPFS upload.
            want("request-body-added", "breaking").on("POST /tx/submit"),
            want("request-body-added", "breaking").on("POST /utils/txs/evaluate"),
            want("request-body-added", "non-breaking").on("POST /ipfs/add"),
        ],
        &[("an operation removed (none is)", &|change: &Change| change.id == "operation-removed")],
    );
    assert_same("blockfrost 0.1.49", &old);
    assert_same("blockfrost 0.1.60", &new);
}

/// `@scalar/galaxy` 0.2.20 to 0.6.12, OpenAPI 3.1.1.
#[test]
fn scalar_galaxy_openapi31() {
    let (old, new) = pair("scalar-galaxy", "yaml");
    let report = diff(&old, &new);
    let anonymous_security = |change: &Change| {
        change.id.starts_with("security-")
            && change.level.as_str() == "breaking"
            && (names(change, "GET /planets") || names(change, "GET /planets/{planetId}"))
    };
    check(
        "scalar-galaxy 0.2.20 -> 0.6.12",
        &report,
        &[
            want("operation-added", "non-breaking").on("POST /celestial-bodies"),
            // New error statuses and response headers.
            want("response-added", "non-breaking").on("POST /auth/token").at("/429"),
            want("response-added", "non-breaking").on("POST /user/signup").at("/409"),
            want("response-header-added", "non-breaking").on("GET /me").at("/X-Request-ID"),
            // `{apiKeyHeader, apiKeyQuery}` together: one more way to authenticate (GET /me's own
            // `security`; the document's gained it too).
            want("security-alternative-added", "non-breaking").on("GET /me"),
            // `additionalProperties: false` set on Planet, used in requests (POST /planets, PUT
            // /planets/{planetId}) and in responses: narrows both ways.
            want("additional-properties-forbidden", "breaking")
                .schema("Planet")
                .direction("request")
                .on("POST /planets"),
            want("additional-properties-forbidden", "non-breaking")
                .schema("Planet")
                .direction("response")
                .on("GET /planets/{planetId}"),
            // New optional Planet properties: widen a request, neither in a response.
            want("property-added", "non-breaking")
                .schema("Planet")
                .direction("request")
                .at("/properties/habitabilityIndex"),
            want("property-added", "non-breaking")
                .schema("Planet")
                .direction("response")
                .at("/properties/habitabilityIndex"),
        ],
        &[
            (
                "a breaking security change on GET /planets or GET /planets/{planetId} \
                 (`security: [{}]` to `security: []`: no credentials needed before or after)",
                &anonymous_security,
            ),
            ("an operation removed (none is)", &|change: &Change| change.id == "operation-removed"),
        ],
    );
    assert_same("scalar-galaxy 0.2.20", &old);
    assert_same("scalar-galaxy 0.6.12", &new);
}
