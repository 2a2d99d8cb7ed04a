//! A tolerant, bounded reader of `multipart/form-data` bodies (the mock and the tests read
//! what the page sends).

use super::*;

/// Splits a header value into its first token and its `;` parameters (names lowercased; quoted
/// values unquoted, `\` escapes honoured).
fn header_params(value: &str) -> (String, Vec<(String, String)>) {
    let mut parts = Vec::new();
    let mut current = String::new();
    let mut quoted = false;
    let mut chars = value.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                quoted = !quoted;
                current.push(c);
            }
            '\\' if quoted => {
                current.push(c);
                if let Some(next) = chars.next() {
                    current.push(next);
                }
            }
            ';' if !quoted => parts.push(std::mem::take(&mut current)),
            _ => current.push(c),
        }
    }
    parts.push(current);
    let mut iter = parts.into_iter();
    let first = iter.next().unwrap_or_default().trim().to_owned();
    let params = iter
        .filter_map(|p| {
            let (name, value) = p.split_once('=')?;
            let value = value.trim();
            let value = match value.strip_prefix('"') {
                Some(inner) => {
                    let inner = inner.strip_suffix('"').unwrap_or(inner);
                    let mut out = String::new();
                    let mut chars = inner.chars();
                    while let Some(c) = chars.next() {
                        if c == '\\' {
                            if let Some(next) = chars.next() {
                                out.push(next);
                            }
                        } else {
                            out.push(c);
                        }
                    }
                    out
                }
                None => value.to_owned(),
            };
            Some((name.trim().to_ascii_lowercase(), value))
        })
        .collect();
    (first, params)
}

/// Undoes the browsers' `%22`, `%0D` and `%0A` in a Content-Disposition name.
fn unescape_disposition_name(name: &str) -> String {
    name.replace("%22", "\"")
        .replace("%0D", "\r")
        .replace("%0A", "\n")
        .replace("%0d", "\r")
        .replace("%0a", "\n")
}

/// An RFC 5987 `filename*` value (`UTF-8''name%20here`), decoded.
fn extended_value(value: &str) -> Option<String> {
    let mut pieces = value.splitn(3, '\'');
    let charset = pieces.next()?;
    let _language = pieces.next()?;
    let encoded = pieces.next()?;
    if !charset.eq_ignore_ascii_case("utf-8") {
        return None;
    }
    percent_encoding::percent_decode_str(encoded).decode_utf8().ok().map(|s| s.into_owned())
}

/// The next line of `body` from `at`: its text without the line end, and where the next begins.
/// CRLF and bare LF both end a line.
fn line_at(body: &[u8], at: usize) -> Option<(&[u8], usize)> {
    let rest = body.get(at..)?;
    let end = rest.iter().position(|&b| b == b'\n')?;
    let line = rest.get(..end)?;
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    Some((line, at + end + 1))
}

/// Reads a `multipart/form-data` body: its parts as fields, in order. Tolerant: a preamble and
/// an epilogue are skipped, LF line ends are accepted as well as CRLF, and a missing final
/// `--` is forgiven. A part with a `filename` (or `filename*`), or whose content is not UTF-8, is
/// a file; names are unescaped as [`escape_disposition_name`] escapes them. At most
/// [`MAX_FIELDS`] parts.
///
/// # Errors
/// A sentence when the Content-Type is not multipart or has no boundary, when a part has no
/// name, when a part is not ended by a boundary, or when there are too many parts.
pub fn parse_multipart(content_type: &str, body: &[u8]) -> Result<Vec<FormField>, String> {
    let boundary = multipart_boundary(content_type)?;
    let delimiter = format!("--{boundary}");
    let delimiter = delimiter.as_bytes();
    let mut after_newline = Vec::with_capacity(delimiter.len() + 1);
    after_newline.push(b'\n');
    after_newline.extend_from_slice(delimiter);

    // The first delimiter: at the very start or after a line end (the preamble before it).
    let mut at = if body.starts_with(delimiter) {
        delimiter.len()
    } else {
        match find(body, &after_newline) {
            Some(p) => p + after_newline.len(),
            None => return Err("The multipart body has no boundary line.".to_owned()),
        }
    };
    let mut fields = Vec::new();
    loop {
        let rest = body.get(at..).unwrap_or_default();
        if rest.starts_with(b"--") || rest.iter().all(u8::is_ascii_whitespace) {
            return Ok(fields);
        }
        if fields.len() >= MAX_FIELDS {
            return Err(format!("The multipart body has more than {MAX_FIELDS} parts."));
        }
        let number = fields.len() + 1;
        // The rest of the boundary line (transport padding) is skipped.
        let Some((_, next)) = line_at(body, at) else {
            return Err(format!("Part {number} of the multipart body has no headers."));
        };
        let (headers, content_start) = PartHeaders::read(body, next, number)?;
        let Some(name) = headers.name else {
            return Err(format!(
                "Part {number} of the multipart body has no name in its Content-Disposition."
            ));
        };
        let Some(found) = body.get(content_start..).and_then(|rest| find(rest, &after_newline)) else {
            return Err(format!(
                "Part {number} (`{name}`) of the multipart body is not ended by a boundary."
            ));
        };
        let mut content_end = content_start + found;
        if content_end > content_start && body.get(content_end - 1) == Some(&b'\r') {
            content_end -= 1;
        }
        let content = body.get(content_start..content_end).unwrap_or_default().to_vec();
        at = content_start + found + after_newline.len();
        let value = match (headers.file_name, String::from_utf8(content)) {
            (None, Ok(text)) => FieldValue::Text(text),
            (file_name, content) => FieldValue::File {
                file_name: file_name.unwrap_or_default(),
                content_type: headers.content_type.unwrap_or_else(|| DEFAULT_FILE_TYPE.to_owned()),
                bytes: content.map_or_else(|e| e.into_bytes(), String::into_bytes),
            },
        };
        fields.push(FormField { name, value });
    }
}

/// The boundary of a `multipart/...` Content-Type.
///
/// # Errors
/// A sentence when the Content-Type is not multipart, or has no boundary of 1 to
/// [`MAX_BOUNDARY`] characters.
fn multipart_boundary(content_type: &str) -> Result<String, String> {
    let (essence, params) = header_params(content_type);
    if !essence.to_ascii_lowercase().starts_with("multipart/") {
        return Err(format!("The Content-Type `{essence}` is not multipart/form-data."));
    }
    let Some((_, boundary)) = params.into_iter().find(|(n, _)| n == "boundary") else {
        return Err("The multipart Content-Type has no boundary parameter.".to_owned());
    };
    if boundary.is_empty() || boundary.len() > MAX_BOUNDARY {
        return Err(format!("The multipart boundary must have 1 to {MAX_BOUNDARY} characters."));
    }
    Ok(boundary)
}

/// What the headers of one part of a multipart body say.
#[derive(Default)]
struct PartHeaders {
    /// The field's name, unescaped.
    name: Option<String>,
    /// The file's name: `filename*` decoded when it can be, else `filename` unescaped.
    file_name: Option<String>,
    /// The part's Content-Type.
    content_type: Option<String>,
}

impl PartHeaders {
    /// Reads the headers of part `number` from the line at `at` to the empty line that ends
    /// them; the headers, and where the part's content begins.
    ///
    /// # Errors
    /// A sentence when the body ends before the headers do.
    fn read(body: &[u8], mut at: usize, number: usize) -> Result<(Self, usize), String> {
        let mut headers = Self::default();
        loop {
            let Some((line, after)) = line_at(body, at) else {
                return Err(format!("The headers of part {number} of the multipart body do not end."));
            };
            at = after;
            if line.is_empty() {
                return Ok((headers, at));
            }
            let line = String::from_utf8_lossy(line);
            let Some((header, value)) = line.split_once(':') else { continue };
            let header = header.trim();
            if header.eq_ignore_ascii_case("content-disposition") {
                headers.disposition(value);
            } else if header.eq_ignore_ascii_case("content-type") {
                headers.content_type = Some(value.trim().to_owned());
            }
        }
    }

    /// Takes the name and the file's name from a Content-Disposition `value`.
    fn disposition(&mut self, value: &str) {
        let (_, params) = header_params(value);
        for (param, value) in params {
            match param.as_str() {
                "name" => self.name = Some(unescape_disposition_name(&value)),
                "filename" if self.file_name.is_none() => {
                    self.file_name = Some(unescape_disposition_name(&value))
                }
                "filename*" => {
                    if let Some(decoded) = extended_value(&value) {
                        self.file_name = Some(decoded);
                    }
                }
                _ => {}
            }
        }
    }
}
