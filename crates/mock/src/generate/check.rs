//! Whether a value satisfies a schema, with OpenAPI's reading of it: 3.0's `nullable` and
//! boolean exclusive bounds as well as 3.1's type lists and numeric ones, `multipleOf` as an
//! exact decimal, formats, unanchored patterns, and `readOnly`/`writeOnly` properties not
//! required in the direction that leaves them out. Used to accept a schema's own examples, to
//! keep a `oneOf` value out of the other branches, and to call a generated value exact.

use std::collections::HashMap;
use std::net::{Ipv4Addr, Ipv6Addr};
use std::sync::{Arc, Mutex, OnceLock};

use serde_json::{Map, Value};

use super::scalar::{MAX_STRING, decimal};
use super::shape::Shape;
use super::{Run, ecma};

/// Deepest nesting of checks (values and combinators) before a check gives up and passes.
const MAX_CHECK_DEPTH: usize = 48;
/// Schema parts one check may visit before it gives up and passes.
const MAX_CHECKS: usize = 200_000;

impl<'a> Run<'a> {
    /// Whether `value` satisfies `schema`.
    pub(super) fn check(&mut self, schema: &'a Value, value: &Value) -> bool {
        let shape = Shape::of(self.doc, schema);
        self.check_shape(&shape, value, 0)
    }

    /// Whether `value` satisfies every part of `shape`.
    pub(super) fn check_shape(&mut self, shape: &Shape<'a>, value: &Value, depth: usize) -> bool {
        self.checks += 1;
        if depth > MAX_CHECK_DEPTH || self.checks > MAX_CHECKS {
            self.unverified = true;
            return true;
        }
        if shape.never || !shape.problems.is_empty() {
            return false;
        }
        let left_out = if value.is_object() { self.left_out(shape) } else { Vec::new() };
        shape.parts.iter().all(|part| self.part_ok(shape, part, value, &left_out, depth))
    }

    fn check_at(&mut self, schema: &'a Value, value: &Value, depth: usize) -> bool {
        let shape = Shape::of(self.doc, schema);
        self.check_shape(&shape, value, depth + 1)
    }

    /// Whether `pattern` finds a match in `text`; `None` when this engine cannot read it.
    pub(super) fn matches(&mut self, pattern: &str, text: &str) -> Option<bool> {
        let compiled = match self.regexes.get(pattern) {
            Some(compiled) => compiled.clone(),
            None => {
                let compiled = compiled(pattern);
                self.regexes.insert(pattern.to_owned(), compiled.clone());
                compiled
            }
        }?;
        // A cut repetition count reads longer strings differently.
        if compiled.1 && text.chars().count() > MAX_STRING {
            return None;
        }
        Some(compiled.0.is_match(text))
    }

    /// One part's own keywords (its `$ref` and `allOf` are parts of the shape already).
    fn part_ok(
        &mut self,
        shape: &Shape<'a>,
        part: &'a Value,
        value: &Value,
        left_out: &[&str],
        depth: usize,
    ) -> bool {
        let Some(map) = part.as_object() else { return true };
        if map.contains_key("type") && !type_ok(part, value) {
            return false;
        }
        if map.get("const").is_some_and(|c| !same(c, value)) {
            return false;
        }
        if let Some(Value::Array(list)) = map.get("enum")
            && !list.iter().any(|v| same(v, value))
        {
            return false;
        }
        let kept = match value {
            Value::String(text) => self.string_ok(map, text),
            Value::Number(_) => number_ok(part, map, value),
            Value::Array(items) => self.array_ok(map, items, depth),
            Value::Object(object) => self.object_ok(shape, map, object, left_out, depth),
            Value::Null | Value::Bool(_) => true,
        };
        kept && self.combinators_ok(map, value, depth)
    }

    fn combinators_ok(&mut self, map: &'a Map<String, Value>, value: &Value, depth: usize) -> bool {
        if let Some(Value::Array(any)) = map.get("anyOf")
            && !any.iter().any(|s| self.check_at(s, value, depth))
        {
            return false;
        }
        if let Some(Value::Array(one)) = map.get("oneOf") {
            let mut matching = 0;
            for s in one {
                if self.check_at(s, value, depth) {
                    matching += 1;
                    if matching > 1 {
                        return false;
                    }
                }
            }
            if matching != 1 {
                return false;
            }
        }
        if let Some(not) = map.get("not")
            && self.check_at(not, value, depth)
        {
            return false;
        }
        if let Some(condition) = map.get("if") {
            let branch =
                if self.check_at(condition, value, depth) { map.get("then") } else { map.get("else") };
            if let Some(branch) = branch
                && !self.check_at(branch, value, depth)
            {
                return false;
            }
        }
        true
    }

    fn string_ok(&mut self, map: &Map<String, Value>, text: &str) -> bool {
        let length = text.chars().count() as u64;
        if map.get("minLength").and_then(Value::as_u64).is_some_and(|m| length < m)
            || map.get("maxLength").and_then(Value::as_u64).is_some_and(|m| length > m)
        {
            return false;
        }
        if let Some(pattern) = map.get("pattern").and_then(Value::as_str) {
            match self.matches(pattern, text) {
                Some(false) => return false,
                Some(true) => {}
                None => self.unverified = true,
            }
        }
        map.get("format").and_then(Value::as_str).is_none_or(|f| format_ok(f, text))
    }

    fn array_ok(&mut self, map: &'a Map<String, Value>, items: &[Value], depth: usize) -> bool {
        let n = items.len() as u64;
        if map.get("minItems").and_then(Value::as_u64).is_some_and(|m| n < m)
            || map.get("maxItems").and_then(Value::as_u64).is_some_and(|m| n > m)
        {
            return false;
        }
        if map.get("uniqueItems").and_then(Value::as_bool) == Some(true)
            && items.iter().enumerate().any(|(i, a)| items.iter().skip(i + 1).any(|b| same(a, b)))
        {
            return false;
        }
        // 3.1's prefixItems, or the older list form of items (with additionalItems).
        let (prefix, rest) = match (map.get("prefixItems"), map.get("items")) {
            (Some(Value::Array(prefix)), rest) => (prefix.as_slice(), rest),
            (None, Some(Value::Array(prefix))) => (prefix.as_slice(), map.get("additionalItems")),
            (_, rest) => (&[][..], rest),
        };
        for (i, item) in items.iter().enumerate() {
            let schema = prefix.get(i).or(rest);
            if let Some(schema) = schema
                && !self.check_at(schema, item, depth)
            {
                return false;
            }
        }
        if let Some(contains) = map.get("contains") {
            let found = items.iter().filter(|item| self.check_at(contains, item, depth)).count() as u64;
            let least = map.get("minContains").and_then(Value::as_u64).unwrap_or(1);
            if found < least || map.get("maxContains").and_then(Value::as_u64).is_some_and(|m| found > m) {
                return false;
            }
        }
        true
    }

    fn object_ok(
        &mut self,
        shape: &Shape<'a>,
        map: &'a Map<String, Value>,
        object: &Map<String, Value>,
        left_out: &[&str],
        depth: usize,
    ) -> bool {
        let n = object.len() as u64;
        if map.get("minProperties").and_then(Value::as_u64).is_some_and(|m| n < m)
            || map.get("maxProperties").and_then(Value::as_u64).is_some_and(|m| n > m)
        {
            return false;
        }
        let required = map.get("required").and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
        if required
            .iter()
            .filter_map(Value::as_str)
            .any(|r| !object.contains_key(r) && !left_out.contains(&r))
        {
            return false;
        }
        let properties = map.get("properties").and_then(Value::as_object);
        let patterns = map.get("patternProperties").and_then(Value::as_object);
        let additional = map.get("additionalProperties");
        let closed = map.get("unevaluatedProperties").and_then(Value::as_bool) == Some(false);
        for (key, item) in object {
            let mut declared = false;
            if let Some(schema) = properties.and_then(|p| p.get(key)) {
                declared = true;
                if !self.check_at(schema, item, depth) {
                    return false;
                }
            }
            for (pattern, schema) in patterns.into_iter().flatten() {
                if self.matches(pattern, key).unwrap_or(false) {
                    declared = true;
                    if !self.check_at(schema, item, depth) {
                        return false;
                    }
                }
            }
            if !declared {
                if let Some(schema) = additional
                    && !self.check_at(schema, item, depth)
                {
                    return false;
                }
                if closed && additional.is_none() && !declared_anywhere(shape, key) {
                    return false;
                }
            }
            if let Some(names) = map.get("propertyNames")
                && !self.check_at(names, &Value::String(key.clone()), depth)
            {
                return false;
            }
        }
        let dependent =
            map.get("dependentRequired").or_else(|| map.get("dependencies")).and_then(Value::as_object);
        for (key, needs) in dependent.into_iter().flatten() {
            if object.contains_key(key)
                && let Some(needs) = needs.as_array()
                && needs.iter().filter_map(Value::as_str).any(|n| !object.contains_key(n))
            {
                return false;
            }
        }
        true
    }

    /// Properties of the shape that values in this direction leave out (so need not carry).
    pub(super) fn left_out(&mut self, shape: &Shape<'a>) -> Vec<&'a str> {
        let mut names = Vec::new();
        for properties in shape.get("properties").filter_map(Value::as_object) {
            for (name, schema) in properties {
                if !names.contains(&name.as_str()) && Shape::of(self.doc, schema).excluded(self.direction) {
                    names.push(name.as_str());
                }
            }
        }
        names
    }
}

/// A pattern compiled in Rust's dialect, and whether a repetition count was cut.
type Compiled = Option<Arc<(regex_lite::Regex, bool)>>;

/// `pattern` compiled, through a cache the generations share (a document's patterns are
/// compiled once, not once per value).
fn compiled(pattern: &str) -> Compiled {
    static CACHE: OnceLock<Mutex<HashMap<String, Compiled>>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    if let Some(found) = cache.lock().ok().and_then(|c| c.get(pattern).cloned()) {
        return found;
    }
    let made = ecma::rewrite(pattern).and_then(|rewritten| {
        let regex = regex_lite::RegexBuilder::new(&rewritten.text).size_limit(1 << 23).build().ok()?;
        Some(Arc::new((regex, rewritten.cut)))
    });
    if let Ok(mut cache) = cache.lock() {
        if cache.len() >= 4_096 {
            cache.clear();
        }
        cache.insert(pattern.to_owned(), made.clone());
    }
    made
}

fn declared_anywhere(shape: &Shape<'_>, key: &str) -> bool {
    shape.get("properties").filter_map(Value::as_object).any(|p| p.contains_key(key))
}

/// `type` as OpenAPI reads it: 3.0's `nullable`, 3.1's lists with `"null"`.
fn type_ok(schema: &Value, value: &Value) -> bool {
    let (names, nullable) = petstore_openapi::schema::types(schema);
    let known = ["string", "number", "integer", "boolean", "object", "array"];
    if names.iter().any(|n| !known.contains(n)) {
        return true; // not a JSON Schema type: nothing to hold the value to
    }
    match value {
        Value::Null => nullable,
        Value::Bool(_) => names.contains(&"boolean"),
        Value::String(_) => names.contains(&"string"),
        Value::Array(_) => names.contains(&"array"),
        Value::Object(_) => names.contains(&"object"),
        Value::Number(n) => {
            names.contains(&"number")
                || (names.contains(&"integer")
                    && (n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.fract() == 0.0)))
        }
    }
}

fn number_ok(part: &Value, map: &Map<String, Value>, value: &Value) -> bool {
    let Some(v) = value.as_f64() else { return true };
    if let Some(b) = petstore_openapi::schema::lower_bound(part)
        && (v < b.value || (b.exclusive && v == b.value))
    {
        return false;
    }
    if let Some(b) = petstore_openapi::schema::upper_bound(part)
        && (v > b.value || (b.exclusive && v == b.value))
    {
        return false;
    }
    if let Some(multiple) = map.get("multipleOf")
        && !is_multiple(value, multiple)
    {
        return false;
    }
    match map.get("format").and_then(Value::as_str) {
        Some("int32") if v.fract() == 0.0 => v >= f64::from(i32::MIN) && v <= f64::from(i32::MAX),
        Some("float") => v.abs() <= f64::from(f32::MAX),
        _ => true,
    }
}

/// Whether `value` is a whole multiple of `multiple`, both read as the decimals they are written as.
pub(super) fn is_multiple(value: &Value, multiple: &Value) -> bool {
    if value.as_f64() == Some(0.0) {
        return true;
    }
    match (decimal(value), decimal(multiple)) {
        (Some((v, vs)), Some((m, ms))) if m > 0 => {
            let scale = vs.max(ms);
            let lift = |x: i128, s: u32| 10_i128.checked_pow(scale - s).and_then(|f| x.checked_mul(f));
            match (lift(v, vs), lift(m, ms)) {
                (Some(v), Some(m)) => v % m == 0,
                _ => false,
            }
        }
        _ => false,
    }
}

/// JSON equality with numbers compared by value (`1` is `1.0`).
pub(super) fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x == y || x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b)),
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

/// The string formats checked: dates and times (RFC 3339), email, URI, UUID, IP addresses,
/// host names and base64; the others pass.
pub(super) fn format_ok(format: &str, text: &str) -> bool {
    match format {
        "date-time" => {
            time::OffsetDateTime::parse(text, &time::format_description::well_known::Rfc3339).is_ok()
        }
        "date" => {
            text.len() == 10
                && time::Date::parse(text, time::macros::format_description!("[year]-[month]-[day]")).is_ok()
        }
        "time" => time_ok(text),
        "duration" => duration_ok(text),
        "email" | "idn-email" => email_ok(text),
        "uuid" => uuid_ok(text),
        "ipv4" => text.parse::<Ipv4Addr>().is_ok(),
        "ipv6" => text.parse::<Ipv6Addr>().is_ok(),
        "uri" | "url" | "iri" => uri_ok(text),
        "uri-reference" | "iri-reference" => {
            !text.chars().any(|c| c.is_whitespace() || "<>\"{}|\\^`".contains(c))
        }
        "hostname" | "idn-hostname" => hostname_ok(text),
        "byte" => {
            use base64::Engine as _;
            base64::engine::general_purpose::STANDARD.decode(text).is_ok()
        }
        _ => true,
    }
}

/// RFC 3339 `full-time`: `hh:mm:ss[.frac](Z|±hh:mm)`.
fn time_ok(text: &str) -> bool {
    let (clock, offset) = match text.find(['Z', 'z', '+', '-']) {
        Some(at) => text.split_at(at),
        None => return false,
    };
    let clock = clock.split('.').next().unwrap_or(clock);
    let two = |s: &str, max: u32| s.len() == 2 && s.parse::<u32>().is_ok_and(|n| n <= max);
    let parts: Vec<&str> = clock.split(':').collect();
    let clock_ok = matches!(parts.as_slice(), [h, m, s] if two(h, 23) && two(m, 59) && two(s, 60));
    let offset_ok = offset.eq_ignore_ascii_case("z")
        || offset.get(1..).is_some_and(
            |o| matches!(o.split(':').collect::<Vec<_>>().as_slice(), [h, m] if two(h, 23) && two(m, 59)),
        );
    clock_ok && offset_ok
}

/// RFC 3339's ISO 8601 duration: `P1Y2M`, `P3D`, `PT4H5M`, `P2W`; each unit once, in order,
/// with no gaps (`P1Y1D` is not one).
fn duration_ok(text: &str) -> bool {
    let Some(rest) = text.strip_prefix('P') else { return false };
    if let Some(weeks) = rest.strip_suffix('W') {
        return !weeks.is_empty() && weeks.bytes().all(|b| b.is_ascii_digit());
    }
    let (date, time) = rest.split_once('T').map_or((rest, None), |(d, t)| (d, Some(t)));
    let units_ok = |text: &str, units: &[char]| -> Option<bool> {
        let mut last: Option<usize> = None;
        let mut digits = 0;
        for c in text.chars() {
            if c.is_ascii_digit() {
                digits += 1;
                continue;
            }
            let at = units.iter().position(|u| *u == c)?;
            let in_order = last.is_none_or(|l| at == l + 1);
            if digits == 0 || !in_order {
                return Some(false);
            }
            (last, digits) = (Some(at), 0);
        }
        Some(digits == 0 && last.is_some())
    };
    let date_ok = date.is_empty() || units_ok(date, &['Y', 'M', 'D']) == Some(true);
    let time_ok = time.is_none_or(|t| units_ok(t, &['H', 'M', 'S']) == Some(true));
    (!date.is_empty() || time.is_some()) && date_ok && time_ok
}

fn email_ok(text: &str) -> bool {
    let Some((local, domain)) = text.rsplit_once('@') else { return false };
    let local_ok = !local.is_empty()
        && local.len() <= 64
        && !local.starts_with('.')
        && !local.ends_with('.')
        && !local.contains("..")
        && local.chars().all(|c| c.is_ascii_alphanumeric() || "!#$%&'*+-/=?^_`{|}~.".contains(c));
    local_ok && hostname_ok(domain)
}

fn uuid_ok(text: &str) -> bool {
    let groups: Vec<&str> = text.split('-').collect();
    groups.iter().map(|g| g.len()).eq([8, 4, 4, 4, 12])
        && groups.iter().all(|g| g.bytes().all(|b| b.is_ascii_hexdigit()))
}

fn uri_ok(text: &str) -> bool {
    let Some((scheme, rest)) = text.split_once(':') else { return false };
    let mut chars = scheme.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
        && !rest.chars().any(|c| c.is_whitespace() || "<>\"{}|\\^`".contains(c))
}

fn hostname_ok(text: &str) -> bool {
    !text.is_empty()
        && text.len() <= 253
        && text.split('.').all(|label| {
            !label.is_empty()
                && label.len() <= 63
                && !label.starts_with('-')
                && !label.ends_with('-')
                && label.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
        })
}
