//! The keywords of each kind of value: `enum` and `const`, numbers, strings, arrays and
//! objects; the ones a scalar is held to alone are also [`check_scalar`], for values that do not
//! come with their document (what is typed into a form).

use playground_openapi::json::Key;
use serde_json::{Map, Number, Value};

use super::{Fail, Found, Step, Validator, Walk, child, describe, format, is_integral, same, usize_of};

/// Checks a scalar `value` against the keywords of `schema` that concern it alone: `enum` and
/// `const`, the integer formats, bounds and `multipleOf` of numbers, and the lengths and
/// `pattern` of strings, the pattern through `matches` (which says `None` when it cannot read
/// one: the pattern is then not enforced). `type`, string formats and references are left to
/// the caller; `name` names the value in messages.
///
/// # Errors
/// What the value breaks first, in the words of [`Validator::check`].
pub fn check_scalar(
    schema: &Value,
    value: &Value,
    name: &str,
    matches: &dyn Fn(&str, &str) -> Option<bool>,
) -> Result<(), String> {
    check_listed(schema, value, name)?;
    match value {
        // Shown as JSON writes it: no second float formatter where this runs.
        Value::Number(n) => {
            Ok(check_number(schema, n, &playground_openapi::schema::types(schema).0, name, &n.to_string())?)
        }
        Value::String(text) => {
            check_length(schema, text, name)?;
            match schema.key("pattern").and_then(Value::as_str) {
                Some(pattern) if matches(pattern, text) == Some(false) => {
                    Err(pattern_error(pattern, text, name).into())
                }
                _ => Ok(()),
            }
        }
        _ => Ok(()),
    }
}

/// `enum` and `const`.
pub(super) fn check_listed(schema: &Value, value: &Value, name: &str) -> Result<(), Fail> {
    if let Some(allowed) = schema.key("enum").and_then(Value::as_array)
        && !allowed.iter().any(|a| same(a, value))
    {
        let list: Vec<String> =
            allowed.iter().map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_owned)).collect();
        return Err(Fail::new(
            "enum",
            format!("{name} must be one of {}; got {}.", list.join(", "), describe(value)),
        ));
    }
    if let Some(only) = schema.key("const")
        && !same(only, value)
    {
        return Err(Fail::new(
            "const",
            format!("{name} must be {}; got {}.", describe(only), describe(value)),
        ));
    }
    Ok(())
}

/// A part's problems as those of its object's `field`.
fn at(field: &str) -> impl Fn(Fail) -> Fail + '_ {
    move |f| f.under(&Step::Field(field.to_owned()))
}

/// `minLength` and `maxLength`, in characters.
fn check_length(schema: &Value, text: &str, name: &str) -> Result<(), Fail> {
    let len = text.chars().count();
    if let Some(min) = usize_of(schema, "minLength").filter(|&m| len < m) {
        let unit = if min == 1 { "character" } else { "characters" };
        return Err(Fail::new(
            "minLength",
            format!("{name} must be at least {min} {unit} long; it has {len}."),
        ));
    }
    if let Some(max) = usize_of(schema, "maxLength").filter(|&m| len > m) {
        return Err(Fail::new(
            "maxLength",
            format!("{name} must be at most {max} characters long; it has {len}."),
        ));
    }
    Ok(())
}

/// The message for `text` that `pattern` does not match.
fn pattern_error(pattern: &str, text: &str, name: &str) -> Fail {
    let message = if pattern == r"\S" {
        format!("{name} must contain a character other than a space.")
    } else {
        format!("{name} must match the pattern {pattern}; got {}.", describe(&Value::from(text)))
    };
    Fail::new("pattern", message)
}

/// 2^63, the first integer past int64.
const TWO_63: f64 = 9_223_372_036_854_775_808.0;

/// `n` for messages: integers as such, other numbers in their shortest form as serde_json
/// writes them, without a whole number's `.0` (`2` for `2.0`, `1e+300`). Not Rust's `f64`
/// formatting, which the modules with the checker would carry for this alone.
pub(super) fn shown(n: &Number) -> String {
    match (n.as_i64(), n.as_u64()) {
        (Some(i), _) => i.to_string(),
        (_, Some(u)) => u.to_string(),
        _ => {
            let text = n.to_string();
            match text.strip_suffix(".0") {
                Some(whole) => whole.to_owned(),
                None => text,
            }
        }
    }
}

/// Number keywords: the OpenAPI integer formats, bounds (both dialects) and `multipleOf`;
/// `shown` is `n` in messages.
pub(super) fn check_number(
    schema: &Value,
    n: &Number,
    types: &[&str],
    name: &str,
    shown: &str,
) -> Result<(), Fail> {
    let format = schema.key("format").and_then(Value::as_str);
    if types.contains(&"integer") && matches!(format, Some("int32" | "int64")) && is_integral(n) {
        match n.as_i64() {
            Some(i) if format == Some("int32") && i32::try_from(i).is_err() => {
                return Err(Fail::new("format", format!("{name} must be a 32-bit integer; got {i}.")));
            }
            Some(_) => {}
            None if n.is_u64() => {
                return Err(Fail::new(
                    "format",
                    format!("{name} must be a 64-bit integer (at most {}); got {n}.", i64::MAX),
                ));
            }
            // `39245.0` is an integer to JSON Schema; in range, a program reads it as one.
            None => {
                let x = n.as_f64().unwrap_or(f64::NAN);
                // -2^31..=2^31-1, and strictly between -2^63 and 2^63: -2^63 itself as a float
                // is text past int64 rounded (`-9223372036854775809`), since the integer text of
                // -2^63 is read as an i64 and never gets here.
                let fits = if format == Some("int32") {
                    (f64::from(i32::MIN)..=f64::from(i32::MAX)).contains(&x)
                } else {
                    x > -TWO_63 && x < TWO_63
                };
                if !fits {
                    let bits = if format == Some("int32") { 32 } else { 64 };
                    return Err(Fail::new(
                        "format",
                        format!("{name} must be a {bits}-bit integer; got {n}."),
                    ));
                }
            }
        }
    }
    let x = n.as_f64().unwrap_or_default();
    if let Some(bound) = playground_openapi::schema::lower_bound(schema)
        && (x < bound.value || (bound.exclusive && x <= bound.value))
    {
        let (rel, keyword) =
            if bound.exclusive { ("greater than", "exclusiveMinimum") } else { ("at least", "minimum") };
        return Err(Fail::new(keyword, format!("{name} must be {rel} {}; got {shown}.", bound.written)));
    }
    if let Some(bound) = playground_openapi::schema::upper_bound(schema)
        && (x > bound.value || (bound.exclusive && x >= bound.value))
    {
        let (rel, keyword) =
            if bound.exclusive { ("less than", "exclusiveMaximum") } else { ("at most", "maximum") };
        return Err(Fail::new(keyword, format!("{name} must be {rel} {}; got {shown}.", bound.written)));
    }
    if let Some(Value::Number(step)) = schema.key("multipleOf")
        && !is_multiple(n, step)
    {
        return Err(Fail::new("multipleOf", format!("{name} must be a multiple of {step}; got {shown}.")));
    }
    Ok(())
}

/// `n` is a whole number of `step`s: exactly for integers, and for fractions within the error
/// that decimal fractions pick up in binary (0.3 is a multiple of 0.1). A step that is not
/// positive constrains nothing.
fn is_multiple(n: &Number, step: &Number) -> bool {
    if let (Some(a), Some(b)) = (n.as_i64(), step.as_i64()) {
        return b <= 0 || a.checked_rem(b).is_none_or(|r| r == 0);
    }
    if let (Some(a), Some(b)) = (n.as_u64(), step.as_u64()) {
        return b == 0 || a % b == 0;
    }
    let (Some(a), Some(b)) = (n.as_f64(), step.as_f64()) else { return true };
    if b <= 0.0 {
        return true;
    }
    let quotient = a / b;
    if !quotient.is_finite() {
        // Too large a quotient for a float: the numbers as the decimals JSON wrote.
        return decimal_multiple(&n.to_string(), &step.to_string()).unwrap_or(true);
    }
    let tolerance = 1e-9_f64.max(quotient.abs() * 8.0 * f64::EPSILON);
    (quotient - quotient.round()).abs() <= tolerance
}

/// A decimal number's digits without trailing zeros and its power of ten (`1.5e3` is
/// `(15, 2)`); `None` past 38 digits.
fn decimal(text: &str) -> Option<(u128, i64)> {
    let text = text.trim_start_matches('-');
    let (mantissa, exponent) = match text.split_once(['e', 'E']) {
        Some((m, e)) => (m, e.trim_start_matches('+').parse::<i64>().ok()?),
        None => (text, 0),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = format!("{whole}{fraction}");
    let trimmed = digits.trim_start_matches('0');
    let kept = trimmed.trim_end_matches('0');
    let shift = i64::try_from(trimmed.len() - kept.len()).ok()?;
    let places = i64::try_from(fraction.len()).ok()?;
    let value = if kept.is_empty() { 0 } else { kept.parse::<u128>().ok()? };
    Some((value, exponent.checked_sub(places)?.checked_add(shift)?))
}

/// Whether the decimal `n` is a whole number of decimal `step`s: `n / step = (a / b) * 10^e`
/// is whole when `b / gcd(a, b)` divides `10^e`.
fn decimal_multiple(n: &str, step: &str) -> Option<bool> {
    let ((a, p), (b, q)) = (decimal(n)?, decimal(step)?);
    if b == 0 {
        return None;
    }
    if a == 0 {
        return Some(true);
    }
    let e = p.checked_sub(q)?;
    if e < 0 {
        return None;
    }
    let (mut x, mut y) = (a, b);
    while y != 0 {
        (x, y) = (y, x % y);
    }
    let mut rest = b / x;
    let (mut twos, mut fives) = (0, 0);
    while rest % 2 == 0 {
        rest /= 2;
        twos += 1;
    }
    while rest % 5 == 0 {
        rest /= 5;
        fives += 1;
    }
    Some(rest == 1 && twos <= e && fives <= e)
}

impl Validator<'_> {
    pub(super) fn check_string(
        &self,
        schema: &Value,
        text: &str,
        name: &str,
        walk: &mut Walk,
    ) -> Result<(), Fail> {
        check_length(schema, text, name)?;
        // A pattern that cannot be read (it does not compile, or an approximation of it
        // misses) is not enforced.
        if let Some(pattern) = schema.key("pattern").and_then(Value::as_str) {
            match self.patterns.matches(pattern, text) {
                Some(true) => {}
                Some(false) => return Err(pattern_error(pattern, text, name)),
                None => walk.lax = true,
            }
        }
        if let Some(f) = schema.key("format").and_then(Value::as_str) {
            walk.lax |= !format::check(f, text, name, self.formats)
                .map_err(|message| Fail::new("format", message))?;
        }
        Ok(())
    }

    pub(super) fn check_array(
        &self,
        schema: &Value,
        items: &[Value],
        name: &str,
        path: &str,
        walk: &mut Walk,
    ) -> Result<(), Fail> {
        if let Some(min) = usize_of(schema, "minItems").filter(|&m| items.len() < m) {
            return Err(Fail::new(
                "minItems",
                format!("{name} must have at least {min} items; it has {}.", items.len()),
            ));
        }
        if let Some(max) = usize_of(schema, "maxItems").filter(|&m| items.len() > m) {
            return Err(Fail::new(
                "maxItems",
                format!("{name} must have at most {max} items; it has {}.", items.len()),
            ));
        }
        if schema.key("uniqueItems").and_then(Value::as_bool) == Some(true) {
            for (i, item) in items.iter().enumerate() {
                if items[..i].iter().any(|earlier| same(earlier, item)) {
                    return Err(Fail::new(
                        "uniqueItems",
                        format!("{name} must not repeat {}.", describe(item)),
                    ));
                }
            }
        }
        let base = if path.is_empty() { "body" } else { path };
        if let Some(wanted) = schema.key("contains") {
            self.check_contains(schema, wanted, items, name, base, walk)?;
        }
        // 2020-12 `prefixItems` + `items`, or the older tuple `items: [...]` + `additionalItems`.
        let (prefix, rest): (&[Value], Option<&Value>) =
            match (schema.key("prefixItems"), schema.key("items")) {
                (Some(Value::Array(prefix)), rest) => (prefix, rest),
                (_, Some(Value::Array(prefix))) => (prefix, schema.key("additionalItems")),
                (_, rest) => (&[], rest),
            };
        if rest == Some(&Value::Bool(false)) && items.len() > prefix.len() {
            return Err(Fail::new(
                "maxItems",
                format!("{name} must have at most {} items; it has {}.", prefix.len(), items.len()),
            ));
        }
        let mut found = Found::default();
        for (i, item) in items.iter().enumerate() {
            if let Some(s) = prefix.get(i).or(rest) {
                let checked = self.check_at(s, item, &format!("{base}[{i}]"), s, walk);
                found.keep(checked.map_err(|f| f.under(&Step::Item(i))), walk.go_on, walk.limit)?;
            }
        }
        if let Some(marks) = walk.marks.as_mut() {
            marks.items_up_to(prefix.len().min(items.len()));
            if rest.is_some() {
                marks.all_items();
            }
        }
        if let Some(rule) = schema.key("unevaluatedItems") {
            for (i, item) in items.iter().enumerate() {
                if walk.marks.as_ref().is_some_and(|m| m.has_item(i)) {
                    continue;
                }
                let checked = match rule {
                    Value::Bool(false) => {
                        Err(Fail::new("unevaluatedItems", format!("{base}[{i}] is not allowed here.")))
                    }
                    s => self.check_at(s, item, &format!("{base}[{i}]"), s, walk),
                };
                found.keep(checked.map_err(|f| f.under(&Step::Item(i))), walk.go_on, walk.limit)?;
            }
            if let Some(marks) = walk.marks.as_mut() {
                marks.all_items();
            }
        }
        found.done()
    }

    /// `contains` with `minContains` and `maxContains`; the items it matches are evaluated.
    fn check_contains(
        &self,
        schema: &Value,
        wanted: &Value,
        items: &[Value],
        name: &str,
        base: &str,
        walk: &mut Walk,
    ) -> Result<(), Fail> {
        let min = usize_of(schema, "minContains").unwrap_or(1);
        let max = usize_of(schema, "maxContains");
        if min == 0 && max.is_none() && walk.marks.is_none() {
            return Ok(());
        }
        // Items that pass only thanks to an unenforced keyword count towards the minimum, not
        // the maximum.
        let (mut count, mut sure) = (0, 0);
        for (i, item) in items.iter().enumerate() {
            if let (Ok(()), lax) = self.branch(wanted, item, &format!("{base}[{i}]"), wanted, walk) {
                count += 1;
                sure += usize::from(!lax);
                if let Some(marks) = walk.marks.as_mut() {
                    marks.item(i);
                }
            }
        }
        walk.lax |= count != sure;
        if count < min {
            let unit = if min == 1 { "item" } else { "items" };
            return Err(Fail::new(
                "contains",
                format!("{name} must contain at least {min} {unit} of the required shape; it has {count}."),
            ));
        }
        if let Some(max) = max.filter(|&m| sure > m) {
            return Err(Fail::new(
                "contains",
                format!("{name} must contain at most {max} items of the required shape; it has {sure}."),
            ));
        }
        Ok(())
    }

    pub(super) fn check_object(
        &self,
        schema: &Value,
        value: &Value,
        name: &str,
        path: &str,
        root: &Value,
        walk: &mut Walk,
    ) -> Result<(), Fail> {
        let Value::Object(map) = value else { return Ok(()) };
        let mut found = Kept { found: Found::default(), go_on: walk.go_on, limit: walk.limit };
        self.check_present(schema, map, path, root, &mut found)?;
        if let Some(names) = schema.key("propertyNames") {
            for key in map.keys() {
                let label = format!("field name {}", child(path, key));
                let checked = self.check_at(names, &Value::String(key.clone()), &label, names, walk);
                found.keep(checked.map_err(at(key)))?;
            }
        }
        self.check_fields(schema, map, path, walk, &mut found)?;
        for (trigger, s) in schema.key("dependentSchemas").and_then(Value::as_object).into_iter().flatten() {
            if map.key(trigger).is_some() {
                found.keep(self.check_at(s, value, path, root, walk))?;
            }
        }
        self.check_unevaluated(schema, map, path, walk, &mut found)?;
        if let Some(min) = usize_of(schema, "minProperties").filter(|&m| map.len() < m) {
            let few = Fail::new("minProperties", format!("{name} must have at least {min} fields."));
            found.keep(Err(few))?;
        }
        if let Some(max) = usize_of(schema, "maxProperties").filter(|&m| map.len() > m) {
            let many = Fail::new("maxProperties", format!("{name} must have at most {max} fields."));
            found.keep(Err(many))?;
        }
        found.found.done()
    }

    /// `required` and `dependentRequired`: the fields that must be there.
    fn check_present(
        &self,
        schema: &Value,
        map: &Map<String, Value>,
        path: &str,
        root: &Value,
        found: &mut Kept,
    ) -> Result<(), Fail> {
        for field in
            schema.key("required").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str)
        {
            if map.key(field).is_none() && !self.exempt(schema, root, field) {
                let missing = Fail::new("required", format!("{} is required.", child(path, field)));
                found.keep(Err(at(field)(missing)))?;
            }
        }
        for (trigger, needs) in
            schema.key("dependentRequired").and_then(Value::as_object).into_iter().flatten()
        {
            if map.key(trigger).is_none() {
                continue;
            }
            for need in needs.as_array().into_iter().flatten().filter_map(Value::as_str) {
                if map.key(need).is_none() {
                    let missing = Fail::new(
                        "dependentRequired",
                        format!("{} is required when {} is given.", child(path, need), child(path, trigger)),
                    );
                    found.keep(Err(at(need)(missing)))?;
                }
            }
        }
        Ok(())
    }

    /// Each field against the schemas that take it: its `properties` entry and the
    /// `patternProperties` it matches, else `additionalProperties`.
    fn check_fields(
        &self,
        schema: &Value,
        map: &Map<String, Value>,
        path: &str,
        walk: &mut Walk,
        found: &mut Kept,
    ) -> Result<(), Fail> {
        let properties = schema.key("properties").and_then(Value::as_object);
        let patterned = schema.key("patternProperties").and_then(Value::as_object);
        let additional = schema.key("additionalProperties");
        for (field, v) in map {
            let mut covered = false;
            if let Some(s) = properties.and_then(|p| p.key(field)) {
                covered = true;
                let checked = self.check_at(s, v, &child(path, field), s, walk);
                found.keep(checked.map_err(at(field)))?;
            }
            for (pattern, s) in patterned.into_iter().flatten() {
                match self.patterns.matches(pattern, field) {
                    Some(true) => {
                        covered = true;
                        let checked = self.check_at(s, v, &child(path, field), s, walk);
                        found.keep(checked.map_err(at(field)))?;
                    }
                    Some(false) => {}
                    // A pattern that cannot be read may match: the field is neither checked
                    // against its schema nor called unknown.
                    None => {
                        covered = true;
                        walk.lax = true;
                    }
                }
            }
            if covered {
                if let Some(marks) = walk.marks.as_mut() {
                    marks.field(field);
                }
                continue;
            }
            if let (Some(marks), Some(_)) = (walk.marks.as_mut(), additional) {
                marks.field(field);
            }
            match additional {
                Some(Value::Bool(false)) => {
                    let known: Vec<&str> =
                        properties.into_iter().flatten().map(|(k, _)| k.as_str()).collect();
                    let place = if path.is_empty() { "the body" } else { path };
                    let unknown = Fail::new(
                        "additionalProperties",
                        format!(
                            "{} is not a field of {place}; the fields are {}.",
                            child(path, field),
                            known.join(", ")
                        ),
                    );
                    found.keep(Err(at(field)(unknown)))?;
                }
                Some(s @ (Value::Object(_) | Value::Bool(_))) => {
                    let checked = self.check_at(s, v, &child(path, field), s, walk);
                    found.keep(checked.map_err(at(field)))?;
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// `unevaluatedProperties`: the fields no keyword of the schema (nor of a schema it applies
    /// in place and that passes) evaluated are held to it; then every field is evaluated.
    fn check_unevaluated(
        &self,
        schema: &Value,
        map: &Map<String, Value>,
        path: &str,
        walk: &mut Walk,
        found: &mut Kept,
    ) -> Result<(), Fail> {
        let Some(rule) = schema.key("unevaluatedProperties") else {
            return Ok(());
        };
        for (field, v) in map {
            if walk.marks.as_ref().is_some_and(|m| m.has_field(field)) {
                continue;
            }
            let checked = match rule {
                Value::Bool(false) => {
                    let place = if path.is_empty() { "the body" } else { path };
                    Err(Fail::new(
                        "unevaluatedProperties",
                        format!("{} is not a field of {place}.", child(path, field)),
                    ))
                }
                s => self.check_at(s, v, &child(path, field), s, walk),
            };
            found.keep(checked.map_err(at(field)))?;
        }
        if let Some(marks) = walk.marks.as_mut() {
            marks.all_fields();
        }
        Ok(())
    }
}

/// The problems an object's keywords find, kept as [`Found`] keeps them, with whether to go on
/// and how many to keep as they were when the object's check began.
struct Kept {
    found: Found,
    go_on: bool,
    limit: usize,
}

impl Kept {
    /// Keeps `result`'s problems; `Err` when the object's check stops here.
    fn keep(&mut self, result: Result<(), Fail>) -> Result<(), Fail> {
        self.found.keep(result, self.go_on, self.limit)
    }
}
