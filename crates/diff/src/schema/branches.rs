//! `oneOf`, `anyOf` and `allOf` branches matched and compared, `allOf` parts merged where they
//! differ, `$dynamicRef`s bound to their anchors, and discriminators.

use playground_openapi::pointer::unescape_segment;
use serde_json::{Map, Value};

use super::{MAX_CHAIN, Walk, reference, resolve};
use crate::place::{Effect, Note, Place, object};

impl Walk<'_> {
    pub(super) fn branches(
        &mut self,
        place: &Place,
        old: &Value,
        new: &Value,
        keyword: &'static str,
        depth: usize,
    ) {
        let list = |s: &Value| s.get(keyword).and_then(Value::as_array).cloned().unwrap_or_default();
        let (old_list, new_list) = (list(old), list(new));
        if old_list.is_empty() && new_list.is_empty() {
            return;
        }
        let mut new_used = vec![false; new_list.len()];
        let mut pairs: Vec<(usize, Option<usize>)> = Vec::new();
        // Branches naming a schema are matched by the name; the others by position among them.
        for (i, branch) in old_list.iter().enumerate() {
            let matched = reference(branch).and_then(|r| {
                new_list.iter().enumerate().position(|(j, b)| !new_used[j] && reference(b) == Some(r))
            });
            if let Some(j) = matched {
                new_used[j] = true;
            }
            pairs.push((i, matched));
        }
        let inline_new: Vec<usize> =
            (0..new_list.len()).filter(|j| !new_used[*j] && reference(&new_list[*j]).is_none()).collect();
        let mut inline_new = inline_new.into_iter();
        for pair in &mut pairs {
            if pair.1.is_none()
                && reference(&old_list[pair.0]).is_none()
                && let Some(j) = inline_new.next()
            {
                new_used[j] = true;
                pair.1 = Some(j);
            }
        }
        let (added, removed, widen): (&'static str, &'static str, bool) = match keyword {
            "oneOf" => ("one-of-added", "one-of-removed", true),
            "anyOf" => ("any-of-added", "any-of-removed", true),
            _ => ("all-of-added", "all-of-removed", false),
        };
        let (grow, shrink) =
            if widen { (Effect::Widens, Effect::Narrows) } else { (Effect::Narrows, Effect::Widens) };
        for (i, matched) in pairs {
            let label = branch_label(&old_list[i], i);
            match matched {
                Some(j) => {
                    let mut child =
                        place.property(&[keyword, &j.to_string()], &format!("({keyword} {label})"));
                    child.old = format!("{}/{keyword}/{i}", place.old);
                    self.schema(&child, &old_list[i], &new_list[j], depth + 1);
                }
                None => {
                    let child = place.property(&[keyword, &i.to_string()], &format!("({keyword} {label})"));
                    Note::new(&child, removed, shrink, format!("{keyword} branch {label} removed"))
                        .removal()
                        .add(self.found);
                }
            }
        }
        for (j, branch) in new_list.iter().enumerate().filter(|(j, _)| !new_used[*j]) {
            let label = branch_label(branch, j);
            let child = place.property(&[keyword, &j.to_string()], &format!("({keyword} {label})"));
            Note::new(&child, added, grow, format!("{keyword} branch {label} added")).add(self.found);
        }
    }

    pub(super) fn discriminator(&mut self, place: &Place, old: &Value, new: &Value) {
        let (a, b) = (old.get("discriminator"), new.get("discriminator"));
        match (a, b) {
            (None, None) => {}
            (None, Some(_)) => {
                Note::new(place, "discriminator-added", Effect::Neither, "a discriminator was added")
                    .add(self.found)
            }
            (Some(_), None) => {
                Note::new(place, "discriminator-removed", Effect::Neither, "the discriminator was removed")
                    .add(self.found)
            }
            (Some(a), Some(b)) => {
                let name = |d: &Value| d.get("propertyName").and_then(Value::as_str).map(str::to_owned);
                if name(a) != name(b) {
                    let message = format!(
                        "the discriminator's property {} became {}",
                        name(a).unwrap_or_default(),
                        name(b).unwrap_or_default()
                    );
                    Note::new(place, "discriminator-property-changed", Effect::Both, message)
                        .values(name(a).map(Value::from), name(b).map(Value::from))
                        .add(self.found);
                }
                let (ma, mb) = (object(a, "mapping"), object(b, "mapping"));
                for (key, target) in mb {
                    if ma.get(key) != Some(target) {
                        Note::new(
                            place,
                            "discriminator-mapping-added",
                            Effect::Widens,
                            format!("the discriminator value {key} was added"),
                        )
                        .values(None, Some(target.clone()))
                        .add(self.found);
                    }
                }
                for (key, target) in ma {
                    if mb.get(key) != Some(target) {
                        Note::new(
                            place,
                            "discriminator-mapping-removed",
                            Effect::Narrows,
                            format!("the discriminator value {key} was removed"),
                        )
                        .values(Some(target.clone()), None)
                        .removal()
                        .add(self.found);
                    }
                }
            }
        }
    }
}

/// Whether the `allOf` parts differ: one side has some and the other none, or they name other
/// schemas, or have another number of parts written in place.
pub(super) fn regrouped(old: &Value, new: &Value) -> bool {
    fn shape(s: &Value) -> Option<(Vec<&str>, usize)> {
        let parts = s.get("allOf").and_then(Value::as_array).filter(|list| !list.is_empty())?;
        let mut names: Vec<&str> = parts.iter().filter_map(reference).collect();
        names.sort_unstable();
        Some((names, parts.iter().filter(|p| reference(p).is_none()).count()))
    }
    shape(old) != shape(new)
}

/// The `$dynamicAnchor`s a schema's `$defs` declare, with the schema each stands for (a
/// `$ref` beside the anchor kept alone, so that the schema it names is compared as shared).
pub(super) fn dynamic_anchors(schema: &Value) -> Vec<(String, Value)> {
    let Some(defs) = schema.get("$defs").and_then(Value::as_object) else { return Vec::new() };
    defs.values()
        .filter_map(|def| {
            let name = def.get("$dynamicAnchor")?.as_str()?.to_owned();
            let mut target = def.clone();
            if let Some(fields) = target.as_object_mut() {
                fields.remove("$dynamicAnchor");
            }
            Some((name, target))
        })
        .collect()
}

/// What a `$dynamicRef` (`#itemType`) stands for where the walk is: the outermost anchor of
/// that name on the way in.
pub(super) fn dynamic_target<'s>(anchors: &'s [(String, Value)], schema: &Value) -> Option<&'s Value> {
    let name = schema.get("$dynamicRef")?.as_str()?.rsplit_once('#')?.1;
    anchors.iter().find(|(anchor, _)| anchor == name).map(|(_, target)| target)
}

/// A schema with its `allOf` parts merged into it (each part's references followed): the
/// properties of all, the required names of all, and each other keyword from the first that
/// has it.
pub(super) fn merged(doc: &Value, schema: &Value, depth: usize) -> Value {
    let mut out: Map<String, Value> = schema.as_object().cloned().unwrap_or_default();
    let Some(Value::Array(parts)) = out.remove("allOf") else { return Value::Object(out) };
    if depth > MAX_CHAIN {
        return Value::Object(out);
    }
    for part in &parts {
        let part = resolve(doc, part);
        let Value::Object(part) = merged(doc, &part.schema, depth + 1) else { continue };
        for (key, value) in part {
            match (key.as_str(), out.get_mut(&key), value) {
                ("properties", Some(Value::Object(mine)), Value::Object(theirs)) => {
                    for (name, schema) in theirs {
                        mine.entry(name).or_insert(schema);
                    }
                }
                ("required", Some(Value::Array(mine)), Value::Array(theirs)) => {
                    for name in theirs {
                        if !mine.contains(&name) {
                            mine.push(name);
                        }
                    }
                }
                (_, Some(_), _) => {}
                (_, None, value) => {
                    out.insert(key, value);
                }
            }
        }
    }
    Value::Object(out)
}

/// A branch in words: the schema it names, else its position.
pub(super) fn branch_label(branch: &Value, index: usize) -> String {
    match reference(branch).and_then(|r| r.rsplit('/').next()) {
        Some(name) => unescape_segment(name),
        None => format!("#{}", index + 1),
    }
}
