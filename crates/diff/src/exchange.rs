//! What an operation takes and gives, compared: its parameters, its request body and its
//! responses, by media type, with their headers; each schema goes to `schema`.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use playground_openapi::pointer::escape_segment as escape;

use crate::found::{Found1, follow, path_names};
use crate::place::{Effect, Note, Place, object};
use crate::schema::Walk;
use crate::{Direction, Level};

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

pub(crate) fn parameters<'v>(
    walk: &mut Walk<'v>,
    top: &Place,
    a: &Found1<'v>,
    b: &Found1<'v>,
    direction: Direction,
) {
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

pub(crate) fn request_body<'v>(
    walk: &mut Walk<'v>,
    top: &Place,
    a: &Found1<'v>,
    b: &Found1<'v>,
    direction: Direction,
) {
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

pub(crate) fn responses<'v>(
    walk: &mut Walk<'v>,
    top: &Place,
    a: &Found1<'v>,
    b: &Found1<'v>,
    direction: Direction,
) {
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
        .map(|(k, v)| {
            // `2xx` and `2XX` are one range; `default` stays as written.
            let key =
                if k.eq_ignore_ascii_case("default") { "default".to_owned() } else { k.to_ascii_uppercase() };
            (key, (k.as_str(), v))
        })
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
