//! An object's properties (added, removed, required or not, each compared deep),
//! `additionalProperties`, and an array's items.

use std::collections::BTreeSet;

use serde_json::Value;

use super::{Walk, anything, resolve};
use crate::Direction;
use crate::place::{Effect, Note, Place, object};

impl Walk<'_> {
    pub(super) fn properties(&mut self, place: &Place, old: &Value, new: &Value, depth: usize) {
        let props = |s| object(s, "properties");
        let required = |s: &Value| -> BTreeSet<String> {
            (s.get("required").and_then(Value::as_array).into_iter().flatten())
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        };
        let (old_props, new_props) = (props(old), props(new));
        let (old_required, new_required) = (required(old), required(new));
        let request = place.direction == Some(Direction::Request);
        let (old_doc, new_doc) = (self.old_doc, self.new_doc);
        for (name, old_prop) in old_props {
            let child = place.property(&["properties", name], name);
            let exempt = self.exempt(old_doc, old_prop, place.direction);
            match new_props.get(name) {
                Some(new_prop) => {
                    let mut child = child;
                    child.lenient |= exempt;
                    self.schema(&child, old_prop, new_prop, depth + 1);
                }
                None => {
                    let was_required = old_required.contains(name);
                    let effect = if request || was_required {
                        Effect::Fixed(crate::Level::Breaking)
                    } else {
                        Effect::Neither
                    };
                    let mut child = child;
                    child.lenient |= exempt;
                    let kind = if was_required { "required" } else { "optional" };
                    Note::new(&child, "property-removed", effect, format!("the {kind} property was removed"))
                        .removal()
                        .add(self.found);
                }
            }
        }
        for (name, new_prop) in new_props {
            if old_props.contains_key(name) {
                continue;
            }
            let now_required = new_required.contains(name);
            let mut child = place.property(&["properties", name], name);
            // A read-only property added to a request (or a write-only one to a response) is
            // one clients never meet there.
            child.lenient |= self.exempt(new_doc, new_prop, place.direction);
            let effect = if now_required { Effect::Narrows } else { Effect::Neither };
            let kind = if now_required { "required" } else { "optional" };
            Note::new(
                &child,
                "property-added",
                effect,
                format!("{} {kind} property was added", if now_required { "a" } else { "an" }),
            )
            .add(self.found);
        }
        let known = |name: &String| old_props.contains_key(name) == new_props.contains_key(name);
        for name in new_required.difference(&old_required).filter(|n| known(n)) {
            let mut child = place.property(&["properties", name], name);
            child.lenient |= old_props.get(name).is_some_and(|p| self.exempt(old_doc, p, place.direction));
            Note::new(&child, "property-became-required", Effect::Narrows, "now required").add(self.found);
        }
        for name in old_required.difference(&new_required).filter(|n| known(n)) {
            let mut child = place.property(&["properties", name], name);
            child.lenient |= old_props.get(name).is_some_and(|p| self.exempt(old_doc, p, place.direction));
            Note::new(&child, "property-became-optional", Effect::Widens, "no longer required")
                .add(self.found);
        }
    }

    /// Whether clients of the old description never meet this property in `direction`: it is
    /// read-only in a request or write-only in a response.
    pub(super) fn exempt(&self, doc: &Value, schema: &Value, direction: Option<Direction>) -> bool {
        let resolved = resolve(doc, schema);
        let flag = |key: &str| resolved.schema.get(key).and_then(Value::as_bool).unwrap_or(false);
        match direction {
            Some(Direction::Request) => flag("readOnly"),
            Some(Direction::Response) => flag("writeOnly"),
            None => false,
        }
    }

    pub(super) fn additional(&mut self, place: &Place, old: &Value, new: &Value, depth: usize) {
        let (a, b) = (extra(old), extra(new));
        match (a, b) {
            (Extra::Forbidden, Extra::Forbidden) => {}
            (_, Extra::Forbidden) => Note::new(
                place,
                "additional-properties-forbidden",
                Effect::Narrows,
                "properties it does not name are no longer allowed",
            )
            .add(self.found),
            (Extra::Forbidden, _) => {
                let effect = if place.direction == Some(Direction::Request) {
                    Effect::Widens
                } else {
                    Effect::Neither
                };
                Note::new(
                    place,
                    "additional-properties-allowed",
                    effect,
                    "properties it does not name are now allowed",
                )
                .add(self.found);
            }
            (Extra::Any, Extra::Any) => {}
            (a, b) => {
                let any = anything();
                let pick = |e: Extra<'_>| match e {
                    Extra::Schema(s) => s.clone(),
                    _ => any.clone(),
                };
                let child = place.property(&["additionalProperties"], "*");
                self.schema(&child, &pick(a), &pick(b), depth + 1);
            }
        }
    }

    pub(super) fn items(&mut self, place: &Place, old: &Value, new: &Value, depth: usize) {
        match (old.get("items").filter(|i| i.is_object()), new.get("items").filter(|i| i.is_object())) {
            (None, None) => {}
            (a, b) => {
                let any = anything();
                let child = place.property(&["items"], "[]");
                self.schema(&child, a.unwrap_or(&any), b.unwrap_or(&any), depth + 1);
            }
        }
    }
}

/// `additionalProperties` read: anything, nothing, or values of a schema.
#[derive(Clone, Copy)]
enum Extra<'v> {
    Any,
    Forbidden,
    Schema(&'v Value),
}

fn extra(schema: &Value) -> Extra<'_> {
    match schema.get("additionalProperties") {
        Some(Value::Bool(false)) => Extra::Forbidden,
        Some(Value::Object(o)) if !o.is_empty() => {
            Extra::Schema(schema.get("additionalProperties").unwrap_or(&Value::Null))
        }
        None if schema.get("unevaluatedProperties") == Some(&Value::Bool(false)) => Extra::Forbidden,
        _ => Extra::Any,
    }
}
