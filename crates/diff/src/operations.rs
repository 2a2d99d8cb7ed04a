//! Operations and webhooks matched by method and path, and what each one's parts became:
//! lifecycle (deprecation, sunset, stability), parameters, request body, responses and their
//! headers; schemas go to `schema`, security and servers to `security`.

use std::collections::BTreeMap;

use playground_openapi::catalog::METHODS;
use playground_openapi::pointer::escape_segment as escape;
use serde_json::Value;

use crate::found::{Found1, follow, path_names};
use crate::place::{Effect, Found, Note, Owner, Place};
use crate::schema::Walk;
use crate::shared::Shared;
use crate::{Change, Direction, Level, OperationKey, Options, exchange, security};

/// Every change from `old` to `new`.
pub(crate) fn compare(old: &Value, new: &Value, options: &Options) -> Vec<Change> {
    let mut found = Found::default();
    let mut shared = Shared::default();
    let old_ops = operations(old);
    let new_ops = operations(new);
    {
        // The security schemes renamed, read once for every operation.
        let renamed = security::renamed(old, new);
        let mut walk = Walk::new(old, new, &mut found, &mut shared);
        for (match_key, a) in &old_ops {
            match new_ops.get(match_key) {
                Some(b) => operation(&mut walk, a, b, &renamed),
                None => removed(walk.found, a, options),
            }
        }
        for (match_key, b) in &new_ops {
            if !old_ops.contains_key(match_key) {
                let id = if b.key.webhook { "webhook-added" } else { "operation-added" };
                let place = Place::new(Owner::Operation(b.key.clone()), "", String::new(), b.pointer.clone());
                Note::new(
                    &place,
                    id,
                    Effect::Fixed(Level::NonBreaking),
                    format!("{} was added", b.key.label()),
                )
                .add(walk.found);
            }
        }
        security::schemes(&mut walk, old, new);
        security::document_servers(&mut walk, old, new);
        while let Some((name, direction, lenient)) = walk.shared.next() {
            walk.component(&name, direction, lenient);
        }
    }
    let mut changes = Vec::with_capacity(found.changes.len());
    let mut reached: BTreeMap<(String, Direction, bool), Vec<OperationKey>> = BTreeMap::new();
    for (owner, mut change) in found.changes {
        if let (Owner::Schema(name, lenient), Some(direction)) = (&owner, change.direction) {
            change.operations = reached
                .entry((name.clone(), direction, *lenient))
                .or_insert_with(|| shared.operations(name, direction, *lenient))
                .clone();
        }
        changes.push(change);
    }
    merge(changes)
}

/// The same change found for many operations (a document-wide security requirement or server
/// they inherit) written once, naming them all.
fn merge(changes: Vec<Change>) -> Vec<Change> {
    let mut index: BTreeMap<(&'static str, Level, String, String, String), usize> = BTreeMap::new();
    let mut merged: Vec<Change> = Vec::with_capacity(changes.len());
    for change in changes {
        if change.schema.is_some()
            || !change.pointer.starts_with("/security") && !change.pointer.starts_with("/servers")
        {
            merged.push(change);
            continue;
        }
        let key =
            (change.id, change.level, change.place.clone(), change.pointer.clone(), change.message.clone());
        match index.get(&key) {
            Some(&at) => merged[at].operations.extend(change.operations),
            None => {
                index.insert(key, merged.len());
                merged.push(change);
            }
        }
    }
    for change in &mut merged {
        change.operations.sort();
        change.operations.dedup();
    }
    merged
}

/// The operations and webhooks of a document, by the key they are matched with: webhook or
/// not, the path with its parameters' names left out, and the method.
fn operations(doc: &Value) -> BTreeMap<(bool, String, String), Found1<'_>> {
    let mut all = BTreeMap::new();
    let webhooks = doc.get("webhooks").or_else(|| doc.get("x-webhooks"));
    let field = if doc.get("webhooks").is_some() { "webhooks" } else { "x-webhooks" };
    for (items, webhook, field) in [(doc.get("paths"), false, "paths"), (webhooks, true, field)] {
        let Some(items) = items.and_then(Value::as_object) else { continue };
        for (path, item) in items {
            if path.starts_with("x-") {
                continue;
            }
            let item_pointer = format!("/{field}/{}", escape(path));
            let Some((item, item_pointer)) = follow(doc, item, item_pointer) else { continue };
            for method in METHODS {
                let name = method.as_str().to_ascii_lowercase();
                let Some(operation) = item.get(&name).filter(|o| o.is_object()) else { continue };
                let key = OperationKey {
                    path: path.clone(),
                    method: method.as_str().to_owned(),
                    operation_id: operation.get("operationId").and_then(Value::as_str).map(str::to_owned),
                    webhook,
                };
                let pointer = format!("{item_pointer}/{name}");
                let match_key = (webhook, template(path), key.method.clone());
                all.insert(match_key, Found1 { key, path: path.clone(), item, operation, pointer });
            }
        }
    }
    all
}

/// A path template with its parameters' names left out: `/pets/{}`.
fn template(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    let mut inside = false;
    for c in path.chars() {
        match c {
            '{' => {
                inside = true;
                out.push('{');
            }
            '}' => {
                inside = false;
                out.push('}');
            }
            _ if inside => {}
            _ => out.push(c),
        }
    }
    out
}

fn removed(found: &mut Found, a: &Found1<'_>, options: &Options) {
    let op = a.operation;
    let id = if a.key.webhook { "webhook-removed" } else { "operation-removed" };
    let place = Place::new(Owner::Operation(a.key.clone()), "", a.pointer.clone(), String::new());
    let deprecated = op.get("deprecated").and_then(Value::as_bool).unwrap_or(false);
    let sunset = sunset(op);
    let passed = match (&sunset, &options.today) {
        (Some(date), Some(today)) => date.as_str() <= today.as_str(),
        _ => true,
    };
    let (level, why) = match (deprecated, &sunset) {
        (true, Some(date)) if passed => (Level::Deprecation, format!(" (deprecated, sunset {date})")),
        (true, Some(date)) => (Level::Breaking, format!(" before its sunset on {date}")),
        (true, None) => (Level::Deprecation, " (it was deprecated)".to_owned()),
        (false, _) => (Level::Breaking, String::new()),
    };
    let level = if stability(op) < 2 && level == Level::Breaking { Level::NonBreaking } else { level };
    Note::new(&place, id, Effect::Fixed(level), format!("{} was removed{why}", a.key.label()))
        .removal()
        .add(found);
}

/// The sunset date of an operation: `x-deprecated-sunset`, else `x-sunset`.
fn sunset(op: &Value) -> Option<String> {
    (op.get("x-deprecated-sunset").or_else(|| op.get("x-sunset")))
        .and_then(|v| v.as_str().map(str::to_owned).or_else(|| (!v.is_null()).then(|| v.to_string())))
}

/// `x-stability` as a rank: experimental 0, beta 1, stable (or none) 2.
fn stability(op: &Value) -> u8 {
    match op.get("x-stability").and_then(Value::as_str).map(str::to_ascii_lowercase).as_deref() {
        Some("experimental" | "alpha" | "draft") => 0,
        Some("beta") => 1,
        _ => 2,
    }
}

fn stability_name(rank: u8) -> &'static str {
    ["experimental", "beta", "stable"][usize::from(rank.min(2))]
}

/// Two operations matched: what changed in them.
fn operation<'v>(walk: &mut Walk<'v>, a: &Found1<'v>, b: &Found1<'v>, renamed: &BTreeMap<String, String>) {
    let owner = Owner::Operation(b.key.clone());
    let mut top = Place::new(owner, "", a.pointer.clone(), b.pointer.clone());
    lifecycle(walk.found, &top, a, b);
    // The stability marker of the old operation says it may change.
    top.lenient = stability(a.operation) < 2;
    let (request, response) = if b.key.webhook {
        (Direction::Response, Direction::Request)
    } else {
        (Direction::Request, Direction::Response)
    };
    exchange::parameters(walk, &top, a, b, request);
    exchange::request_body(walk, &top, a, b, request);
    exchange::responses(walk, &top, a, b, response);
    security::operation(walk, &top, (a.operation, b.operation), renamed);
    security::operation_servers(walk, &top, (a.item, a.operation), (b.item, b.operation));
}

fn lifecycle(found: &mut Found, top: &Place, a: &Found1<'_>, b: &Found1<'_>) {
    let flag = |op: &Value| op.get("deprecated").and_then(Value::as_bool).unwrap_or(false);
    match (flag(a.operation), flag(b.operation)) {
        (false, true) => {
            Note::new(top, "operation-deprecated", Effect::Fixed(Level::Deprecation), "deprecated").add(found)
        }
        (true, false) => {
            Note::new(top, "operation-undeprecated", Effect::Neither, "no longer deprecated").add(found)
        }
        _ => {}
    }
    // The key each side writes its date under.
    let key =
        |op: &Value| if op.get("x-deprecated-sunset").is_some() { "x-deprecated-sunset" } else { "x-sunset" };
    let mut sunset_place = top.down(key(b.operation));
    sunset_place.old = top.down(key(a.operation)).old;
    match (sunset(a.operation), sunset(b.operation)) {
        (None, Some(date)) => Note::new(
            &sunset_place,
            "sunset-set",
            Effect::Fixed(Level::Deprecation),
            format!("to be sunset on {date}"),
        )
        .values(None, Some(date.into()))
        .add(found),
        (Some(date), None) => Note::new(
            &sunset_place,
            "sunset-removed",
            Effect::Neither,
            format!("no longer to be sunset on {date}"),
        )
        .values(Some(date.into()), None)
        .removal()
        .add(found),
        (Some(x), Some(y)) if x != y => {
            let (id, effect) = if y < x {
                ("sunset-earlier", Effect::Fixed(Level::Breaking))
            } else {
                ("sunset-later", Effect::Neither)
            };
            Note::new(&sunset_place, id, effect, format!("the sunset moved from {x} to {y}"))
                .values(Some(x.into()), Some(y.into()))
                .add(found);
        }
        _ => {}
    }
    let (x, y) = (stability(a.operation), stability(b.operation));
    if x != y {
        let (id, effect) = if y < x {
            ("stability-decreased", Effect::Fixed(Level::Breaking))
        } else {
            ("stability-increased", Effect::Neither)
        };
        let message = format!("stability {} became {}", stability_name(x), stability_name(y));
        Note::new(&top.down("x-stability"), id, effect, message)
            .values(Some(stability_name(x).into()), Some(stability_name(y).into()))
            .add(found);
    }
    let id = |op: &Value| op.get("operationId").and_then(Value::as_str).map(str::to_owned);
    if id(a.operation) != id(b.operation) {
        let shown = |v: &Option<String>| v.clone().unwrap_or_else(|| "none".to_owned());
        let message = format!("operationId {} became {}", shown(&id(a.operation)), shown(&id(b.operation)));
        Note::new(&top.down("operationId"), "operation-id-changed", Effect::Neither, message)
            .values(id(a.operation).map(Value::from), id(b.operation).map(Value::from))
            .add(found);
    }
    for (x, y) in path_names(&a.path).into_iter().zip(path_names(&b.path)) {
        if x != y {
            Note::new(
                top,
                "path-parameter-renamed",
                Effect::Neither,
                format!("the path parameter {x} is now named {y}"),
            )
            .values(Some(x.into()), Some(y.into()))
            .add(found);
        }
    }
}
