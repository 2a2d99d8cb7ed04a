//! cURL: a command line for a POSIX shell.

use super::*;

/// Quotes for a POSIX shell: single quotes, with `'` written as `'\''`.
pub(super) fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// Whether a method can be written unquoted (`POST`).
pub(super) fn is_token(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// A word of curl's `-F` syntax (a file name, a type): in double quotes, `"` and `\` escaped,
/// when it holds what the syntax would read (`;`, `,`, quotes).
pub(super) fn curl_word(s: &str) -> String {
    if s.contains(['"', '\\', ';', ',']) || s.starts_with(' ') || s.ends_with(' ') {
        format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
    } else {
        s.to_owned()
    }
}

pub(super) fn curl(r: &Request, body: &Body<'_>) -> String {
    let method = if is_token(&r.method) { r.method.clone() } else { shell_quote(&r.method) };
    // A body makes curl POST; any other method, GET included, is said.
    let mut lines = vec![if r.method == "GET" && !body.is_some() {
        format!("curl -i {}", shell_quote(&r.target))
    } else {
        format!("curl -i -X {method} {}", shell_quote(&r.target))
    }];
    for (name, value) in body.headers(r) {
        lines.push(format!("  -H {}", shell_quote(&format!("{name}: {value}"))));
    }
    match body {
        Body::None => {}
        Body::Json(json) => lines.push(format!("  --data-raw {}", shell_quote(&json.to_string()))),
        Body::Text(text) => lines.push(format!("  --data-raw {}", shell_quote(text))),
        Body::Binary => lines.push(format!("  --data-binary @{BODY_FILE}")),
        Body::Form(form) => {
            for (name, value) in &form.fields {
                lines.push(match (form.kind, value.file()) {
                    (FormKind::Multipart, Some((file, kind))) => format!(
                        "  -F {}",
                        shell_quote(&format!("{name}=@{};type={}", curl_word(file), curl_word(kind)))
                    ),
                    (FormKind::Multipart, None) => {
                        let text = value.as_text();
                        // `-F` reads `@file`, `<file`, a quoted word and `;type=`; `--form-string`
                        // takes text as it is.
                        let option = if text.starts_with(['@', '<', '"']) || text.contains(';') {
                            "--form-string"
                        } else {
                            "-F"
                        };
                        format!("  {option} {}", shell_quote(&format!("{name}={text}")))
                    }
                    (FormKind::UrlEncoded, _) => {
                        // curl encodes the value but sends the name as written.
                        let name: String = form_urlencoded::byte_serialize(name.as_bytes()).collect();
                        format!("  --data-urlencode {}", shell_quote(&format!("{name}={}", value.as_text())))
                    }
                });
            }
        }
    }
    lines.join(" \\\n")
}
