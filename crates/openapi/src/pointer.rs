//! JSON pointers and local references (`#/components/schemas/Pet`): following them, and the
//! escapes of a pointer's segments.

/// The member beside a reference that could not be followed (`crate::bundle` writes it), saying
/// why; [`resolve`] gives it as its error.
pub const UNRESOLVED: &str = "x-unresolved-reference";

/// A JSON pointer written as a URI fragment (`#` not included): the characters a fragment may
/// not hold percent-encoded.
#[must_use]
pub fn encode_fragment(pointer: &str) -> String {
    percent_encode(pointer, |b| b" \"#%<>[]^`{|}\\".contains(&b))
}

/// `text` with its controls, its bytes past ASCII and the ASCII bytes `also` names written as
/// `%XX`, as `percent_encoding::utf8_percent_encode` writes them with `CONTROLS.add(..)`; the
/// crate's encoder carries a 768-byte table of every `%XX`, which the reference's first download
/// (it has a size budget) does without.
#[must_use]
pub fn percent_encode(text: &str, also: impl Fn(u8) -> bool) -> String {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut out = String::with_capacity(text.len());
    for &b in text.as_bytes() {
        if b.is_ascii_control() || !b.is_ascii() || also(b) {
            out.extend(['%', char::from(HEX[usize::from(b >> 4)]), char::from(HEX[usize::from(b & 15)])]);
        } else {
            out.push(char::from(b));
        }
    }
    out
}

/// What a local reference (`#/components/schemas/Pet`, `#/paths/~1jobs~1%7Bid%7D/get`) points
/// to in `doc`: the fragment is percent-decoded (a URI fragment), then read as a JSON pointer.
/// `None` for a reference to another document or one that points nowhere.
#[must_use]
pub fn pointer_target<'a>(doc: &'a serde_json::Value, reference: &str) -> Option<&'a serde_json::Value> {
    let fragment = reference.strip_prefix('#')?;
    if !fragment.contains('%') {
        return walk(doc, fragment);
    }
    let decoded = percent_encoding::percent_decode_str(fragment).decode_utf8().ok()?;
    walk(doc, &decoded)
}

/// `serde_json::Value::pointer`, with a segment unescaped (a new string) only when it holds a
/// `~`: following the references of a large description's trees, unescaping every segment
/// was a tenth of a site's build.
fn walk<'a>(doc: &'a serde_json::Value, pointer: &str) -> Option<&'a serde_json::Value> {
    if pointer.is_empty() {
        return Some(doc);
    }
    let mut target = doc;
    for segment in pointer.strip_prefix('/')?.split('/') {
        let unescaped;
        let segment = if segment.contains('~') {
            unescaped = unescape_segment(segment);
            unescaped.as_str()
        } else {
            segment
        };
        target = match target {
            serde_json::Value::Object(map) => map.get(segment)?,
            serde_json::Value::Array(list) => list.get(array_index(segment)?)?,
            _ => return None,
        };
    }
    Some(target)
}

/// An array index as a JSON pointer writes it: digits, no sign, no leading zero.
fn array_index(segment: &str) -> Option<usize> {
    if segment.is_empty()
        || !segment.bytes().all(|b| b.is_ascii_digit())
        || (segment.len() > 1 && segment.starts_with('0'))
    {
        return None;
    }
    segment.parse().ok()
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

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_pointer_reads_as_serde_json_reads_it() {
        let doc = json!({
            "a/b": {"c~d": [10, {"": "empty key"}, 30]},
            "paths": {"/jobs/{id}": {"get": {"x": 1}}},
            "list": [[0, 1], [2]],
            "": {"": "both empty"}
        });
        for pointer in [
            "",
            "/",
            "//",
            "/a~1b",
            "/a~1b/c~0d",
            "/a~1b/c~0d/0",
            "/a~1b/c~0d/1/",
            "/a~1b/c~0d/2",
            "/a~1b/c~0d/3",
            "/a~1b/c~0d/01",
            "/a~1b/c~0d/+1",
            "/a~1b/c~0d/-1",
            "/a~1b/c~0d/1e0",
            "/paths/~1jobs~1{id}/get/x",
            "/paths/~1jobs~1{id}/get/x/y",
            "/list/1/0",
            "/list/0/1",
            "a",
            "/missing",
            "/a~1b/c~0d/99999999999999999999999",
            "/a~01b",
            "/~",
        ] {
            assert_eq!(walk(&doc, pointer), doc.pointer(pointer), "{pointer:?}");
        }
        assert_eq!(pointer_target(&doc, "#/paths/~1jobs~1%7Bid%7D/get/x"), Some(&json!(1)));
        assert_eq!(pointer_target(&doc, "other.json#/a"), None);
    }

    #[test]
    fn percent_encode_writes_what_percent_encoding_writes() {
        use percent_encoding::{AsciiSet, CONTROLS, utf8_percent_encode};
        const HREF: &AsciiSet =
            &CONTROLS.add(b' ').add(b'"').add(b'#').add(b'%').add(b'<').add(b'>').add(b'`');
        const POINTER: &AsciiSet =
            &HREF.add(b'[').add(b']').add(b'^').add(b'{').add(b'|').add(b'}').add(b'\\');
        let every_ascii: String = (0..=127_u8).map(char::from).collect();
        for text in [every_ascii.as_str(), "caf\u{e9} \u{1F600}/a b#c%d", ""] {
            let href = utf8_percent_encode(text, HREF).to_string();
            assert_eq!(percent_encode(text, |b| b" \"#%<>`".contains(&b)), href, "{text:?}");
            assert_eq!(crate::outline::href(text), format!("#{href}"), "{text:?}");
            assert_eq!(encode_fragment(text), utf8_percent_encode(text, POINTER).to_string(), "{text:?}");
        }
    }
}
