//! Operations and webhooks matched by method and path, and what each one's parts became:
//! lifecycle (deprecation, sunset, stability), parameters, request body, responses and their
//! headers; schemas go to `schema`, security and servers to `security`.

use std::collections::{BTreeMap, BTreeSet};

use playground_openapi::catalog::METHODS;
use playground_openapi::pointer::pointer_target;
use serde_json::Value;

use crate::place::{Effect, Found, Note, Owner, Place, object};
use crate::schema::Walk;
use crate::shared::Shared;
use crate::{Change, Direction, Level, OperationKey, Options, security};

/// How many `$ref`s in a row are followed for a path item, parameter, body, response or header.
const MAX_CHAIN: usize = 16;

/// One operation as found in a document.
struct Found1<'v> {
    key: OperationKey,
    /// The path template as written (parameter names kept).
    path: String,
    item: &'v Value,
    operation: &'v Value,
    /// The pointer of the operation.
    pointer: String,
}

/// Every change from `old` to `new`.
pub(crate) fn compare(old: &Value, new: &Value, options: &Options) -> Vec<Change> {
    let mut found = Found::default();
    let mut shared = Shared::default();
    let old_ops = operations(old);
    let new_ops = operations(new);
    {
        let mut walk = Walk::new(old, new, &mut found, &mut shared);
        for (match_key, a) in &old_ops {
            match new_ops.get(match_key) {
                Some(b) => operation(&mut walk, a, b),
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

/// The parameter names of a path template, in order.
fn path_names(path: &str) -> Vec<&str> {
    path.split('{').skip(1).filter_map(|rest| rest.split_once('}').map(|(name, _)| name)).collect()
}

/// A pointer segment escaped.
pub(crate) fn escape(segment: &str) -> String {
    segment.replace('~', "~0").replace('/', "~1")
}

/// An object with its `$ref`s followed (local ones), with the pointer of what was reached.
pub(crate) fn follow<'v>(doc: &'v Value, value: &'v Value, pointer: String) -> Option<(&'v Value, String)> {
    let mut current = value;
    let mut pointer = pointer;
    for _ in 0..MAX_CHAIN {
        let Some(reference) = current.get("$ref").and_then(Value::as_str) else { break };
        let target = pointer_target(doc, reference)?;
        pointer = reference.trim_start_matches('#').to_owned();
        current = target;
    }
    current.is_object().then_some((current, pointer))
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
fn operation<'v>(walk: &mut Walk<'v>, a: &Found1<'v>, b: &Found1<'v>) {
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
    parameters(walk, &top, a, b, request);
    request_body(walk, &top, a, b, request);
    responses(walk, &top, a, b, response);
    security::operation(walk, &top, a.operation, b.operation);
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

/// One parameter as found: where it is and its object.
struct Parameter<'v> {
    location: String,
    name: String,
    value: &'v Value,
    pointer: String,
}

/// An operation's parameters (the path item's, and the operation's winning), by location and
/// name (a header's without case; a path parameter by its position's name in `rename`).
fn parameter_map<'v>(
    doc: &'v Value,
    found: &Found1<'v>,
    rename: &BTreeMap<String, String>,
) -> BTreeMap<(String, String), Parameter<'v>> {
    let mut map = BTreeMap::new();
    let item_pointer = found.pointer.rsplit_once('/').map_or_else(String::new, |(item, _)| item.to_owned());
    for (list, base) in [
        (found.item.get("parameters"), item_pointer),
        (found.operation.get("parameters"), found.pointer.clone()),
    ] {
        let Some(list) = list.and_then(Value::as_array) else { continue };
        for (i, parameter) in list.iter().enumerate() {
            let Some((value, pointer)) = follow(doc, parameter, format!("{base}/parameters/{i}")) else {
                continue;
            };
            let (Some(location), Some(name)) =
                (value.get("in").and_then(Value::as_str), value.get("name").and_then(Value::as_str))
            else {
                continue;
            };
            // OpenAPI has these headers ignored as parameters: the media types and security say them.
            if location == "header"
                && ["accept", "content-type", "authorization"].contains(&name.to_ascii_lowercase().as_str())
            {
                continue;
            }
            let mut key_name = if location == "header" { name.to_ascii_lowercase() } else { name.to_owned() };
            if location == "path"
                && let Some(renamed) = rename.get(name)
            {
                key_name.clone_from(renamed);
            }
            let parameter =
                Parameter { location: location.to_owned(), name: name.to_owned(), value, pointer };
            map.insert((location.to_owned(), key_name), parameter);
        }
    }
    map
}

fn parameters<'v>(walk: &mut Walk<'v>, top: &Place, a: &Found1<'v>, b: &Found1<'v>, direction: Direction) {
    let rename: BTreeMap<String, String> = (path_names(&a.path).into_iter().zip(path_names(&b.path)))
        .map(|(x, y)| (x.to_owned(), y.to_owned()))
        .collect();
    let old = parameter_map(walk.old_doc, a, &rename);
    let new = parameter_map(walk.new_doc, b, &BTreeMap::new());
    let required = |p: &Parameter<'_>| {
        p.location == "path" || p.value.get("required").and_then(Value::as_bool).unwrap_or(false)
    };
    let place_of = |p: &Parameter<'_>, q: &Parameter<'_>| {
        let mut place = top.clone();
        place.base = format!("{} parameter {}", p.location, p.name);
        place.old.clone_from(&p.pointer);
        place.new.clone_from(&q.pointer);
        place.direction = Some(direction);
        place
    };
    let moved_names: BTreeSet<String> = old
        .keys()
        .filter(|key| !new.contains_key(*key) && new.keys().any(|(l, n)| n == &key.1 && l != &key.0))
        .map(|key| key.1.clone())
        .collect();
    for (key, p) in &old {
        match new.get(key) {
            Some(q) => parameter(walk, &place_of(p, q), p, q, required(p), required(q)),
            None if moved_names.contains(&key.1) => {
                let Some(q) = new.iter().find(|(k, _)| k.1 == key.1 && k.0 != key.0).map(|(_, q)| q) else {
                    continue;
                };
                let message = format!("the parameter {} moved from {} to {}", p.name, p.location, q.location);
                Note::new(&place_of(p, q), "parameter-moved", Effect::Fixed(Level::Breaking), message)
                    .values(Some(p.location.clone().into()), Some(q.location.clone().into()))
                    .add(walk.found);
            }
            None => {
                let message = format!("the {} parameter {} was removed", p.location, p.name);
                Note::new(&place_of(p, p), "parameter-removed", Effect::Fixed(Level::Breaking), message)
                    .removal()
                    .add(walk.found);
            }
        }
    }
    for (key, q) in &new {
        if old.contains_key(key) || moved_names.contains(&key.1) {
            continue;
        }
        let (effect, kind) = if required(q) {
            (Effect::Fixed(Level::Breaking), "required")
        } else {
            (Effect::Neither, "optional")
        };
        let message = format!("the {kind} {} parameter {} was added", q.location, q.name);
        Note::new(&place_of(q, q), "parameter-added", effect, message).add(walk.found);
    }
}

fn parameter(walk: &mut Walk<'_>, place: &Place, p: &Parameter<'_>, q: &Parameter<'_>, was: bool, now: bool) {
    let found = &mut *walk.found;
    match (was, now) {
        (false, true) => {
            Note::new(place, "parameter-became-required", Effect::Fixed(Level::Breaking), "now required")
                .add(found)
        }
        (true, false) => {
            Note::new(place, "parameter-became-optional", Effect::Neither, "no longer required").add(found)
        }
        _ => {}
    }
    let flag = |v: &Value, key: &str| v.get(key).and_then(Value::as_bool).unwrap_or(false);
    match (flag(p.value, "deprecated"), flag(q.value, "deprecated")) {
        (false, true) => {
            Note::new(place, "parameter-deprecated", Effect::Fixed(Level::Deprecation), "deprecated")
                .add(found)
        }
        (true, false) => {
            Note::new(place, "parameter-undeprecated", Effect::Neither, "no longer deprecated").add(found)
        }
        _ => {}
    }
    let style = |v: &Value| {
        let location = v.get("in").and_then(Value::as_str).unwrap_or_default();
        let style = v.get("style").and_then(Value::as_str).map_or_else(
            || if matches!(location, "query" | "cookie") { "form".to_owned() } else { "simple".to_owned() },
            str::to_owned,
        );
        let explode = v.get("explode").and_then(Value::as_bool).unwrap_or(style == "form");
        (style, explode, flag(v, "allowReserved"))
    };
    let (x, y) = (style(p.value), style(q.value));
    if x != y {
        let shown = |s: &(String, bool, bool)| {
            format!(
                "{}{}{}",
                s.0,
                if s.1 { ", exploded" } else { "" },
                if s.2 { ", reserved allowed" } else { "" }
            )
        };
        let message = format!("serialized as {} rather than {}", shown(&y), shown(&x));
        Note::new(place, "parameter-style-changed", Effect::Fixed(Level::Breaking), message)
            .values(Some(shown(&x).into()), Some(shown(&y).into()))
            .add(found);
    }
    let schema_of = |v: &'_ Value| -> Option<(Value, String)> {
        if let Some(schema) = v.get("schema") {
            return Some((schema.clone(), "schema".to_owned()));
        }
        let (media, entry) = v.get("content")?.as_object()?.iter().next()?;
        Some((entry.get("schema")?.clone(), format!("content/{}/schema", escape(media))))
    };
    let (old_schema, new_schema) = (schema_of(p.value), schema_of(q.value));
    let mut place = place.clone();
    if let Some((_, at)) = &old_schema {
        place.old = format!("{}/{at}", place.old);
    }
    if let Some((_, at)) = &new_schema {
        place.new = format!("{}/{at}", place.new);
    }
    walk.optional(&place, old_schema.as_ref().map(|s| &s.0), new_schema.as_ref().map(|s| &s.0));
}

fn request_body<'v>(walk: &mut Walk<'v>, top: &Place, a: &Found1<'v>, b: &Found1<'v>, direction: Direction) {
    fn body<'v>(doc: &'v Value, f: &Found1<'v>) -> Option<(&'v Value, String)> {
        let value = f.operation.get("requestBody")?;
        follow(doc, value, format!("{}/requestBody", f.pointer))
    }
    let (old, new) = (body(walk.old_doc, a), body(walk.new_doc, b));
    let required = |v: &Value| v.get("required").and_then(Value::as_bool).unwrap_or(false);
    let mut place = top.clone();
    place.base = "request body".to_owned();
    place.direction = Some(direction);
    match (old, new) {
        (None, None) => {}
        (None, Some((value, pointer))) => {
            place.new = pointer;
            let (effect, kind) = if required(value) {
                (Effect::Fixed(Level::Breaking), "required")
            } else {
                (Effect::Neither, "optional")
            };
            Note::new(
                &place,
                "request-body-added",
                effect,
                format!("{} {kind} request body was added", if kind == "required" { "a" } else { "an" }),
            )
            .add(walk.found);
        }
        (Some((_, pointer)), None) => {
            place.old = pointer;
            Note::new(
                &place,
                "request-body-removed",
                Effect::Fixed(Level::Breaking),
                "the request body was removed",
            )
            .removal()
            .add(walk.found);
        }
        (Some((x, old_pointer)), Some((y, new_pointer))) => {
            place.old = old_pointer;
            place.new = new_pointer;
            match (required(x), required(y)) {
                (false, true) => Note::new(
                    &place,
                    "request-body-became-required",
                    Effect::Fixed(Level::Breaking),
                    "the request body is now required",
                )
                .add(walk.found),
                (true, false) => Note::new(
                    &place,
                    "request-body-became-optional",
                    Effect::Neither,
                    "the request body is no longer required",
                )
                .add(walk.found),
                _ => {}
            }
            content(walk, &place, x, y, ("request-media-type-added", "request-media-type-removed"), true);
        }
    }
}

/// The media types of a body or response: added, removed, and each one's schema.
fn content<'v>(
    walk: &mut Walk<'v>,
    place: &Place,
    old: &'v Value,
    new: &'v Value,
    (added, removed): (&'static str, &'static str),
    request: bool,
) {
    // A request body's media types are what its receiver accepts: one fewer narrows that, one
    // more widens what it may get (so in a webhook, where the API sends, it is the other way).
    // A response's are what clients ask for with `Accept`: one fewer breaks them.
    let (gone, new_one) = if request {
        (Effect::Narrows, Effect::Widens)
    } else {
        (Effect::Fixed(Level::Breaking), Effect::Neither)
    };
    let (x, y) = (object(old, "content"), object(new, "content"));
    for (name, entry) in x {
        let mut here = place.down("content").down(name);
        here.base = format!("{} {name}", place.base);
        match y.get(name) {
            Some(other) => walk.optional(&here.down("schema"), entry.get("schema"), other.get("schema")),
            None => Note::new(&here, removed, gone, format!("{name} was removed")).removal().add(walk.found),
        }
    }
    for name in y.keys().filter(|name| !x.contains_key(*name)) {
        let mut here = place.down("content").down(name);
        here.base = format!("{} {name}", place.base);
        Note::new(&here, added, new_one, format!("{name} was added")).add(walk.found);
    }
}

fn responses<'v>(walk: &mut Walk<'v>, top: &Place, a: &Found1<'v>, b: &Found1<'v>, direction: Direction) {
    let (x, y) = (statuses(a.operation), statuses(b.operation));
    let (old_doc, new_doc) = (walk.old_doc, walk.new_doc);
    for (status, (written, old)) in &x {
        let mut place = top.clone();
        place.old = format!("{}/responses/{}", a.pointer, escape(written));
        place.base = format!("response {status}");
        place.direction = Some(direction);
        match y.get(status) {
            Some((written, new)) => {
                place.new = format!("{}/responses/{}", b.pointer, escape(written));
                let Some((old, old_pointer)) = follow(old_doc, old, place.old.clone()) else { continue };
                let Some((new, new_pointer)) = follow(new_doc, new, place.new.clone()) else { continue };
                place.old = old_pointer;
                place.new = new_pointer;
                content(
                    walk,
                    &place,
                    old,
                    new,
                    ("response-media-type-added", "response-media-type-removed"),
                    false,
                );
                headers(walk, &place, old, new);
            }
            None => {
                let success = status.starts_with('2');
                let effect = if success { Effect::Fixed(Level::Breaking) } else { Effect::Neither };
                Note::new(&place, "response-removed", effect, format!("the response {status} was removed"))
                    .removal()
                    .add(walk.found);
            }
        }
    }
    for (status, (written, _)) in y.iter().filter(|(s, _)| !x.contains_key(*s)) {
        let mut place = top.clone();
        place.new = format!("{}/responses/{}", b.pointer, escape(written));
        place.base = format!("response {status}");
        Note::new(&place, "response-added", Effect::Neither, format!("the response {status} was added"))
            .add(walk.found);
    }
}

/// An operation's responses by status (`2XX` and `2xx` alike), each with its key as written.
fn statuses(op: &Value) -> BTreeMap<String, (&str, &Value)> {
    (op.get("responses").and_then(Value::as_object).into_iter().flatten())
        .map(|(k, v)| (k.to_ascii_uppercase(), (k.as_str(), v)))
        .collect()
}

fn headers<'v>(walk: &mut Walk<'v>, place: &Place, old: &'v Value, new: &'v Value) {
    fn list<'v>(doc: &'v Value, v: &'v Value, base: &str) -> BTreeMap<String, (&'v str, &'v Value, String)> {
        (v.get("headers").and_then(Value::as_object).into_iter().flatten())
            .filter_map(|(name, header)| {
                let (header, pointer) = follow(doc, header, format!("{base}/headers/{}", escape(name)))?;
                Some((name.to_ascii_lowercase(), (name.as_str(), header, pointer)))
            })
            .collect()
    }
    let (x, y) = (list(walk.old_doc, old, &place.old), list(walk.new_doc, new, &place.new));
    let required = |v: &Value| v.get("required").and_then(Value::as_bool).unwrap_or(false);
    for (key, (name, header, pointer)) in &x {
        let mut here = place.clone();
        here.base = format!("{}, header {name}", place.base);
        here.old.clone_from(pointer);
        match y.get(key) {
            Some((_, other, other_pointer)) => {
                here.new.clone_from(other_pointer);
                match (required(header), required(other)) {
                    (true, false) => Note::new(
                        &here,
                        "response-header-became-optional",
                        Effect::Fixed(Level::Breaking),
                        format!("{name} is no longer always sent"),
                    )
                    .add(walk.found),
                    (false, true) => Note::new(
                        &here,
                        "response-header-became-required",
                        Effect::Neither,
                        format!("{name} is now always sent"),
                    )
                    .add(walk.found),
                    _ => {}
                }
                walk.optional(&here.down("schema"), header.get("schema"), other.get("schema"));
            }
            None => {
                let effect = if required(header) { Effect::Fixed(Level::Breaking) } else { Effect::Neither };
                Note::new(&here, "response-header-removed", effect, format!("the header {name} was removed"))
                    .removal()
                    .add(walk.found);
            }
        }
    }
    for (key, (name, _, pointer)) in &y {
        if x.contains_key(key) {
            continue;
        }
        let mut here = place.clone();
        here.base = format!("{}, header {name}", place.base);
        here.new.clone_from(pointer);
        Note::new(&here, "response-header-added", Effect::Neither, format!("the header {name} was added"))
            .add(walk.found);
    }
}
