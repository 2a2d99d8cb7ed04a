//! Whether a document's text is JSON or YAML.

/// The syntax of a document's text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Starts with `{` or `[` (after white space and a byte order mark).
    Json,
    /// Anything else.
    Yaml,
}

/// Guesses the syntax from the first significant character: JSON documents start with `{`
/// or `[`; everything else is read as YAML (of which JSON is a subset).
#[must_use]
pub fn detect_format(bytes: &[u8]) -> Format {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    match bytes.iter().find(|b| !b.is_ascii_whitespace()) {
        Some(b'{' | b'[') => Format::Json,
        _ => Format::Yaml,
    }
}
