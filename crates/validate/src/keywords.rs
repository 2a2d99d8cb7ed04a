//! The keywords of each kind of value: numbers, strings, arrays and objects.

use serde_json::{Number, Value};

use super::{Validator, Walk, child, describe, format, is_integral, same, usize_of};

/// 2^63, the first integer past int64.
const TWO_63: f64 = 9_223_372_036_854_775_808.0;

/// Number keywords: the OpenAPI integer formats, bounds (both dialects) and `multipleOf`.
pub(super) fn check_number(schema: &Value, n: &Number, types: &[&str], name: &str) -> Result<(), String> {
    let format = schema.get("format").and_then(Value::as_str);
    if types.contains(&"integer") && matches!(format, Some("int32" | "int64")) && is_integral(n) {
        match n.as_i64() {
            Some(i) if format == Some("int32") && i32::try_from(i).is_err() => {
                return Err(format!("{name} must be a 32-bit integer; got {i}."));
            }
            Some(_) => {}
            None if n.is_u64() => {
                return Err(format!("{name} must be a 64-bit integer (at most {}); got {n}.", i64::MAX));
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
                    return Err(format!("{name} must be a {bits}-bit integer; got {n}."));
                }
            }
        }
    }
    let shown = match (n.as_i64(), n.as_u64()) {
        (Some(i), _) => i.to_string(),
        (_, Some(u)) => u.to_string(),
        _ => n.as_f64().unwrap_or_default().to_string(),
    };
    let x = n.as_f64().unwrap_or_default();
    if let Some(bound) = petstore_openapi::schema::lower_bound(schema)
        && (x < bound.value || (bound.exclusive && x <= bound.value))
    {
        let rel = if bound.exclusive { "greater than" } else { "at least" };
        return Err(format!("{name} must be {rel} {}; got {shown}.", bound.written));
    }
    if let Some(bound) = petstore_openapi::schema::upper_bound(schema)
        && (x > bound.value || (bound.exclusive && x >= bound.value))
    {
        let rel = if bound.exclusive { "less than" } else { "at most" };
        return Err(format!("{name} must be {rel} {}; got {shown}.", bound.written));
    }
    if let Some(Value::Number(step)) = schema.get("multipleOf")
        && !is_multiple(n, step)
    {
        return Err(format!("{name} must be a multiple of {step}; got {shown}."));
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
        return true;
    }
    let tolerance = 1e-9_f64.max(quotient.abs() * 8.0 * f64::EPSILON);
    (quotient - quotient.round()).abs() <= tolerance
}

impl Validator<'_> {
    pub(super) fn check_string(
        &self,
        schema: &Value,
        text: &str,
        name: &str,
        walk: &mut Walk,
    ) -> Result<(), String> {
        let len = text.chars().count();
        if let Some(min) = usize_of(schema, "minLength").filter(|&m| len < m) {
            let unit = if min == 1 { "character" } else { "characters" };
            return Err(format!("{name} must be at least {min} {unit} long; it has {len}."));
        }
        if let Some(max) = usize_of(schema, "maxLength").filter(|&m| len > m) {
            return Err(format!("{name} must be at most {max} characters long; it has {len}."));
        }
        // A pattern regex-lite could not compile is missing from the map and not enforced.
        let pattern = schema.get("pattern").and_then(Value::as_str);
        let compiled = pattern.and_then(|p| self.patterns.get(p));
        walk.lax |= pattern.is_some() && compiled.is_none();
        if let (Some(pattern), Some(re)) = (pattern, compiled)
            && !re.is_match(text)
        {
            return Err(if pattern == r"\S" {
                format!("{name} must contain a character other than a space.")
            } else {
                format!("{name} must match the pattern {pattern}; got {}.", describe(&Value::from(text)))
            });
        }
        match schema.get("format").and_then(Value::as_str) {
            Some(f) if self.formats => {
                walk.lax |= format::is_loose(f);
                format::check(f, text, name)
            }
            _ => Ok(()),
        }
    }

    pub(super) fn check_array(
        &self,
        schema: &Value,
        items: &[Value],
        name: &str,
        path: &str,
        walk: &mut Walk,
    ) -> Result<(), String> {
        if let Some(min) = usize_of(schema, "minItems").filter(|&m| items.len() < m) {
            return Err(format!("{name} must have at least {min} items; it has {}.", items.len()));
        }
        if let Some(max) = usize_of(schema, "maxItems").filter(|&m| items.len() > m) {
            return Err(format!("{name} must have at most {max} items; it has {}.", items.len()));
        }
        if schema.get("uniqueItems").and_then(Value::as_bool) == Some(true) {
            for (i, item) in items.iter().enumerate() {
                if items[..i].iter().any(|earlier| same(earlier, item, 0)) {
                    return Err(format!("{name} must not repeat {}.", describe(item)));
                }
            }
        }
        let base = if path.is_empty() { "body" } else { path };
        if let Some(wanted) = schema.get("contains") {
            let min = usize_of(schema, "minContains").unwrap_or(1);
            let max = usize_of(schema, "maxContains");
            if min > 0 || max.is_some() {
                // Items that pass only thanks to an unenforced keyword count towards the
                // minimum, not the maximum.
                let (mut count, mut sure) = (0, 0);
                for (i, item) in items.iter().enumerate() {
                    if let (Ok(()), lax) = self.branch(wanted, item, &format!("{base}[{i}]"), wanted, walk) {
                        count += 1;
                        sure += usize::from(!lax);
                    }
                }
                walk.lax |= count != sure;
                if count < min {
                    let unit = if min == 1 { "item" } else { "items" };
                    return Err(format!(
                        "{name} must contain at least {min} {unit} of the required shape; it has {count}."
                    ));
                }
                if let Some(max) = max.filter(|&m| sure > m) {
                    return Err(format!(
                        "{name} must contain at most {max} items of the required shape; it has {sure}."
                    ));
                }
            }
        }
        // 2020-12 `prefixItems` + `items`, or the older tuple `items: [...]` + `additionalItems`.
        let (prefix, rest): (&[Value], Option<&Value>) =
            match (schema.get("prefixItems"), schema.get("items")) {
                (Some(Value::Array(prefix)), rest) => (prefix, rest),
                (_, Some(Value::Array(prefix))) => (prefix, schema.get("additionalItems")),
                (_, rest) => (&[], rest),
            };
        if rest == Some(&Value::Bool(false)) && items.len() > prefix.len() {
            return Err(format!("{name} must have at most {} items; it has {}.", prefix.len(), items.len()));
        }
        for (i, item) in items.iter().enumerate() {
            if let Some(s) = prefix.get(i).or(rest) {
                self.check_at(s, item, &format!("{base}[{i}]"), s, walk)?;
            }
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
    ) -> Result<(), String> {
        let Value::Object(map) = value else { return Ok(()) };
        for field in
            schema.get("required").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str)
        {
            if !map.contains_key(field) && !self.exempt(schema, root, field) {
                return Err(format!("{} is required.", child(path, field)));
            }
        }
        for (trigger, needs) in
            schema.get("dependentRequired").and_then(Value::as_object).into_iter().flatten()
        {
            if !map.contains_key(trigger) {
                continue;
            }
            for need in needs.as_array().into_iter().flatten().filter_map(Value::as_str) {
                if !map.contains_key(need) {
                    return Err(format!(
                        "{} is required when {} is given.",
                        child(path, need),
                        child(path, trigger)
                    ));
                }
            }
        }
        if let Some(names) = schema.get("propertyNames") {
            for key in map.keys() {
                let label = format!("field name {}", child(path, key));
                self.check_at(names, &Value::String(key.clone()), &label, names, walk)?;
            }
        }
        let properties = schema.get("properties").and_then(Value::as_object);
        let patterned = schema.get("patternProperties").and_then(Value::as_object);
        let additional = schema.get("additionalProperties");
        for (field, v) in map {
            let mut covered = false;
            if let Some(s) = properties.and_then(|p| p.get(field)) {
                covered = true;
                self.check_at(s, v, &child(path, field), s, walk)?;
            }
            for (pattern, s) in patterned.into_iter().flatten() {
                match self.patterns.get(pattern) {
                    Some(re) if re.is_match(field) => {
                        covered = true;
                        self.check_at(s, v, &child(path, field), s, walk)?;
                    }
                    Some(_) => {}
                    // A pattern that did not compile may match: the field is neither checked
                    // against its schema nor called unknown.
                    None => {
                        covered = true;
                        walk.lax = true;
                    }
                }
            }
            if covered {
                continue;
            }
            match additional {
                Some(Value::Bool(false)) => {
                    let known: Vec<&str> =
                        properties.into_iter().flatten().map(|(k, _)| k.as_str()).collect();
                    let place = if path.is_empty() { "the body" } else { path };
                    return Err(format!(
                        "{} is not a field of {place}; the fields are {}.",
                        child(path, field),
                        known.join(", ")
                    ));
                }
                Some(s @ (Value::Object(_) | Value::Bool(_))) => {
                    self.check_at(s, v, &child(path, field), s, walk)?;
                }
                _ => {}
            }
        }
        for (trigger, s) in schema.get("dependentSchemas").and_then(Value::as_object).into_iter().flatten() {
            if map.contains_key(trigger) {
                self.check_at(s, value, path, root, walk)?;
            }
        }
        if let Some(min) = usize_of(schema, "minProperties").filter(|&m| map.len() < m) {
            return Err(format!("{name} must have at least {min} fields."));
        }
        if let Some(max) = usize_of(schema, "maxProperties").filter(|&m| map.len() > m) {
            return Err(format!("{name} must have at most {max} fields."));
        }
        Ok(())
    }
}
