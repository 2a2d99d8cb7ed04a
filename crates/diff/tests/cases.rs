//! The case table (`tests/cases.yaml`) that proves the catalogue of changes in `docs/diff.md`:
//! every case is a pair of small OpenAPI documents compared both ways (`forward`: old to new,
//! `backward`: new to old), and what `compare` reports must be exactly the expected changes, as a
//! multiset of (id, level), with the shared schema and the operations where the case names them.
//! Every id of the catalogue's tables must be expected somewhere, so the table cannot silently
//! miss a rule. Each direction also checks what `docs/diff.md` says of every report: the same
//! input gives the same report, breaking changes come first, and each change's pointer names a
//! place in NEW (or in OLD, for what was removed). Every case runs; the failures are reported
//! together at the end.
//!
//! A case's `old` and `new` are whole documents, or, with `wrap`, the one schema that differs,
//! placed by [`wrap`] into a fixed small document (a request body, a response, a parameter, a
//! response header, a webhook's payload or a webhook's answer).
//!
//! `DIFF_CASES_SHOW=part-of-a-name cargo test -p playground-diff --test cases -- --nocapture`
//! prints everything the matching cases report.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::panic::{AssertUnwindSafe, catch_unwind};

use playground_diff::{Change, Options, Report, compare};
use serde_json::{Value, json};
use support::to_json;

mod support;

/// The table must not shrink below this.
const MIN_CASES: usize = 90;

const LEVELS: [&str; 3] = ["breaking", "deprecation", "non-breaking"];

/// One expected change.
#[derive(Debug, Clone)]
struct Expected {
    id: String,
    level: String,
    /// The component schema it must be reported under.
    schema: Option<String>,
    /// The operations it must name (labels, `GET /pets`), compared as a set.
    operations: Option<BTreeSet<String>>,
}

impl Expected {
    fn matches(&self, change: &Change) -> bool {
        change.id == self.id
            && change.level.as_str() == self.level
            && self.schema.as_ref().is_none_or(|schema| change.schema.as_ref() == Some(schema))
            && self.operations.as_ref().is_none_or(|operations| &labels(change) == operations)
    }

    fn describe(&self) -> String {
        let mut text = format!("{} {}", self.id, self.level);
        if let Some(schema) = &self.schema {
            let _ = write!(text, " [schema {schema}]");
        }
        if let Some(operations) = &self.operations {
            let _ = write!(text, " [{}]", operations.iter().cloned().collect::<Vec<_>>().join(", "));
        }
        text
    }
}

struct Case {
    name: String,
    today: Option<String>,
    old: Value,
    new: Value,
    forward: Vec<Expected>,
    backward: Vec<Expected>,
}

fn labels(change: &Change) -> BTreeSet<String> {
    change.operations.iter().map(playground_diff::OperationKey::label).collect()
}

fn describe_change(change: &Change) -> String {
    let mut text = format!("{} {}", change.id, change.level.as_str());
    if let Some(direction) = change.direction {
        let _ = write!(text, " ({})", direction.as_str());
    }
    if let Some(schema) = &change.schema {
        let _ = write!(text, " [schema {schema}]");
    }
    let operations: Vec<String> = labels(change).into_iter().collect();
    if !operations.is_empty() {
        let _ = write!(text, " [{}]", operations.join(", "));
    }
    let _ = write!(text, " at {:?} ({}): {}", change.place, change.pointer, change.message);
    if change.old.is_some() || change.new.is_some() {
        let show = |value: &Option<Value>| value.as_ref().map_or_else(|| "-".to_owned(), Value::to_string);
        let _ = write!(text, " [{} -> {}]", show(&change.old), show(&change.new));
    }
    text
}

// ---------------------------------------------------------------------------------------------
// Reading the table

fn load_table() -> Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/cases.yaml");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut yaml: serde_yaml_ng::Value =
        serde_yaml_ng::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    yaml.apply_merge().unwrap_or_else(|e| panic!("{path}: merging `<<`: {e}"));
    to_json(yaml)
}

/// The fixed document around a `wrap` case's schema (`null`: a media type without a schema).
fn wrap(
    kind: &str,
    openapi: &str,
    schema: &Value,
    components: Option<&Value>,
    extra: Option<&Value>,
) -> Value {
    let media = if schema.is_null() { json!({}) } else { json!({"schema": schema}) };
    let content = json!({"application/json": media});
    let ok = json!({"200": {"description": "OK"}});
    let mut document = json!({
        "openapi": openapi,
        "info": {"title": "Petstore", "version": "1.0.0"},
        "paths": {},
    });
    match kind {
        "request" => {
            document["paths"] = json!({"/pets": {"post": {
                "operationId": "createPet",
                "requestBody": {"required": true, "content": content},
                "responses": {"201": {"description": "Created"}},
            }}});
        }
        "response" => {
            document["paths"] = json!({"/pets": {"get": {
                "operationId": "listPets",
                "responses": {"200": {"description": "OK", "content": content}},
            }}});
        }
        "parameter" => {
            document["paths"] = json!({"/pets": {"get": {
                "operationId": "listPets",
                "parameters": [{"name": "limit", "in": "query", "schema": schema}],
                "responses": ok,
            }}});
        }
        "response-header" => {
            document["paths"] = json!({"/pets": {"get": {
                "operationId": "listPets",
                "responses": {"200": {"description": "OK", "headers": {"X-Rate-Limit": {"schema": schema}}}},
            }}});
        }
        "webhook" => {
            document["webhooks"] = json!({"newPet": {"post": {
                "requestBody": {"required": true, "content": content},
                "responses": ok,
            }}});
        }
        "webhook-response" => {
            document["webhooks"] = json!({"newPet": {"post": {
                "responses": {"200": {"description": "OK", "content": content}},
            }}});
        }
        other => panic!("cases.yaml: unknown wrap {other:?}"),
    }
    if let Some(extra) = extra {
        let extra = extra.as_object().expect("a wrap case's `operation` is a mapping");
        let container = if document["webhooks"].is_object() { "webhooks" } else { "paths" };
        let item = document[container].as_object_mut().and_then(|items| items.values_mut().next());
        let operation = item
            .and_then(Value::as_object_mut)
            .and_then(|methods| methods.values_mut().next())
            .and_then(Value::as_object_mut)
            .expect("the wrapped document has one operation");
        for (key, value) in extra {
            operation.insert(key.clone(), value.clone());
        }
    }
    if let Some(components) = components {
        document["components"] = components.clone();
    }
    document
}

fn expectations(case: &str, key: &str, list: &Value) -> Vec<Expected> {
    let list = list.as_array().unwrap_or_else(|| panic!("case {case}: `{key}` is a list"));
    list.iter()
        .map(|item| {
            let text = |field: &str| item.get(field).and_then(Value::as_str).map(str::to_owned);
            let id = text("id").unwrap_or_else(|| panic!("case {case}: a `{key}` item without id: {item}"));
            let level =
                text("level").unwrap_or_else(|| panic!("case {case}: `{key}` {id} has no level: {item}"));
            assert!(LEVELS.contains(&level.as_str()), "case {case}: `{key}` {id}: unknown level {level}");
            let operations = item.get("operations").map(|operations| {
                operations
                    .as_array()
                    .unwrap_or_else(|| panic!("case {case}: `{key}` {id}: operations is a list"))
                    .iter()
                    .map(|o| o.as_str().expect("an operation label is a string").to_owned())
                    .collect()
            });
            Expected { id, level, schema: text("schema"), operations }
        })
        .collect()
}

fn cases() -> Vec<Case> {
    let table = load_table();
    let list = table["cases"].as_array().expect("cases.yaml has a `cases` list");
    let mut names = BTreeSet::new();
    list.iter()
        .map(|case| {
            let name = case["name"].as_str().expect("every case has a name").to_owned();
            assert!(names.insert(name.clone()), "case {name}: the name is used twice");
            for key in ["old", "new", "forward", "backward"] {
                assert!(case.get(key).is_some(), "case {name}: `{key}` is missing");
            }
            let (old, new) = match case.get("wrap").and_then(Value::as_str) {
                Some(kind) => {
                    let openapi = case.get("openapi").and_then(Value::as_str).unwrap_or("3.1.0");
                    let side = |key: &str| {
                        let version =
                            case.get(format!("{key}_openapi")).and_then(Value::as_str).unwrap_or(openapi);
                        let components = case.get(format!("{key}_components")).or(case.get("components"));
                        let operation = case.get(format!("{key}_operation")).or(case.get("operation"));
                        wrap(kind, version, &case[key], components, operation)
                    };
                    (side("old"), side("new"))
                }
                None => (case["old"].clone(), case["new"].clone()),
            };
            Case {
                today: case.get("today").and_then(Value::as_str).map(str::to_owned),
                forward: expectations(&name, "forward", &case["forward"]),
                backward: expectations(&name, "backward", &case["backward"]),
                name,
                old,
                new,
            }
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// The catalogue

/// Every id in the tables of `docs/diff.md`'s "The changes" section (the first column),
/// `max-length-*` rows expanded to their four changes.
fn catalogue() -> BTreeSet<String> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/diff.md");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut ids = BTreeSet::new();
    let mut inside = false;
    for line in text.lines() {
        if line.starts_with("## ") {
            inside = line.trim() == "## The changes";
            continue;
        }
        let Some(row) = line.trim().strip_prefix('|') else { continue };
        if !inside {
            continue;
        }
        let first = row.split('|').next().unwrap_or_default();
        for (index, token) in first.split('`').enumerate() {
            // The odd pieces are the backticked ones.
            if index % 2 == 0 || token.is_empty() {
                continue;
            }
            if let Some(stem) = token.strip_suffix('*') {
                for suffix in ["increased", "decreased", "set", "removed"] {
                    ids.insert(format!("{stem}{suffix}"));
                }
            } else {
                ids.insert(token.to_owned());
            }
        }
    }
    ids
}

#[test]
fn the_catalogue_is_read() {
    let ids = catalogue();
    for id in
        ["operation-added", "max-length-set", "min-properties-decreased", "server-variable-default-changed"]
    {
        assert!(ids.contains(id), "{id} is not read from docs/diff.md: {ids:?}");
    }
    assert!(!ids.contains("breaking") && !ids.contains("id"), "only ids are read: {ids:?}");
    assert!(ids.len() > 100, "{} ids read from docs/diff.md", ids.len());
}

#[test]
fn every_id_of_the_catalogue_is_expected_somewhere() {
    let catalogue = catalogue();
    let cases = cases();
    let mut expected = BTreeMap::<String, BTreeSet<String>>::new();
    for case in &cases {
        for item in case.forward.iter().chain(&case.backward) {
            expected.entry(item.id.clone()).or_default().insert(item.level.clone());
        }
    }
    let unknown: Vec<&String> = expected.keys().filter(|id| !catalogue.contains(*id)).collect();
    assert!(unknown.is_empty(), "cases.yaml expects ids that docs/diff.md does not list: {unknown:?}");
    let missing: Vec<&String> = catalogue.iter().filter(|id| !expected.contains_key(*id)).collect();
    assert!(missing.is_empty(), "ids of docs/diff.md that no case expects: {missing:?}");
}

// ---------------------------------------------------------------------------------------------
// Running the cases

/// Pairs expected changes with reported ones (a maximum bipartite matching, so that an
/// expectation naming a schema or operations is not taken by a looser one's partner); returns
/// the expectations and the changes left unpaired.
fn pair<'a>(expected: &'a [Expected], got: &'a [Change]) -> (Vec<&'a Expected>, Vec<&'a Change>) {
    fn augment(
        e: usize,
        edges: &[Vec<usize>],
        seen: &mut [bool],
        partner_of_change: &mut [Option<usize>],
    ) -> bool {
        for &c in &edges[e] {
            if seen[c] {
                continue;
            }
            seen[c] = true;
            if partner_of_change[c].is_none_or(|other| augment(other, edges, seen, partner_of_change)) {
                partner_of_change[c] = Some(e);
                return true;
            }
        }
        false
    }
    let edges: Vec<Vec<usize>> = expected
        .iter()
        .map(|e| got.iter().enumerate().filter(|(_, c)| e.matches(c)).map(|(i, _)| i).collect())
        .collect();
    let mut partner_of_change = vec![None; got.len()];
    for e in 0..expected.len() {
        let mut seen = vec![false; got.len()];
        augment(e, &edges, &mut seen, &mut partner_of_change);
    }
    let paired: BTreeSet<usize> = partner_of_change.iter().flatten().copied().collect();
    let missing = expected.iter().enumerate().filter(|(i, _)| !paired.contains(i)).map(|(_, e)| e).collect();
    let extra = got.iter().zip(&partner_of_change).filter(|(_, p)| p.is_none()).map(|(c, _)| c).collect();
    (missing, extra)
}

/// What is wrong with one direction of a case, if anything.
fn check(old: &Value, new: &Value, options: &Options, expected: &[Expected]) -> Option<String> {
    let run = || catch_unwind(AssertUnwindSafe(|| compare(old, new, options)));
    let report: Report = match run() {
        Ok(report) => report,
        Err(panic) => {
            let message = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                .unwrap_or_default();
            return Some(format!("    compare panicked: {message}\n"));
        }
    };
    let mut problems = String::new();
    match run() {
        Ok(again) if again == report => {}
        Ok(_) => problems.push_str("    not deterministic: a second compare gave another report\n"),
        Err(_) => problems.push_str("    not deterministic: a second compare panicked\n"),
    }
    if report.changes.windows(2).any(|w| w[0].level < w[1].level) {
        problems.push_str("    not ordered breaking first\n");
    }
    // The pointer is in NEW, or in OLD for what was removed: it names a place in one of them.
    for change in &report.changes {
        if new.pointer(&change.pointer).is_none() && old.pointer(&change.pointer).is_none() {
            let _ = writeln!(problems, "    a pointer in neither document: {}", describe_change(change));
        }
    }
    let (missing, extra) = pair(expected, &report.changes);
    if !missing.is_empty() || !extra.is_empty() {
        problems.push_str("    expected:\n");
        if expected.is_empty() {
            problems.push_str("      (no change)\n");
        }
        for e in expected {
            let _ = writeln!(problems, "      {}", e.describe());
        }
        problems.push_str("    got:\n");
        if report.changes.is_empty() {
            problems.push_str("      (no change)\n");
        }
        for c in &report.changes {
            let _ = writeln!(problems, "      {}", describe_change(c));
        }
        for e in missing {
            let _ = writeln!(problems, "    missing: {}", e.describe());
        }
        for c in extra {
            let _ = writeln!(problems, "    unexpected: {}", describe_change(c));
        }
    }
    (!problems.is_empty()).then_some(problems)
}

#[test]
fn every_case_reports_exactly_what_it_expects_both_ways() {
    let cases = cases();
    assert!(cases.len() >= MIN_CASES, "cases.yaml has {} cases, at least {MIN_CASES} wanted", cases.len());
    let mut failures = String::new();
    let mut failed = 0;
    // `DIFF_CASES_SHOW=part-of-a-name` prints what the matching cases report.
    let show = std::env::var("DIFF_CASES_SHOW").ok();
    for case in &cases {
        let options = Options { today: case.today.clone() };
        for (direction, old, new, expected) in [
            ("forward, old -> new", &case.old, &case.new, &case.forward),
            ("backward, new -> old", &case.new, &case.old, &case.backward),
        ] {
            if show.as_deref().is_some_and(|part| case.name.contains(part)) {
                eprintln!("case `{}` ({direction}):", case.name);
                for change in compare(old, new, &options).changes {
                    eprintln!("  {}", describe_change(&change));
                }
            }
            if let Some(problems) = check(old, new, &options, expected) {
                failed += 1;
                let _ = writeln!(failures, "case `{}` ({direction}):\n{problems}", case.name);
            }
        }
    }
    assert!(failures.is_empty(), "{failed} of {} case directions failed:\n\n{failures}", cases.len() * 2);
}
