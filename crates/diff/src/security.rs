//! Security requirements (an operation's, else the document's) and schemes, and servers (the
//! document's, and an operation's or path item's own).

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value};

use crate::Level;
use crate::place::{Effect, Note, Owner, Place};
use crate::schema::Walk;
use playground_openapi::pointer::escape_segment as escape;

/// One way to authenticate: each scheme it needs, with its scopes.
type Alternative = BTreeMap<String, BTreeSet<String>>;

/// An operation's requirements, with their pointer: its own `security`, else the document's.
fn requirements(doc: &Value, op: &Value, op_pointer: &str) -> (Vec<Alternative>, String) {
    let (list, pointer) = match op.get("security") {
        Some(list) => (Some(list), format!("{op_pointer}/security")),
        None => match doc.get("security") {
            Some(list) => (Some(list), "/security".to_owned()),
            // Nothing to point at but the operation.
            None => (None, op_pointer.to_owned()),
        },
    };
    let alternatives = (list.and_then(Value::as_array).into_iter().flatten())
        .filter_map(Value::as_object)
        .map(|requirement| {
            requirement
                .iter()
                .map(|(scheme, scopes)| {
                    let scopes = scopes
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter_map(Value::as_str)
                        .map(str::to_owned)
                        .collect();
                    (scheme.clone(), scopes)
                })
                .collect()
        })
        .collect();
    (alternatives, pointer)
}

fn shown(alternative: &Alternative) -> String {
    alternative.keys().cloned().collect::<Vec<_>>().join(" and ")
}

/// What changed in the credentials an operation needs.
pub(crate) fn operation(
    walk: &mut Walk<'_>,
    top: &Place,
    (old, new): (&Value, &Value),
    renamed: &BTreeMap<String, String>,
) {
    let (x, old_pointer) = requirements(walk.old_doc, old, &top.old);
    let x: Vec<Alternative> = x
        .into_iter()
        .map(|alternative| {
            alternative
                .into_iter()
                .map(|(scheme, scopes)| (renamed.get(&scheme).cloned().unwrap_or(scheme), scopes))
                .collect()
        })
        .collect();
    let (y, new_pointer) = requirements(walk.new_doc, new, &top.new);
    if x == y {
        return;
    }
    let mut place = top.clone();
    place.base = "security".to_owned();
    place.old = old_pointer;
    place.new = new_pointer;
    let public = |list: &[Alternative]| list.is_empty() || list.iter().any(BTreeMap::is_empty);
    let found = &mut *walk.found;
    match (public(&x), public(&y)) {
        (true, false) => {
            let needed = y.iter().map(shown).collect::<Vec<_>>().join(" or ");
            Note::new(
                &place,
                "security-added",
                Effect::Fixed(Level::Breaking),
                format!("credentials are now needed ({needed})"),
            )
            .add(found);
            return;
        }
        (false, true) => {
            Note::new(&place, "security-removed", Effect::Neither, "credentials are no longer needed")
                .removal()
                .add(found);
            return;
        }
        _ => {}
    }
    let names = |a: &Alternative| a.keys().cloned().collect::<BTreeSet<String>>();
    for alternative in y.iter().filter(|a| !a.is_empty()) {
        match x.iter().find(|b| names(b) == names(alternative)) {
            None => Note::new(
                &place,
                "security-alternative-added",
                Effect::Neither,
                format!("{} may now be used", shown(alternative)),
            )
            .add(found),
            Some(before) => {
                for (scheme, scopes) in alternative {
                    let had = before.get(scheme).cloned().unwrap_or_default();
                    for scope in scopes.difference(&had) {
                        Note::new(
                            &place,
                            "security-scope-added",
                            Effect::Fixed(Level::Breaking),
                            format!("{scheme} now needs the scope {scope}"),
                        )
                        .values(None, Some(scope.clone().into()))
                        .add(found);
                    }
                    for scope in had.difference(scopes) {
                        Note::new(
                            &place,
                            "security-scope-removed",
                            Effect::Neither,
                            format!("{scheme} no longer needs the scope {scope}"),
                        )
                        .values(Some(scope.clone().into()), None)
                        .add(found);
                    }
                }
            }
        }
    }
    for alternative in x.iter().filter(|a| !a.is_empty()) {
        if !y.iter().any(|b| names(b) == names(alternative)) {
            Note::new(
                &place,
                "security-alternative-removed",
                Effect::Fixed(Level::Breaking),
                format!("{} may no longer be used", shown(alternative)),
            )
            .removal()
            .add(found);
        }
    }
}

/// The security schemes that only changed name: each old name gone from the new description,
/// with the new name of the one scheme added there with the same definition (its description
/// aside).
pub(crate) fn renamed(old: &Value, new: &Value) -> BTreeMap<String, String> {
    let schemes = |doc: &Value| {
        doc.pointer("/components/securitySchemes").and_then(Value::as_object).cloned().unwrap_or_default()
    };
    let (x, y) = (schemes(old), schemes(new));
    let bare = |scheme: &Value| {
        let mut scheme = scheme.clone();
        if let Some(fields) = scheme.as_object_mut() {
            fields.remove("description");
        }
        scheme
    };
    let added: Vec<(&String, Value)> =
        y.iter().filter(|(name, _)| !x.contains_key(*name)).map(|(n, s)| (n, bare(s))).collect();
    let mut renamed = BTreeMap::new();
    for (name, scheme) in x.iter().filter(|(name, _)| !y.contains_key(*name)) {
        let scheme = bare(scheme);
        let same: Vec<&String> =
            added.iter().filter(|(_, other)| *other == scheme).map(|(n, _)| *n).collect();
        if let [one] = same.as_slice() {
            renamed.insert(name.clone(), (*one).clone());
        }
    }
    renamed
}

/// What changed in `components.securitySchemes`.
pub(crate) fn schemes(walk: &mut Walk<'_>, old: &Value, new: &Value) {
    let empty = Map::new();
    let list = |doc: &'_ Value| -> Map<String, Value> {
        doc.pointer("/components/securitySchemes").and_then(Value::as_object).unwrap_or(&empty).clone()
    };
    let (x, y) = (list(old), list(new));
    for (name, scheme) in &x {
        let pointer = format!("/components/securitySchemes/{}", escape(name));
        let place = Place::new(Owner::Document, format!("security scheme {name}"), pointer.clone(), pointer);
        match y.get(name) {
            None => Note::new(
                &place,
                "security-scheme-removed",
                Effect::Neither,
                format!("the security scheme {name} was removed"),
            )
            .removal()
            .add(walk.found),
            Some(other) => {
                for what in scheme_changes(scheme, other) {
                    Note::new(
                        &place,
                        "security-scheme-changed",
                        Effect::Fixed(Level::Breaking),
                        format!("{name}: {what}"),
                    )
                    .add(walk.found);
                }
            }
        }
    }
    for name in y.keys().filter(|name| !x.contains_key(*name)) {
        let pointer = format!("/components/securitySchemes/{}", escape(name));
        let place = Place::new(Owner::Document, format!("security scheme {name}"), pointer.clone(), pointer);
        Note::new(
            &place,
            "security-scheme-added",
            Effect::Neither,
            format!("the security scheme {name} was added"),
        )
        .add(walk.found);
    }
}

/// What changed in one scheme that clients must follow, one sentence each.
fn scheme_changes(old: &Value, new: &Value) -> Vec<String> {
    let mut changes = Vec::new();
    let text = |v: &Value, key: &str| v.get(key).and_then(Value::as_str).map(str::to_owned);
    for key in ["type", "in", "name", "scheme", "openIdConnectUrl"] {
        let (a, b) = (text(old, key), text(new, key));
        let differ = if key == "scheme" {
            a.as_deref().map(str::to_ascii_lowercase) != b.as_deref().map(str::to_ascii_lowercase)
        } else {
            a != b
        };
        if differ {
            changes.push(format!(
                "{key} {} became {}",
                a.unwrap_or_else(|| "none".into()),
                b.unwrap_or_else(|| "none".into())
            ));
        }
    }
    let empty = Map::new();
    let flows = |v: &'_ Value| -> Map<String, Value> {
        v.get("flows").and_then(Value::as_object).unwrap_or(&empty).clone()
    };
    let (x, y) = (flows(old), flows(new));
    for (flow, a) in &x {
        match y.get(flow) {
            None => changes.push(format!("the {flow} flow was removed")),
            Some(b) => {
                for key in ["authorizationUrl", "tokenUrl"] {
                    if text(a, key) != text(b, key) {
                        changes.push(format!("the {flow} flow's {key} changed"));
                    }
                }
            }
        }
    }
    changes
}

/// One server: its URL, and each variable's values and default.
type Server = (String, BTreeMap<String, (BTreeSet<String>, Option<String>)>);

fn servers(list: Option<&Value>) -> Vec<Server> {
    (list.and_then(Value::as_array).into_iter().flatten())
        .filter_map(|server| {
            let url = server.get("url")?.as_str()?.to_owned();
            let variables = (server.get("variables").and_then(Value::as_object).into_iter().flatten())
                .map(|(name, variable)| {
                    let values = (variable.get("enum").and_then(Value::as_array).into_iter().flatten())
                        .filter_map(Value::as_str)
                        .map(str::to_owned)
                        .collect();
                    let default = variable.get("default").and_then(Value::as_str).map(str::to_owned);
                    (name.clone(), (values, default))
                })
                .collect();
            Some((url, variables))
        })
        .collect()
}

fn compare_servers(walk: &mut Walk<'_>, place: &Place, x: &[Server], y: &[Server]) {
    let found = &mut *walk.found;
    for (url, variables) in x {
        let mut here = place.clone();
        here.base = format!("server {url}");
        match y.iter().find(|(other, _)| other == url) {
            None => Note::new(
                &here,
                "server-removed",
                Effect::Fixed(Level::Breaking),
                format!("the server {url} was removed"),
            )
            .removal()
            .add(found),
            Some((_, other)) => {
                for (name, (values, default)) in variables {
                    let Some((new_values, new_default)) = other.get(name) else { continue };
                    for value in new_values.difference(values) {
                        Note::new(
                            &here,
                            "server-variable-value-added",
                            Effect::Neither,
                            format!("{name} may now be {value}"),
                        )
                        .add(found);
                    }
                    for value in values.difference(new_values) {
                        Note::new(
                            &here,
                            "server-variable-value-removed",
                            Effect::Fixed(Level::Breaking),
                            format!("{name} may no longer be {value}"),
                        )
                        .add(found);
                    }
                    if default != new_default {
                        let shown = |d: &Option<String>| d.clone().unwrap_or_else(|| "none".to_owned());
                        Note::new(
                            &here,
                            "server-variable-default-changed",
                            Effect::Fixed(Level::Breaking),
                            format!("{name}'s default {} became {}", shown(default), shown(new_default)),
                        )
                        .add(found);
                    }
                }
            }
        }
    }
    for (url, _) in y {
        if !x.iter().any(|(other, _)| other == url) {
            let mut here = place.clone();
            here.base = format!("server {url}");
            Note::new(&here, "server-added", Effect::Neither, format!("the server {url} was added"))
                .add(found);
        }
    }
}

/// The document's servers.
pub(crate) fn document_servers(walk: &mut Walk<'_>, old: &Value, new: &Value) {
    let place = Place::new(Owner::Document, "", "/servers".to_owned(), "/servers".to_owned());
    compare_servers(walk, &place, &servers(old.get("servers")), &servers(new.get("servers")));
}

/// An operation's servers, when it or its path item names its own on either side.
pub(crate) fn operation_servers(
    walk: &mut Walk<'_>,
    top: &Place,
    (old_item, old): (&Value, &Value),
    (new_item, new): (&Value, &Value),
) {
    let own = |item: &Value, op: &Value| op.get("servers").is_some() || item.get("servers").is_some();
    if !own(old_item, old) && !own(new_item, new) {
        return;
    }
    let effective = |doc: &'_ Value, item: &'_ Value, op: &'_ Value| {
        servers(op.get("servers").or_else(|| item.get("servers")).or_else(|| doc.get("servers")))
    };
    let x = effective(walk.old_doc, old_item, old);
    let y = effective(walk.new_doc, new_item, new);
    let mut place = top.clone();
    place.old = format!("{}/servers", top.old);
    place.new = format!("{}/servers", top.new);
    compare_servers(walk, &place, &x, &y);
}
