//! URI references resolved against a base, as RFC 3986 (section 5.2) says, for `$id`, `$ref`
//! and `$dynamicRef`. A base may itself be relative: a document read without an address has
//! the base "" (and `$id: "a.json"` at its root makes "a.json"), so the same rules name every
//! schema whether or not its document came with an address. Nothing is normalised beyond dot
//! segments (no case folding, no percent-decoding but a fragment's).

/// A URI reference's five parts (RFC 3986 appendix B); `None` for a part that is absent, as
/// opposed to empty.
#[derive(Debug, Clone, Copy)]
struct Parts<'t> {
    scheme: Option<&'t str>,
    authority: Option<&'t str>,
    path: &'t str,
    query: Option<&'t str>,
    fragment: Option<&'t str>,
}

fn parse(text: &str) -> Parts<'_> {
    let (rest, fragment) = match text.split_once('#') {
        Some((rest, fragment)) => (rest, Some(fragment)),
        None => (text, None),
    };
    let (rest, query) = match rest.split_once('?') {
        Some((rest, query)) => (rest, Some(query)),
        None => (rest, None),
    };
    let (scheme, rest) = match rest.find([':', '/']) {
        Some(colon) if rest.as_bytes().get(colon) == Some(&b':') && colon > 0 => {
            (rest.get(..colon), rest.get(colon + 1..).unwrap_or(""))
        }
        _ => (None, rest),
    };
    let (authority, path) = match rest.strip_prefix("//") {
        Some(after) => {
            let end = after.find('/').unwrap_or(after.len());
            (after.get(..end), after.get(end..).unwrap_or(""))
        }
        None => (None, rest),
    };
    Parts { scheme, authority, path, query, fragment }
}

/// RFC 3986's `remove_dot_segments`.
fn remove_dots(path: &str) -> String {
    let mut out: Vec<&str> = Vec::new();
    let absolute = path.starts_with('/');
    let segments: Vec<&str> = path.split('/').collect();
    let last = segments.len().saturating_sub(1);
    for (i, segment) in segments.iter().enumerate() {
        match *segment {
            "." => {
                if i == last {
                    out.push("");
                }
            }
            ".." => {
                if out.len() > usize::from(absolute) {
                    out.pop();
                }
                if i == last {
                    out.push("");
                }
            }
            other => out.push(other),
        }
    }
    let joined = out.join("/");
    if absolute && !joined.starts_with('/') { format!("/{joined}") } else { joined }
}

/// `reference` resolved against `base` (whose fragment is dropped).
pub(crate) fn resolve(base: &str, reference: &str) -> String {
    // A fragment alone (`#/components/schemas/Pet`, most references): the base without its
    // fragment, then this one, as the general case below would put them together.
    if reference.starts_with('#') {
        let base = base.split_once('#').map_or(base, |(resource, _)| resource);
        return [base, reference].concat();
    }
    let r = parse(reference);
    let b = parse(base);
    let (scheme, authority, path, query) = if r.scheme.is_some() {
        (r.scheme, r.authority, remove_dots(r.path), r.query)
    } else if r.authority.is_some() {
        (b.scheme, r.authority, remove_dots(r.path), r.query)
    } else if r.path.is_empty() {
        (b.scheme, b.authority, b.path.to_owned(), r.query.or(b.query))
    } else if r.path.starts_with('/') {
        (b.scheme, b.authority, remove_dots(r.path), r.query)
    } else {
        let merged = match b.path.rfind('/') {
            _ if b.authority.is_some() && b.path.is_empty() => format!("/{}", r.path),
            Some(slash) => format!("{}{}", b.path.get(..=slash).unwrap_or(""), r.path),
            None => r.path.to_owned(),
        };
        (b.scheme, b.authority, remove_dots(&merged), r.query)
    };
    let mut out = String::with_capacity(base.len() + reference.len());
    if let Some(scheme) = scheme {
        out.push_str(scheme);
        out.push(':');
    }
    if let Some(authority) = authority {
        out.push_str("//");
        out.push_str(authority);
    }
    out.push_str(&path);
    if let Some(query) = query {
        out.push('?');
        out.push_str(query);
    }
    if let Some(fragment) = r.fragment {
        out.push('#');
        out.push_str(fragment);
    }
    out
}

/// A URI without its fragment, and the fragment percent-decoded (`None` when it does not
/// decode to UTF-8); an absent fragment is empty.
pub(crate) fn split(uri: &str) -> (&str, Option<String>) {
    match uri.split_once('#') {
        Some((resource, fragment)) => (resource, decode(fragment)),
        None => (uri, Some(String::new())),
    }
}

/// `%XX` escapes decoded.
fn decode(text: &str) -> Option<String> {
    if !text.contains('%') {
        return Some(text.to_owned());
    }
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        if b == b'%' {
            let hex = bytes.get(i + 1..i + 3).and_then(|h| std::str::from_utf8(h).ok())?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(b);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::{resolve, split};

    #[test]
    fn references_resolve_as_rfc_3986_says() {
        let base = "http://a/b/c/d;p?q";
        for (reference, expected) in [
            ("g", "http://a/b/c/g"),
            ("./g", "http://a/b/c/g"),
            ("g/", "http://a/b/c/g/"),
            ("/g", "http://a/g"),
            ("//g", "http://g"),
            ("?y", "http://a/b/c/d;p?y"),
            ("#s", "http://a/b/c/d;p?q#s"),
            ("", "http://a/b/c/d;p?q"),
            ("../g", "http://a/b/g"),
            ("../../../g", "http://a/g"),
            ("g;x=1/../y", "http://a/b/c/y"),
            ("urn:uuid:deadbeef#/$defs/a", "urn:uuid:deadbeef#/$defs/a"),
        ] {
            assert_eq!(resolve(base, reference), expected, "{reference}");
        }
        assert_eq!(resolve("", "#/components/schemas/Pet"), "#/components/schemas/Pet");
        assert_eq!(resolve("", "a.json"), "a.json");
        assert_eq!(resolve("folder/a.json", "b.json#x"), "folder/b.json#x");
        assert_eq!(resolve("urn:uuid:deadbeef", "#foo"), "urn:uuid:deadbeef#foo");
        assert_eq!(resolve("http://a/b?q#f", "#s"), "http://a/b?q#s");
        assert_eq!(split("a.json#/%24defs/x%25"), ("a.json", Some("/$defs/x%".to_owned())));
        assert_eq!(split("a.json"), ("a.json", Some(String::new())));
        assert_eq!(split("a#%FF"), ("a", None));
    }
}
