//! Two schemas compared deep: type and format, nullability in both spellings, enum values,
//! bounds, lengths, patterns, properties and which are required, `additionalProperties`,
//! items, `oneOf`/`anyOf`/`allOf` branches, discriminators, `readOnly`/`writeOnly`, defaults
//! and deprecation. Each difference is written down with its [`Effect`]; the place's direction
//! makes it a level.

mod branches;
mod objects;
mod scalars;

use std::borrow::Cow;

use playground_openapi::pointer::{escape_segment, pointer_target, unescape_segment};
use playground_openapi::schema as read;
use serde_json::{Map, Value};

use self::branches::{branch_label, dynamic_anchors, dynamic_target, merged, regrouped};

use crate::Direction;
use crate::place::{Effect, Found, Note, Owner, Place};
use crate::shared::{Shared, User};

/// How deep a walk goes before it stops (a schema nested deeper is not compared further).
const MAX_DEPTH: usize = 64;
/// How many `$ref`s in a row are followed.
const MAX_CHAIN: usize = 16;
/// Where component schemas are.
const COMPONENT: &str = "#/components/schemas/";

/// The two documents and what the comparison found.
pub(crate) struct Walk<'a> {
    pub old_doc: &'a Value,
    pub new_doc: &'a Value,
    pub found: &'a mut Found,
    pub shared: &'a mut Shared,
    /// The pairs of references being walked inline (a schema that refers to itself ends).
    stack: Vec<(String, String)>,
    /// The `$dynamicAnchor`s on the way in, outermost first, on each side.
    old_dynamic: Vec<(String, Value)>,
    new_dynamic: Vec<(String, Value)>,
}

/// A schema as compared: the target of its `$ref`s (with their siblings laid over) and the
/// pointer where it stands.
struct Resolved<'v> {
    schema: Cow<'v, Value>,
    /// The last reference followed, when there was one.
    reference: Option<String>,
    /// Its pointer (the reference's target when there was one).
    pointer: Option<String>,
}

fn resolve<'v>(doc: &'v Value, schema: &'v Value) -> Resolved<'v> {
    let mut current: Cow<'v, Value> = Cow::Borrowed(schema);
    let mut reference = None;
    let mut pointer = None;
    for _ in 0..MAX_CHAIN {
        let Some(target_ref) = current.get("$ref").and_then(Value::as_str).map(str::to_owned) else { break };
        let Some(target) = pointer_target(doc, &target_ref) else { break };
        current = match read::with_siblings(&current, target) {
            Some(merged) => Cow::Owned(merged),
            None => Cow::Borrowed(target),
        };
        pointer = Some(target_ref.trim_start_matches('#').to_owned());
        reference = Some(target_ref);
    }
    Resolved { schema: current, reference, pointer }
}

/// The component schema a reference names, when it names one directly.
fn component(reference: &str) -> Option<String> {
    let rest = reference.strip_prefix(COMPONENT)?;
    (!rest.contains('/')).then(|| unescape_segment(rest))
}

/// A schema that allows anything (`{}`), for a side that has none where the other has one.
fn anything() -> Value {
    Value::Object(Map::new())
}

impl<'a> Walk<'a> {
    pub(crate) fn new(
        old_doc: &'a Value,
        new_doc: &'a Value,
        found: &'a mut Found,
        shared: &'a mut Shared,
    ) -> Self {
        Walk {
            old_doc,
            new_doc,
            found,
            shared,
            stack: Vec::new(),
            old_dynamic: Vec::new(),
            new_dynamic: Vec::new(),
        }
    }

    /// Compares the schema of one place on each side, either side absent.
    pub(crate) fn optional(&mut self, place: &Place, old: Option<&Value>, new: Option<&Value>) {
        match (old, new) {
            (Some(old), Some(new)) => self.schema(place, old, new, 0),
            (None, Some(_)) => {
                Note::new(place, "schema-added", Effect::Narrows, "a schema now describes it").add(self.found)
            }
            (Some(_), None) => {
                Note::new(place, "schema-removed", Effect::Widens, "no schema describes it any more")
                    .removal()
                    .add(self.found)
            }
            (None, None) => {}
        }
    }

    /// Compares a component schema with itself across the two documents (a shared schema).
    pub(crate) fn component(&mut self, name: &str, direction: Direction, lenient: bool) {
        let escaped = escape_segment(name);
        let pointer = format!("/components/schemas/{escaped}");
        let (Some(old), Some(new)) = (self.old_doc.pointer(&pointer), self.new_doc.pointer(&pointer)) else {
            return;
        };
        let mut place = Place::new(Owner::Schema(name.to_owned(), lenient), "", pointer.clone(), pointer);
        place.direction = Some(direction);
        place.lenient = lenient;
        let reference = format!("{COMPONENT}{escaped}");
        self.stack.push((reference.clone(), reference));
        self.facets(&place, old, new, 0);
        self.stack.pop();
    }

    /// Compares two schemas at `place`.
    pub(crate) fn schema(&mut self, place: &Place, old: &Value, new: &Value, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        let (old_target, new_target) = (
            dynamic_target(&self.old_dynamic, old).cloned(),
            dynamic_target(&self.new_dynamic, new).cloned(),
        );
        if old_target.is_some() || new_target.is_some() {
            // The depth bounds an anchor that stands for a `$dynamicRef` to itself.
            let (old, new) = (old_target.as_ref().unwrap_or(old), new_target.as_ref().unwrap_or(new));
            return self.schema(place, old, new, depth + 1);
        }
        let (old_ref, new_ref) = (reference(old), reference(new));
        if let (Some(a), Some(b), Some(direction)) = (old_ref, new_ref, place.direction)
            && a == b
            && let Some(name) = component(a)
            && pointer_target(self.old_doc, a).is_some()
            && pointer_target(self.new_doc, b).is_some()
            && old.as_object().is_some_and(|o| o.len() == 1)
            && new.as_object().is_some_and(|o| o.len() == 1)
        {
            let user = match &place.owner {
                Owner::Operation(key) => User::Operation(key.clone()),
                Owner::Schema(from, _) => User::Schema(from.clone()),
                Owner::Document => return,
            };
            self.shared.reach(&name, direction, place.lenient, user);
            return;
        }
        let old_doc = self.old_doc;
        let new_doc = self.new_doc;
        let old_r = resolve(old_doc, old);
        let new_r = resolve(new_doc, new);
        let pair = (old_r.reference.clone().unwrap_or_default(), new_r.reference.clone().unwrap_or_default());
        let followed = old_r.reference.is_some() || new_r.reference.is_some();
        if followed && self.stack.contains(&pair) {
            return;
        }
        let mut place = place.clone();
        if let Some(pointer) = &old_r.pointer {
            place.old.clone_from(pointer);
            place.frozen.0 = false;
        }
        if let Some(pointer) = &new_r.pointer {
            place.new.clone_from(pointer);
            place.frozen.1 = false;
        }
        if followed {
            self.stack.push(pair);
        }
        self.facets(&place, &old_r.schema, &new_r.schema, depth);
        if followed {
            self.stack.pop();
        }
    }

    fn facets(&mut self, place: &Place, old: &Value, new: &Value, depth: usize) {
        if old == new && !has_reference(old) {
            return;
        }
        if regrouped(old, new) {
            // The `allOf` parts differ: the parts added or taken away are noted, and what the
            // merged schemas allow is compared (a part added with only optional properties
            // narrows nothing; one split into two parts changes nothing).
            self.parts(place, old, new);
            let (old_doc, new_doc) = (self.old_doc, self.new_doc);
            let (a, b) = (merged(old_doc, old, 0), merged(new_doc, new, 0));
            let mut place = place.clone();
            place.frozen =
                (place.frozen.0 || old.get("allOf").is_some(), place.frozen.1 || new.get("allOf").is_some());
            self.facets(&place, &a, &b, depth + 1);
            return;
        }
        let (old_dynamic, new_dynamic) = (self.old_dynamic.len(), self.new_dynamic.len());
        self.old_dynamic.extend(dynamic_anchors(old));
        self.new_dynamic.extend(dynamic_anchors(new));
        self.types(place, old, new);
        self.values(place, old, new);
        self.bounds(place, old, new);
        self.flags(place, old, new);
        self.properties(place, old, new, depth);
        self.additional(place, old, new, depth);
        self.items(place, old, new, depth);
        for keyword in ["oneOf", "anyOf", "allOf"] {
            self.branches(place, old, new, keyword, depth);
        }
        self.discriminator(place, old, new);
        self.old_dynamic.truncate(old_dynamic);
        self.new_dynamic.truncate(new_dynamic);
    }

    /// The `allOf` parts one side has and the other does not (by the schema they name, the
    /// others by count), noted: what they do is compared on the merged schemas.
    fn parts(&mut self, place: &Place, old: &Value, new: &Value) {
        let list = |s: &Value| s.get("allOf").and_then(Value::as_array).cloned().unwrap_or_default();
        let (a, b) = (list(old), list(new));
        let names = |list: &[Value]| list.iter().filter_map(reference).map(str::to_owned).collect::<Vec<_>>();
        let inline = |list: &[Value]| list.iter().filter(|p| reference(p).is_none()).count();
        let (x, y) = (names(&a), names(&b));
        for (i, part) in b.iter().enumerate() {
            let label = branch_label(part, i);
            let gone = match reference(part) {
                Some(r) => !x.iter().any(|n| n == r),
                None => b[..=i].iter().filter(|p| reference(p).is_none()).count() > inline(&a),
            };
            if gone {
                let child = place.property(&["allOf", &i.to_string()], &format!("(allOf {label})"));
                Note::new(&child, "all-of-added", Effect::Neither, format!("allOf part {label} added"))
                    .add(self.found);
            }
        }
        for (i, part) in a.iter().enumerate() {
            let label = branch_label(part, i);
            let gone = match reference(part) {
                Some(r) => !y.iter().any(|n| n == r),
                None => a[..=i].iter().filter(|p| reference(p).is_none()).count() > inline(&b),
            };
            if gone {
                let child = place.property(&["allOf", &i.to_string()], &format!("(allOf {label})"));
                Note::new(&child, "all-of-removed", Effect::Neither, format!("allOf part {label} removed"))
                    .removal()
                    .add(self.found);
            }
        }
    }
}

/// The `$ref` a schema is, when it is one.
fn reference(schema: &Value) -> Option<&str> {
    schema.get("$ref").and_then(Value::as_str)
}

/// Whether a schema holds a `$ref` anywhere (two equal texts may still name schemas that
/// differ between the documents).
fn has_reference(schema: &Value) -> bool {
    match schema {
        Value::Object(map) => map.iter().any(|(key, value)| key == "$ref" || has_reference(value)),
        Value::Array(list) => list.iter().any(has_reference),
        _ => false,
    }
}
