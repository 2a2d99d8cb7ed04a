//! Two schemas compared deep: type and format, nullability in both spellings, enum values,
//! bounds, lengths, patterns, properties and which are required, `additionalProperties`,
//! items, `oneOf`/`anyOf`/`allOf` branches, discriminators, `readOnly`/`writeOnly`, defaults
//! and deprecation. Each difference is written down with its [`Effect`]; the place's direction
//! makes it a level.

use std::borrow::Cow;
use std::collections::{BTreeSet, HashSet};

use playground_openapi::pointer::{pointer_target, unescape_segment};
use playground_openapi::schema as read;
use serde_json::{Map, Value};

use crate::Direction;
use crate::place::{Effect, Found, Note, Owner, Place, object};
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
        let escaped = name.replace('~', "~0").replace('/', "~1");
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

    fn types(&mut self, place: &Place, old: &Value, new: &Value) {
        let (old_types, old_null) = read::types(old);
        let (new_types, new_null) = read::types(new);
        // A type implied by keywords (`properties`, `items`) is compared only with one named:
        // two schemas that name none allow whatever their keywords allow.
        let named = !old_types.is_empty() || !new_types.is_empty();
        let old_set = implied(old, old_types);
        let new_set = implied(new, new_types);
        if named && old_set != new_set {
            let shown = |set: &BTreeSet<&str>| {
                if set.is_empty() {
                    Value::String("any".into())
                } else {
                    set.iter().copied().collect::<Vec<_>>().into()
                }
            };
            let (id, effect) = match (covers(&new_set, &old_set), covers(&old_set, &new_set)) {
                (true, _) => ("type-widened", Effect::Widens),
                (_, true) => ("type-narrowed", Effect::Narrows),
                _ => ("type-changed", Effect::Both),
            };
            let message = format!("type {} became {}", words(&old_set), words(&new_set));
            Note::new(place, id, effect, message)
                .values(Some(shown(&old_set)), Some(shown(&new_set)))
                .add(self.found);
        }
        if old_null != new_null {
            let (id, effect, message) = if new_null {
                ("nullable-added", Effect::Widens, "may now be null")
            } else {
                ("nullable-removed", Effect::Narrows, "may no longer be null")
            };
            Note::new(place, id, effect, message).add(self.found);
        }
        let format = |s: &Value| s.get("format").and_then(Value::as_str).map(str::to_owned);
        match (format(old), format(new)) {
            (None, Some(f)) => Note::new(place, "format-added", Effect::Narrows, format!("format {f} added"))
                .values(None, Some(f.into()))
                .add(self.found),
            (Some(f), None) => {
                Note::new(place, "format-removed", Effect::Widens, format!("format {f} removed"))
                    .values(Some(f.into()), None)
                    .add(self.found)
            }
            (Some(a), Some(b)) if a != b => {
                let (id, effect) = match format_order(&a, &b) {
                    Some(true) => ("format-widened", Effect::Widens),
                    Some(false) => ("format-narrowed", Effect::Narrows),
                    None => ("format-changed", Effect::Both),
                };
                Note::new(place, id, effect, format!("format {a} became {b}"))
                    .values(Some(a.into()), Some(b.into()))
                    .add(self.found);
            }
            _ => {}
        }
    }

    fn values(&mut self, place: &Place, old: &Value, new: &Value) {
        let values = |s: &Value| {
            read::allowed_values(s).map(|list| list.into_iter().filter(|v| !v.is_null()).collect::<Vec<_>>())
        };
        match (values(old), values(new)) {
            (None, Some(list)) => {
                Note::new(place, "enum-added", Effect::Narrows, format!("now limited to {}", listed(&list)))
                    .values(None, Some(list.into()))
                    .add(self.found)
            }
            (Some(list), None) => Note::new(
                place,
                "enum-removed",
                Effect::Widens,
                format!("no longer limited to {}", listed(&list)),
            )
            .values(Some(list.into()), None)
            .add(self.found),
            (Some(a), Some(b)) => {
                let (keys_a, keys_b): (HashSet<String>, HashSet<String>) =
                    (a.iter().map(value_key).collect(), b.iter().map(value_key).collect());
                let contains = |keys: &HashSet<String>, value: &Value| keys.contains(&value_key(value));
                for value in b.iter().filter(|v| !contains(&keys_a, v)) {
                    Note::new(place, "enum-value-added", Effect::Widens, format!("value {value} added"))
                        .values(None, Some(value.clone()))
                        .add(self.found);
                }
                for value in a.iter().filter(|v| !contains(&keys_b, v)) {
                    Note::new(place, "enum-value-removed", Effect::Narrows, format!("value {value} removed"))
                        .values(Some(value.clone()), None)
                        .add(self.found);
                }
            }
            (None, None) => {}
        }
        let default = |s: &Value| s.get("default").cloned();
        match (default(old), default(new)) {
            (a, b) if a == b => {}
            (a, b) => {
                let both = a.is_some() && b.is_some();
                let effect = match place.direction {
                    Some(Direction::Request) if both => Effect::Fixed(crate::Level::Breaking),
                    _ => Effect::Neither,
                };
                let shown =
                    |v: &Option<Value>| v.as_ref().map_or_else(|| "none".to_owned(), Value::to_string);
                let message = format!("default {} became {}", shown(&a), shown(&b));
                Note::new(place, "default-changed", effect, message).values(a, b).add(self.found);
            }
        }
    }

    fn bounds(&mut self, place: &Place, old: &Value, new: &Value) {
        let upper =
            (whole_bound(old, read::upper_bound(old), true), whole_bound(new, read::upper_bound(new), true));
        self.bound(place, "maximum", upper, true);
        let lower = (
            whole_bound(old, read::lower_bound(old), false),
            whole_bound(new, read::lower_bound(new), false),
        );
        self.bound(place, "minimum", lower, false);
        for (keyword, ids) in COUNTS {
            let count = |s: &Value| s.get(*keyword).and_then(Value::as_f64);
            let (a, b) = (count(old), count(new));
            let upper = ids[0].starts_with("max");
            let change = match (a, b) {
                (None, Some(_)) => Some((ids[0], Effect::Narrows, "set")),
                (Some(_), None) => Some((ids[1], Effect::Widens, "removed")),
                (Some(x), Some(y)) if y > x => {
                    Some((ids[2], if upper { Effect::Widens } else { Effect::Narrows }, "increased"))
                }
                (Some(x), Some(y)) if y < x => {
                    Some((ids[3], if upper { Effect::Narrows } else { Effect::Widens }, "decreased"))
                }
                _ => None,
            };
            if let Some((id, effect, verb)) = change {
                let message = format!("{keyword} {verb}{}", from_to(old.get(*keyword), new.get(*keyword)));
                Note::new(place, id, effect, message)
                    .values(old.get(*keyword).cloned(), new.get(*keyword).cloned())
                    .add(self.found);
            }
        }
        let multiple = |s: &Value| s.get("multipleOf").and_then(Value::as_f64);
        let change = match (multiple(old), multiple(new)) {
            (None, Some(_)) => Some(("multiple-of-set", Effect::Narrows)),
            (Some(_), None) => Some(("multiple-of-removed", Effect::Widens)),
            (Some(a), Some(b)) if a != b => Some((
                "multiple-of-changed",
                if whole_ratio(b, a) {
                    Effect::Narrows
                } else if whole_ratio(a, b) {
                    Effect::Widens
                } else {
                    Effect::Both
                },
            )),
            _ => None,
        };
        if let Some((id, effect)) = change {
            let message =
                format!("multipleOf changed{}", from_to(old.get("multipleOf"), new.get("multipleOf")));
            Note::new(place, id, effect, message)
                .values(old.get("multipleOf").cloned(), new.get("multipleOf").cloned())
                .add(self.found);
        }
        let unique = |s: &Value| s.get("uniqueItems").and_then(Value::as_bool).unwrap_or(false);
        match (unique(old), unique(new)) {
            (false, true) => {
                Note::new(place, "unique-items-set", Effect::Narrows, "items must now be unique")
                    .add(self.found)
            }
            (true, false) => {
                Note::new(place, "unique-items-removed", Effect::Widens, "items need no longer be unique")
                    .add(self.found)
            }
            _ => {}
        }
        let pattern = |s: &Value| s.get("pattern").and_then(Value::as_str).map(str::to_owned);
        match (pattern(old), pattern(new)) {
            (None, Some(p)) => {
                Note::new(place, "pattern-added", Effect::Narrows, format!("pattern {p} added"))
                    .values(None, Some(p.into()))
                    .add(self.found)
            }
            (Some(p), None) => {
                Note::new(place, "pattern-removed", Effect::Widens, format!("pattern {p} removed"))
                    .values(Some(p.into()), None)
                    .add(self.found)
            }
            (Some(a), Some(b)) if a != b => {
                Note::new(place, "pattern-changed", Effect::Both, format!("pattern {a} became {b}"))
                    .values(Some(a.into()), Some(b.into()))
                    .add(self.found)
            }
            _ => {}
        }
    }

    fn bound(
        &mut self,
        place: &Place,
        keyword: &'static str,
        (a, b): (Option<read::Bound>, Option<read::Bound>),
        upper: bool,
    ) {
        let ids: [&'static str; 4] = if upper {
            ["maximum-set", "maximum-removed", "maximum-increased", "maximum-decreased"]
        } else {
            ["minimum-set", "minimum-removed", "minimum-increased", "minimum-decreased"]
        };
        let shown = |b: &read::Bound| {
            format!(
                "{}{}",
                if b.exclusive {
                    if upper { "<" } else { ">" }
                } else if upper {
                    "≤"
                } else {
                    "≥"
                },
                b.written
            )
        };
        let value = |b: &read::Bound| Value::String(shown(b));
        let change = match (&a, &b) {
            (None, Some(n)) => Some((ids[0], Effect::Narrows, format!("{keyword} {} set", shown(n)))),
            (Some(o), None) => Some((ids[1], Effect::Widens, format!("{keyword} {} removed", shown(o)))),
            (Some(o), Some(n)) => {
                // Higher means more values for an upper bound, fewer for a lower one.
                let higher = n.value > o.value
                    || (n.value == o.value && o.exclusive && !n.exclusive && upper)
                    || (n.value == o.value && n.exclusive && !o.exclusive && !upper);
                let lower = n.value < o.value
                    || (n.value == o.value && n.exclusive && !o.exclusive && upper)
                    || (n.value == o.value && o.exclusive && !n.exclusive && !upper);
                let message = format!("{keyword} {} became {}", shown(o), shown(n));
                if higher {
                    Some((ids[2], if upper { Effect::Widens } else { Effect::Narrows }, message))
                } else if lower {
                    Some((ids[3], if upper { Effect::Narrows } else { Effect::Widens }, message))
                } else {
                    None
                }
            }
            (None, None) => None,
        };
        if let Some((id, effect, message)) = change {
            Note::new(place, id, effect, message)
                .values(a.as_ref().map(value), b.as_ref().map(value))
                .add(self.found);
        }
    }

    fn flags(&mut self, place: &Place, old: &Value, new: &Value) {
        let flag = |s: &Value, key: &str| s.get(key).and_then(Value::as_bool).unwrap_or(false);
        let request = place.direction == Some(Direction::Request);
        let response = place.direction == Some(Direction::Response);
        match (flag(old, "readOnly"), flag(new, "readOnly")) {
            (false, true) => {
                let effect = if request { Effect::Narrows } else { Effect::Neither };
                Note::new(place, "read-only-added", effect, "now read-only: clients may no longer send it")
                    .add(self.found);
            }
            (true, false) => {
                let effect = if request { Effect::Widens } else { Effect::Neither };
                Note::new(place, "read-only-removed", effect, "no longer read-only").add(self.found);
            }
            _ => {}
        }
        match (flag(old, "writeOnly"), flag(new, "writeOnly")) {
            (false, true) => {
                let effect = if response { Effect::Fixed(crate::Level::Breaking) } else { Effect::Neither };
                Note::new(place, "write-only-added", effect, "now write-only: no longer returned")
                    .add(self.found);
            }
            (true, false) => Note::new(place, "write-only-removed", Effect::Neither, "no longer write-only")
                .add(self.found),
            _ => {}
        }
        match (flag(old, "deprecated"), flag(new, "deprecated")) {
            (false, true) => {
                Note::new(place, "schema-deprecated", Effect::Fixed(crate::Level::Deprecation), "deprecated")
                    .add(self.found)
            }
            (true, false) => Note::new(place, "schema-undeprecated", Effect::Neither, "no longer deprecated")
                .add(self.found),
            _ => {}
        }
    }

    fn properties(&mut self, place: &Place, old: &Value, new: &Value, depth: usize) {
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
    fn exempt(&self, doc: &Value, schema: &Value, direction: Option<Direction>) -> bool {
        let resolved = resolve(doc, schema);
        let flag = |key: &str| resolved.schema.get(key).and_then(Value::as_bool).unwrap_or(false);
        match direction {
            Some(Direction::Request) => flag("readOnly"),
            Some(Direction::Response) => flag("writeOnly"),
            None => false,
        }
    }

    fn additional(&mut self, place: &Place, old: &Value, new: &Value, depth: usize) {
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

    fn items(&mut self, place: &Place, old: &Value, new: &Value, depth: usize) {
        match (old.get("items").filter(|i| i.is_object()), new.get("items").filter(|i| i.is_object())) {
            (None, None) => {}
            (a, b) => {
                let any = anything();
                let child = place.property(&["items"], "[]");
                self.schema(&child, a.unwrap_or(&any), b.unwrap_or(&any), depth + 1);
            }
        }
    }

    fn branches(&mut self, place: &Place, old: &Value, new: &Value, keyword: &'static str, depth: usize) {
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

    fn discriminator(&mut self, place: &Place, old: &Value, new: &Value) {
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
fn regrouped(old: &Value, new: &Value) -> bool {
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
fn dynamic_anchors(schema: &Value) -> Vec<(String, Value)> {
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
fn dynamic_target<'s>(anchors: &'s [(String, Value)], schema: &Value) -> Option<&'s Value> {
    let name = schema.get("$dynamicRef")?.as_str()?.rsplit_once('#')?.1;
    anchors.iter().find(|(anchor, _)| anchor == name).map(|(_, target)| target)
}

/// A schema with its `allOf` parts merged into it (each part's references followed): the
/// properties of all, the required names of all, and each other keyword from the first that
/// has it.
fn merged(doc: &Value, schema: &Value, depth: usize) -> Value {
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

/// An integer schema's bound as the inclusive whole number it amounts to (`exclusiveMinimum: 0`
/// is `minimum: 1`), so that the two ways of writing one bound compare equal.
fn whole_bound(schema: &Value, bound: Option<read::Bound>, upper: bool) -> Option<read::Bound> {
    let bound = bound?;
    if !read::is_integer(schema) || !bound.value.is_finite() || bound.value.abs() > 9.0e15 {
        return Some(bound);
    }
    let value = match (upper, bound.exclusive) {
        (true, true) => bound.value.ceil() - 1.0,
        (true, false) => bound.value.floor(),
        (false, true) => bound.value.floor() + 1.0,
        (false, false) => bound.value.ceil(),
    };
    Some(read::Bound { value, written: format!("{value}"), exclusive: false })
}

/// The count keywords and their ids: set, removed, increased, decreased.
const COUNTS: &[(&str, [&str; 4])] = &[
    ("maxLength", ["max-length-set", "max-length-removed", "max-length-increased", "max-length-decreased"]),
    ("minLength", ["min-length-set", "min-length-removed", "min-length-increased", "min-length-decreased"]),
    ("maxItems", ["max-items-set", "max-items-removed", "max-items-increased", "max-items-decreased"]),
    ("minItems", ["min-items-set", "min-items-removed", "min-items-increased", "min-items-decreased"]),
    (
        "maxProperties",
        [
            "max-properties-set",
            "max-properties-removed",
            "max-properties-increased",
            "max-properties-decreased",
        ],
    ),
    (
        "minProperties",
        [
            "min-properties-set",
            "min-properties-removed",
            "min-properties-increased",
            "min-properties-decreased",
        ],
    ),
];

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

/// The types a schema allows, with those its keywords imply when it names none.
fn implied<'v>(schema: &'v Value, named: Vec<&'v str>) -> BTreeSet<&'v str> {
    if !named.is_empty() {
        return named.into_iter().collect();
    }
    let has = |key: &str| schema.get(key).is_some();
    if has("properties") || has("additionalProperties") {
        BTreeSet::from(["object"])
    } else if has("items") || has("prefixItems") {
        BTreeSet::from(["array"])
    } else {
        BTreeSet::new()
    }
}

/// Whether every value of `inner`'s types is one of `outer`'s (an empty set is any type;
/// `integer` is within `number`).
fn covers(outer: &BTreeSet<&str>, inner: &BTreeSet<&str>) -> bool {
    if outer.is_empty() {
        return true;
    }
    !inner.is_empty()
        && inner.iter().all(|t| outer.contains(t) || (*t == "integer" && outer.contains("number")))
}

fn words(set: &BTreeSet<&str>) -> String {
    if set.is_empty() { "any".to_owned() } else { set.iter().copied().collect::<Vec<_>>().join(" or ") }
}

/// Whether format `b` allows more (`Some(true)`) or fewer (`Some(false)`) values than `a`.
fn format_order(a: &str, b: &str) -> Option<bool> {
    const WIDER: &[(&str, &str)] = &[("int32", "int64"), ("float", "double")];
    if WIDER.contains(&(a, b)) {
        Some(true)
    } else if WIDER.contains(&(b, a)) {
        Some(false)
    } else {
        None
    }
}

/// A value as compared in an enum: numbers by their value (`1` is `1.0`), the rest as JSON.
fn value_key(value: &Value) -> String {
    match value.as_f64() {
        Some(number) if value.is_number() => format!("{number:?}"),
        _ => value.to_string(),
    }
}

fn listed(list: &[Value]) -> String {
    let shown: Vec<String> = list.iter().take(10).map(Value::to_string).collect();
    let more = if list.len() > 10 { format!(" and {} more", list.len() - 10) } else { String::new() };
    format!("{}{more}", shown.join(", "))
}

fn from_to(a: Option<&Value>, b: Option<&Value>) -> String {
    match (a, b) {
        (Some(a), Some(b)) => format!(" from {a} to {b}"),
        (None, Some(b)) => format!(" to {b}"),
        (Some(a), None) => format!(" (was {a})"),
        (None, None) => String::new(),
    }
}

/// Whether `a / b` is a whole number.
fn whole_ratio(a: f64, b: f64) -> bool {
    if b == 0.0 {
        return false;
    }
    let ratio = a / b;
    (ratio - ratio.round()).abs() < 1e-9
}

/// A branch in words: the schema it names, else its position.
fn branch_label(branch: &Value, index: usize) -> String {
    match reference(branch).and_then(|r| r.rsplit('/').next()) {
        Some(name) => unescape_segment(name),
        None => format!("#{}", index + 1),
    }
}
