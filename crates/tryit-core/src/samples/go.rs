//! Go: `net/http`, a whole program.

use super::*;

/// A Go string literal: a raw string where that reads better and can hold the text, else an
/// interpreted one with every control and non-ASCII character escaped.
pub(super) fn go_str(s: &str) -> String {
    let raw_safe = !s.contains('`') && s.chars().all(|c| c == '\n' || c == '\t' || (' '..='~').contains(&c));
    if raw_safe && s.contains(['"', '\\', '\n']) {
        return format!("`{s}`");
    }
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            ' '..='~' => out.push(c),
            c if u32::from(c) < 0x80 => out.push_str(&format!("\\x{:02x}", u32::from(c))),
            c if u32::from(c) <= 0xffff => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => out.push_str(&format!("\\U{:08x}", u32::from(c))),
        }
    }
    out.push('"');
    out
}

/// Go's way of stopping on an error, one tab in.
pub(super) const GO_CHECK: &str = "\tif err != nil {\n\t\tlog.Fatal(err)\n\t}";

/// The Go helper that adds a file part with its own Content-Disposition and Content-Type.
pub(super) const GO_ADD_FILE: &str = r#"
// addFile adds the file at path to form as a part with the given Content-Disposition and
// Content-Type.
func addFile(form *multipart.Writer, disposition, contentType, path string) error {
	content, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	part, err := form.CreatePart(textproto.MIMEHeader{
		"Content-Disposition": {disposition},
		"Content-Type":        {contentType},
	})
	if err != nil {
		return err
	}
	_, err = part.Write(content)
	return err
}"#;

pub(super) fn go(r: &Request, body: &Body<'_>) -> String {
    let mut imports = std::collections::BTreeSet::from(["fmt", "io", "log", "net/http"]);
    let mut lines: Vec<String> = Vec::new();
    let mut after: Vec<String> = Vec::new();
    let mut helpers = "";
    let reader = match body {
        Body::None => "nil".to_owned(),
        Body::Json(json) => {
            imports.insert("strings");
            format!("strings.NewReader({})", go_str(&pretty(json)))
        }
        Body::Text(text) => {
            imports.insert("strings");
            format!("strings.NewReader({})", go_str(text))
        }
        Body::Binary => {
            imports.extend(["bytes", "os"]);
            lines.push(format!("\tbody, err := os.ReadFile({})\n{GO_CHECK}", go_str(BODY_FILE)));
            "bytes.NewReader(body)".to_owned()
        }
        Body::Form(form) if form.kind == FormKind::UrlEncoded => {
            imports.extend(["net/url", "strings"]);
            lines.push("\tform := url.Values{}".to_owned());
            for (name, value) in &form.fields {
                lines.push(format!("\tform.Add({}, {})", go_str(name), go_str(value.as_text())));
            }
            after
                .push("\treq.Header.Set(\"Content-Type\", \"application/x-www-form-urlencoded\")".to_owned());
            "strings.NewReader(form.Encode())".to_owned()
        }
        Body::Form(form) => {
            imports.extend(["bytes", "mime/multipart"]);
            lines.push("\tvar body bytes.Buffer\n\tform := multipart.NewWriter(&body)".to_owned());
            for (name, value) in &form.fields {
                let call = match value.file() {
                    // Go escapes `"` its own way and not line breaks: the name goes escaped as
                    // browsers escape it.
                    None => format!(
                        "form.WriteField({}, {})",
                        go_str(&escape_disposition_name(name)),
                        go_str(value.as_text())
                    ),
                    Some((file, kind)) => {
                        imports.extend(["net/textproto", "os"]);
                        helpers = GO_ADD_FILE;
                        format!(
                            "addFile(form, {}, {}, {})",
                            go_str(&content_disposition(name, Some(file))),
                            go_str(kind),
                            go_str(file)
                        )
                    }
                };
                lines.push(format!("\tif err := {call}; err != nil {{\n\t\tlog.Fatal(err)\n\t}}"));
            }
            lines.push("\tif err := form.Close(); err != nil {\n\t\tlog.Fatal(err)\n\t}".to_owned());
            after.push("\treq.Header.Set(\"Content-Type\", form.FormDataContentType())".to_owned());
            "&body".to_owned()
        }
    };
    lines.push(format!(
        "\treq, err := http.NewRequest({}, {}, {reader})\n{GO_CHECK}",
        go_str(&r.method),
        go_str(&r.target)
    ));
    for (name, value) in body.headers(r) {
        lines.push(format!("\treq.Header.Add({}, {})", go_str(name), go_str(value)));
    }
    lines.extend(after);
    lines.push(format!("\tres, err := http.DefaultClient.Do(req)\n{GO_CHECK}\n\tdefer res.Body.Close()"));
    lines.push(format!(
        "\ttext, err := io.ReadAll(res.Body)\n{GO_CHECK}\n\tfmt.Println(res.StatusCode, string(text))"
    ));
    let imports: Vec<String> = imports.iter().map(|i| format!("\t\"{i}\"")).collect();
    format!(
        "package main\n\nimport (\n{}\n)\n\nfunc main() {{\n{}\n}}\n{helpers}",
        imports.join("\n"),
        lines.join("\n")
    )
    .trim_end()
    .to_owned()
}
