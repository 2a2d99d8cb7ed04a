//! A schema read as the conjunction of its parts: `$ref` targets (with their siblings) and
//! `allOf` members are followed once each, so a keyword is answered across all of them and
//! `allOf` is generated as one merged schema rather than part by part.

use playground_openapi::json::Key;
use serde_json::Value;

use playground_openapi::schema::{Bound, Direction};

/// At most this many parts in one conjunction, and this deep a chain of `$ref`/`allOf`.
const MAX_PARTS: usize = 64;
const MAX_CHAIN: usize = 32;

/// Type bits: `null`, `boolean`, `object`, `array`, `string`, integers, other numbers.
pub(super) const NULL: u8 = 1;
pub(super) const BOOLEAN: u8 = 2;
pub(super) const OBJECT: u8 = 4;
pub(super) const ARRAY: u8 = 8;
pub(super) const STRING: u8 = 16;
pub(super) const INTEGER: u8 = 32;
pub(super) const FRACTION: u8 = 64;
/// Every type.
pub(super) const ANY: u8 = 127;

/// The parts a value must satisfy together.
#[derive(Debug, Clone, Default)]
pub(super) struct Shape<'a> {
    /// The schemas added, whose parts these are: a value satisfies the shape when it satisfies
    /// each of them.
    pub(super) roots: Vec<&'a Value>,
    /// Schema objects whose keywords all apply (`$ref` and `allOf` already followed).
    pub(super) parts: Vec<&'a Value>,
    /// The references followed, outermost first.
    pub(super) refs: Vec<&'a str>,
    /// `oneOf`/`anyOf` lists and `if` keywords whose branch is already among the parts.
    pub(super) decided: Vec<&'a Value>,
    /// OpenAPI 3.0 `$ref` objects: their siblings do not constrain the value (3.0 ignores
    /// them), but their `readOnly`, `writeOnly` and `example` still say what was meant.
    pub(super) notes_only: Vec<&'a Value>,
    /// A part is `false`: no value satisfies the shape.
    pub(super) never: bool,
    /// What could not be followed (a broken `$ref`, a schema that is not an object), in words.
    pub(super) problems: Vec<String>,
}

impl<'a> Shape<'a> {
    /// The shape of one schema.
    pub(super) fn of(doc: &'a Value, schema: &'a Value) -> Self {
        let mut shape = Self::default();
        shape.add(doc, schema, 0);
        shape
    }

    /// The shape of every schema in `schemas` together.
    pub(super) fn all(doc: &'a Value, schemas: &[&'a Value]) -> Self {
        let mut shape = Self::default();
        for schema in schemas {
            shape.add(doc, schema, 0);
        }
        shape
    }

    /// Adds `schema` (and what its `$ref` and `allOf` bring) to the conjunction.
    pub(super) fn add(&mut self, doc: &'a Value, schema: &'a Value, chain: usize) {
        if chain == 0 {
            self.roots.push(schema);
        }
        let map = match schema {
            Value::Bool(true) => return,
            Value::Bool(false) => {
                self.never = true;
                return;
            }
            Value::Object(map) => map,
            other => {
                self.problem(format!("a schema is {}, not an object", playground_openapi::json::kind(other)));
                return;
            }
        };
        if self.parts.iter().chain(&self.notes_only).any(|p| std::ptr::eq(*p, schema)) {
            return;
        }
        if chain > MAX_CHAIN || self.parts.len() >= MAX_PARTS {
            self.problem(format!(
                "a schema combines more than {MAX_PARTS} parts or chains more than {MAX_CHAIN} references"
            ));
            return;
        }
        let notes_only = map.contains_key("$ref") && is_3_0(doc);
        if notes_only {
            self.notes_only.push(schema);
        } else {
            self.parts.push(schema);
        }
        if let Some(reference) = map.key("$ref") {
            match reference.as_str() {
                Some(r) if r.starts_with('#') => match playground_openapi::pointer::pointer_target(doc, r) {
                    Some(target) => {
                        self.refs.push(r);
                        self.add(doc, target, chain + 1);
                    }
                    None => self.problem(format!("the reference {r} does not resolve")),
                },
                Some(r) => self.problem(format!("the reference {r} is to another document")),
                None => self.problem("a $ref is not a string".to_owned()),
            }
        }
        if notes_only {
            return;
        }
        if let Some(all) = map.key("allOf") {
            match all.as_array() {
                Some(list) => list.iter().for_each(|s| self.add(doc, s, chain + 1)),
                None => self.problem("an allOf is not a list".to_owned()),
            }
        }
    }

    fn problem(&mut self, text: String) {
        if !self.problems.contains(&text) {
            self.problems.push(text);
        }
    }

    /// The values of `key` across the parts, outermost first.
    pub(super) fn get<'s>(&'s self, key: &'s str) -> impl Iterator<Item = &'a Value> + 's {
        self.parts.iter().filter_map(move |p| p.key(key))
    }

    /// Whether any part sets `key` to `true`.
    pub(super) fn flag(&self, key: &str) -> bool {
        self.get(key).any(|v| v.as_bool() == Some(true))
    }

    /// Whether any part has any of `keys`.
    pub(super) fn has_any(&self, keys: &[&str]) -> bool {
        keys.iter().any(|k| self.get(k).next().is_some())
    }

    /// The largest of a count keyword (`minLength`, `minItems`...) across the parts.
    pub(super) fn at_least(&self, key: &str) -> Option<u64> {
        self.get(key).filter_map(count).max()
    }

    /// The smallest of a count keyword (`maxLength`, `maxItems`...) across the parts.
    pub(super) fn at_most(&self, key: &str) -> Option<u64> {
        self.get(key).filter_map(count).min()
    }

    /// The tightest lower bound of the parts (3.0 and 3.1 dialects alike).
    pub(super) fn lower(&self) -> Option<Bound> {
        tightest(self.parts.iter().filter_map(|p| playground_openapi::schema::lower_bound(p)), |a, b| a > b)
    }

    /// The tightest upper bound of the parts.
    pub(super) fn upper(&self) -> Option<Bound> {
        tightest(self.parts.iter().filter_map(|p| playground_openapi::schema::upper_bound(p)), |a, b| a < b)
    }

    /// The first `format` of the parts.
    pub(super) fn format(&self) -> Option<&'a str> {
        self.get("format").find_map(Value::as_str)
    }

    /// Every `pattern` of the parts.
    pub(super) fn patterns(&self) -> Vec<&'a str> {
        self.get("pattern").filter_map(Value::as_str).collect()
    }

    /// Whether a property of this shape is left out of values travelling in `direction`.
    /// No value satisfies the shape: a part is `false`, or says `not: {}` (or `not: true`).
    pub(super) fn unsatisfiable(&self) -> bool {
        self.never
            || self.parts.iter().any(|p| {
                p.key("not")
                    .is_some_and(|n| *n == Value::Bool(true) || n.as_object().is_some_and(|o| o.is_empty()))
            })
    }

    pub(super) fn excluded(&self, direction: Direction) -> bool {
        let key = match direction {
            Direction::Request => "readOnly",
            Direction::Response => "writeOnly",
        };
        self.flag(key) || self.notes_only.iter().any(|p| p.key(key).and_then(Value::as_bool) == Some(true))
    }

    /// The schema's own examples (`example`, the first of `examples`), outermost first.
    pub(super) fn examples(&self) -> Vec<&'a Value> {
        let mut holders: Vec<&'a Value> = self.notes_only.clone();
        holders.extend(&self.parts);
        holders
            .into_iter()
            .filter_map(|p| p.key("example").or_else(|| p.key("examples").and_then(Value::as_array)?.first()))
            .collect()
    }

    /// The types every part allows, as bits, and the type names no bit stands for.
    pub(super) fn types(&self) -> (u8, Vec<&'a str>) {
        let mut set = ANY;
        let mut unknown = Vec::new();
        for part in &self.parts {
            if part.key("type").is_none() {
                continue;
            }
            let (names, nullable) = playground_openapi::schema::types(part);
            let mut bits = if nullable { NULL } else { 0 };
            let mut known = true;
            for name in names {
                bits |= match name {
                    "boolean" => BOOLEAN,
                    "object" => OBJECT,
                    "array" => ARRAY,
                    "string" => STRING,
                    "integer" => INTEGER,
                    "number" => INTEGER | FRACTION,
                    other => {
                        unknown.push(other);
                        known = false;
                        0
                    }
                };
            }
            if known {
                set &= bits;
            }
        }
        (set, unknown)
    }

    /// The first `oneOf` or `anyOf` of the parts whose branch is not chosen yet: the part and
    /// the keyword.
    pub(super) fn open_choice(&self) -> Option<(&'a Value, &'static str)> {
        self.parts.iter().find_map(|part| {
            ["oneOf", "anyOf"].into_iter().find_map(|key| {
                let list = part.key(key)?;
                (!self.decided.iter().any(|d| std::ptr::eq(*d, list))).then_some((*part, key))
            })
        })
    }

    /// The first part with an `if` not decided yet.
    pub(super) fn open_condition(&self) -> Option<&'a Value> {
        self.parts.iter().find_map(|part| {
            let condition = part.key("if")?;
            (!self.decided.iter().any(|d| std::ptr::eq(*d, condition))).then_some(*part)
        })
    }
}

/// Whether `doc` is an OpenAPI 3.0 document (Swagger 2 documents arrive converted to 3.0).
fn is_3_0(doc: &Value) -> bool {
    doc.key("openapi").and_then(Value::as_str).is_some_and(|v| v.starts_with("3.0"))
}

fn count(value: &Value) -> Option<u64> {
    value.as_u64().or_else(|| {
        // `minLength: 2.0` is a count too; negative or fractional counts are not.
        let f = value.as_f64()?;
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)] // checked just before
        (f >= 0.0 && f.fract() == 0.0).then(|| f.min(u64::MAX as f64) as u64)
    })
}

fn tightest(bounds: impl Iterator<Item = Bound>, tighter: fn(f64, f64) -> bool) -> Option<Bound> {
    bounds.reduce(|best, b| {
        if tighter(b.value, best.value) || (b.value == best.value && b.exclusive) { b } else { best }
    })
}
