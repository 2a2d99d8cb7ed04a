//! JSON pointers and local references (`#/components/schemas/Pet`): following them, and the
//! escapes of a pointer's segments.

/// The member beside a reference that could not be followed (`crate::bundle` writes it), saying
/// why; [`resolve`] gives it as its error.
pub const UNRESOLVED: &str = "x-unresolved-reference";

/// A JSON pointer written as a URI fragment (`#` not included): the characters a fragment may
/// not hold percent-encoded.
#[must_use]
pub fn encode_fragment(pointer: &str) -> String {
    const FRAGMENT: &percent_encoding::AsciiSet = &percent_encoding::CONTROLS
        .add(b' ')
        .add(b'"')
        .add(b'#')
        .add(b'%')
        .add(b'<')
        .add(b'>')
        .add(b'[')
        .add(b']')
        .add(b'^')
        .add(b'`')
        .add(b'{')
        .add(b'|')
        .add(b'}')
        .add(b'\\');
    percent_encoding::utf8_percent_encode(pointer, FRAGMENT).to_string()
}

/// What a local reference (`#/components/schemas/Pet`, `#/paths/~1jobs~1%7Bid%7D/get`) points
/// to in `doc`: the fragment is percent-decoded (a URI fragment), then read as a JSON pointer.
/// `None` for a reference to another document or one that points nowhere.
#[must_use]
pub fn pointer_target<'a>(doc: &'a serde_json::Value, reference: &str) -> Option<&'a serde_json::Value> {
    let fragment = reference.strip_prefix('#')?;
    if !fragment.contains('%') {
        return doc.pointer(fragment);
    }
    let decoded = percent_encoding::percent_decode_str(fragment).decode_utf8().ok()?;
    doc.pointer(&decoded)
}

/// Follows local `$ref`s (`#/...` JSON pointers, percent-encoded or not) from `value` to what
/// they point at.
///
/// # Errors
/// The reference that does not resolve, or a chain longer than 32, in words.
pub fn resolve<'a>(
    doc: &'a serde_json::Value,
    mut value: &'a serde_json::Value,
) -> Result<&'a serde_json::Value, String> {
    for _ in 0..32 {
        match value.get("$ref").and_then(serde_json::Value::as_str) {
            None => return Ok(value),
            // A reference the bundle could not follow says why.
            Some(_) if value.get(UNRESOLVED).is_some() => {
                let why = value.get(UNRESOLVED).and_then(serde_json::Value::as_str);
                return Err(format!("the reference {}", why.unwrap_or("could not be followed")));
            }
            Some(r) if !r.starts_with('#') => {
                return Err(format!(
                    "the reference {r} is to another document, which this reference does not read"
                ));
            }
            Some(r) => {
                value =
                    pointer_target(doc, r).ok_or_else(|| format!("the reference {r} does not resolve"))?;
            }
        }
    }
    Err("a chain of more than 32 references".into())
}

/// A JSON pointer segment: `~` and `/` escaped (`~0`, `~1`).
#[must_use]
pub fn escape_segment(segment: &str) -> String {
    segment.replace('~', "~0").replace('/', "~1")
}

/// A JSON pointer segment with its escapes undone (`~1` is `/`, `~0` is `~`).
#[must_use]
pub fn unescape_segment(segment: &str) -> String {
    segment.replace("~1", "/").replace("~0", "~")
}
