//! A schema's own facets compared: type and format, nullability, enum values and defaults,
//! bounds and counts, `multipleOf`, `uniqueItems`, patterns, and the `readOnly`, `writeOnly` and
//! `deprecated` flags.

use std::collections::{BTreeSet, HashSet};

use playground_openapi::schema as read;
use serde_json::Value;

use super::Walk;
use crate::Direction;
use crate::place::{Effect, Note, Place};

impl Walk<'_> {
    pub(super) fn types(&mut self, place: &Place, old: &Value, new: &Value) {
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

    pub(super) fn values(&mut self, place: &Place, old: &Value, new: &Value) {
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

    pub(super) fn bounds(&mut self, place: &Place, old: &Value, new: &Value) {
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
            let verb = match id {
                "multiple-of-set" => "set",
                "multiple-of-removed" => "removed",
                _ => "changed",
            };
            let message =
                format!("multipleOf {verb}{}", from_to(old.get("multipleOf"), new.get("multipleOf")));
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

    pub(super) fn bound(
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

    pub(super) fn flags(&mut self, place: &Place, old: &Value, new: &Value) {
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
