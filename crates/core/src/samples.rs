//! Code samples for a request: cURL, JavaScript (`fetch`), Python (`requests`), Go
//! (`net/http`), Java (`java.net.http`) and C# (`HttpClient`), built from the same [`Request`]
//! the try-it panel sends, so what a reader copies is exactly what the page ran.
//!
//! Every string is quoted for its language (a shell's single quotes, a Go, Java or C# string
//! literal with escapes), so no value can end a literal early. A body that is not UTF-8 is read
//! from the file [`BODY_FILE`]; a form's files are read from files named as the form names them.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::form::{DEFAULT_FILE_TYPE, FormKind, content_disposition, escape_disposition_name};
use crate::http::Request;

/// The languages samples are generated in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Lang {
    /// A `curl` command line for a POSIX shell.
    Curl,
    /// `fetch` in JavaScript (browsers and Node 18+).
    JavaScript,
    /// Python with the `requests` package.
    Python,
    /// A Go program with `net/http`.
    Go,
    /// A Java 11+ class with `java.net.http.HttpClient`.
    Java,
    /// C# top-level statements with `HttpClient` (.NET 6+).
    CSharp,
}

impl Lang {
    /// Every language, in the order the tabs show them.
    pub const ALL: [Lang; 6] =
        [Lang::Curl, Lang::JavaScript, Lang::Python, Lang::Go, Lang::Java, Lang::CSharp];

    /// The tab label.
    #[must_use]
    pub const fn label(self) -> &'static str {
        match self {
            Lang::Curl => "cURL",
            Lang::JavaScript => "JavaScript",
            Lang::Python => "Python",
            Lang::Go => "Go",
            Lang::Java => "Java",
            Lang::CSharp => "C#",
        }
    }
}

/// The file a sample reads a body that is not UTF-8 from.
pub const BODY_FILE: &str = "body.bin";

/// The file a form's file is read from when the form gives it no name.
const UNNAMED_FILE: &str = "file.bin";

/// A form body as the samples write it: the fields, not the encoded bytes, so each language
/// builds the form its own way (and sets the multipart boundary itself).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SampleForm {
    /// How the form is encoded.
    pub kind: FormKind,
    /// The fields, in order; a name may repeat.
    pub fields: Vec<(String, SampleValue)>,
}

/// The value of one field of a [`SampleForm`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum SampleValue {
    /// A text value.
    Text(String),
    /// A file, read from the file `file_name` (a urlencoded form sends the name).
    File {
        /// The file's name.
        file_name: String,
        /// The file's media type (empty for `application/octet-stream`).
        content_type: String,
    },
}

impl SampleValue {
    /// The file to read, and its media type.
    fn file(&self) -> Option<(&str, &str)> {
        match self {
            Self::Text(_) => None,
            Self::File { file_name, content_type } => Some((
                if file_name.is_empty() { UNNAMED_FILE } else { file_name },
                if content_type.trim().is_empty() { DEFAULT_FILE_TYPE } else { content_type },
            )),
        }
    }

    /// The value a urlencoded form sends: the text, or the file's name.
    fn as_text(&self) -> &str {
        match self {
            Self::Text(text) => text,
            Self::File { file_name, .. } => file_name,
        }
    }
}

/// A request's body as the samples write it.
enum Body<'a> {
    None,
    /// JSON: written as the language's literal.
    Json(Value),
    /// Other UTF-8 text: written as a string.
    Text(String),
    /// Bytes that are not UTF-8: read from [`BODY_FILE`].
    Binary,
    /// A form, built with the language's form API.
    Form(&'a SampleForm),
}

impl<'a> Body<'a> {
    fn of(request: &Request, form: Option<&'a SampleForm>) -> Self {
        if let Some(form) = form {
            return Self::Form(form);
        }
        if request.body.is_empty() {
            return Self::None;
        }
        let Ok(text) = std::str::from_utf8(&request.body) else { return Self::Binary };
        // `from_str`, as everywhere in the page: one JSON reader in the wasm, not two.
        serde_json::from_str(text).map_or_else(|_| Self::Text(text.to_owned()), Self::Json)
    }

    /// Whether a sample sends a body.
    const fn is_some(&self) -> bool {
        !matches!(self, Self::None)
    }

    /// The request's headers a sample writes: a form's own API sets the Content-Type (with the
    /// multipart boundary), so the request's is left out.
    fn headers<'r>(&self, request: &'r Request) -> Vec<&'r (String, String)> {
        request
            .headers
            .iter()
            .filter(|(name, _)| !(matches!(self, Self::Form(_)) && name.eq_ignore_ascii_case("content-type")))
            .collect()
    }
}

/// The sample of `request` in `lang`.
#[must_use]
pub fn generate(lang: Lang, request: &Request) -> String {
    generate_with(lang, request, None)
}

/// The sample of `request` in `lang`; with `form`, the body is that form, built with the
/// language's form API, and the request's own body and Content-Type are left out.
#[must_use]
pub fn generate_with(lang: Lang, request: &Request, form: Option<&SampleForm>) -> String {
    let body = Body::of(request, form);
    match lang {
        Lang::Curl => curl(request, &body),
        Lang::JavaScript => javascript(request, &body),
        Lang::Python => python(request, &body),
        Lang::Go => go(request, &body),
        Lang::Java => java(request, &body),
        Lang::CSharp => csharp(request, &body),
    }
}

/// A JSON value as indented text; never fails for a parsed value.
fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_default()
}

/// Whether every name in `fields` is different.
fn unique_names(fields: &[(String, SampleValue)]) -> bool {
    fields.iter().enumerate().all(|(i, (name, _))| fields.iter().take(i).all(|(other, _)| other != name))
}

// ---------------------------------------------------------------------------------------------
// cURL

/// Quotes for a POSIX shell: single quotes, with `'` written as `'\''`.
fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// Whether a method can be written unquoted (`POST`).
fn is_token(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// A word of curl's `-F` syntax (a file name, a type): in double quotes, `"` and `\` escaped,
/// when it holds what the syntax would read (`;`, `,`, quotes).
fn curl_word(s: &str) -> String {
    if s.contains(['"', '\\', ';', ',']) || s.starts_with(' ') || s.ends_with(' ') {
        format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
    } else {
        s.to_owned()
    }
}

fn curl(r: &Request, body: &Body<'_>) -> String {
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

// ---------------------------------------------------------------------------------------------
// JavaScript

/// A JavaScript string literal (JSON's quoting, valid JavaScript since ES2019).
fn js(s: &str) -> String {
    Value::String(s.to_owned()).to_string()
}

fn javascript(r: &Request, body: &Body<'_>) -> String {
    let mut prelude = Vec::new();
    let mut options = Vec::new();
    if r.method != "GET" {
        options.push(format!("  method: {},", js(&r.method)));
    }
    let headers = body.headers(r);
    if !headers.is_empty() {
        let headers: Vec<String> =
            headers.iter().map(|(n, v)| format!("    {}: {},", js(n), js(v))).collect();
        options.push(format!("  headers: {{\n{}\n  }},", headers.join("\n")));
    }
    match body {
        Body::None => {}
        Body::Json(json) => {
            let pretty = pretty(json).replace('\n', "\n  ");
            options.push(format!("  body: JSON.stringify({pretty}),"));
        }
        Body::Text(text) => options.push(format!("  body: {},", js(text))),
        Body::Binary => {
            prelude.push(format!(
                "// The body is the file {}: choose it, e.g. `input.files[0]` of an <input type=\"file\">;\n// an empty Blob stands in for it here.",
                js(BODY_FILE)
            ));
            prelude.push("const body = new Blob([]);".to_owned());
            options.push("  body,".to_owned());
        }
        Body::Form(form) => {
            let class = match form.kind {
                FormKind::Multipart => "FormData",
                FormKind::UrlEncoded => "URLSearchParams",
            };
            prelude.push(format!("const form = new {class}();"));
            let mut told = false;
            for (name, value) in &form.fields {
                match (form.kind, value.file()) {
                    (FormKind::Multipart, Some((file, kind))) => {
                        if !told {
                            prelude.push("// Choose each file to send, e.g. `input.files[0]` of an <input type=\"file\">;\n// an empty Blob stands in for it here.".to_owned());
                            told = true;
                        }
                        prelude.push(format!(
                            "form.append({}, new Blob([], {{ type: {} }}), {});",
                            js(name),
                            js(kind),
                            js(file)
                        ));
                    }
                    _ => prelude.push(format!("form.append({}, {});", js(name), js(value.as_text()))),
                }
            }
            options.push("  body: form,".to_owned());
        }
    }
    let call = if options.is_empty() {
        format!("const response = await fetch({});", js(&r.target))
    } else {
        format!("const response = await fetch({}, {{\n{}\n}});", js(&r.target), options.join("\n"))
    };
    prelude.push(call);
    prelude.push(
        "const text = await response.text();\nconsole.log(response.status, text ? JSON.parse(text) : null);"
            .to_owned(),
    );
    prelude.join("\n")
}

// ---------------------------------------------------------------------------------------------
// Python

/// A Python string literal (JSON's quoting is valid Python).
fn py(s: &str) -> String {
    Value::String(s.to_owned()).to_string()
}

/// A JSON value as a Python literal (`true` is `True`, `null` is `None`).
fn python_literal(v: &Value, indent: usize) -> String {
    let pad = "    ".repeat(indent + 1);
    let close = "    ".repeat(indent);
    match v {
        Value::Null => "None".into(),
        Value::Bool(true) => "True".into(),
        Value::Bool(false) => "False".into(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => py(s),
        Value::Array(items) if items.is_empty() => "[]".into(),
        Value::Array(items) => {
            let inner: Vec<String> =
                items.iter().map(|i| format!("{pad}{},", python_literal(i, indent + 1))).collect();
            format!("[\n{}\n{close}]", inner.join("\n"))
        }
        Value::Object(map) if map.is_empty() => "{}".into(),
        Value::Object(map) => {
            let inner: Vec<String> = map
                .iter()
                .map(|(k, v)| format!("{pad}{}: {},", py(k), python_literal(v, indent + 1)))
                .collect();
            format!("{{\n{}\n{close}}}", inner.join("\n"))
        }
    }
}

/// Name and value literals as a Python dict, or a list of pairs when a name repeats.
fn python_pairs(pairs: &[(String, String)], unique: bool) -> String {
    let (open, close) = if unique { ("{", "}") } else { ("[", "]") };
    let items: Vec<String> = pairs
        .iter()
        .map(|(n, v)| if unique { format!("        {n}: {v},") } else { format!("        ({n}, {v}),") })
        .collect();
    if items.is_empty() {
        format!("{open}{close}")
    } else {
        format!("{open}\n{}\n    {close}", items.join("\n"))
    }
}

fn python(r: &Request, body: &Body<'_>) -> String {
    let mut imports = vec!["import requests"];
    let mut args = vec![format!("    {},", py(&r.target))];
    // `json=` sets the Content-Type itself.
    let headers: Vec<&(String, String)> = body
        .headers(r)
        .into_iter()
        .filter(|(n, _)| !(matches!(body, Body::Json(_)) && n.eq_ignore_ascii_case("content-type")))
        .collect();
    if !headers.is_empty() {
        let h: Vec<String> = headers.iter().map(|(n, v)| format!("        {}: {},", py(n), py(v))).collect();
        args.push(format!("    headers={{\n{}\n    }},", h.join("\n")));
    }
    match body {
        Body::None => {}
        Body::Json(json) => args.push(format!("    json={},", python_literal(json, 1))),
        Body::Text(text) => args.push(format!("    data={},", py(text))),
        Body::Binary => {
            imports.insert(0, "from pathlib import Path\n");
            args.push(format!("    data=Path({}).read_bytes(),", py(BODY_FILE)));
        }
        Body::Form(form) => {
            let texts: Vec<(String, String)> = form
                .fields
                .iter()
                .filter(|(_, v)| form.kind == FormKind::UrlEncoded || v.file().is_none())
                .map(|(n, v)| (py(n), py(v.as_text())))
                .collect();
            let files: Vec<String> = form
                .fields
                .iter()
                .filter_map(|(n, v)| {
                    let (file, kind) = v.file()?;
                    Some(format!(
                        "        ({}, ({}, open({}, \"rb\"), {})),",
                        py(n),
                        py(file),
                        py(file),
                        py(kind)
                    ))
                })
                .collect();
            match form.kind {
                FormKind::UrlEncoded => {
                    args.push(format!("    data={},", python_pairs(&texts, unique_names(&form.fields))));
                }
                FormKind::Multipart if files.is_empty() => {
                    // requests sends multipart only with `files=`; `(None, value)` is a text part.
                    let parts: Vec<String> =
                        texts.iter().map(|(n, v)| format!("        ({n}, (None, {v})),")).collect();
                    args.push(format!("    files=[\n{}\n    ],", parts.join("\n")));
                }
                FormKind::Multipart => {
                    if !texts.is_empty() {
                        let unique = unique_names(
                            &form
                                .fields
                                .iter()
                                .filter(|(_, v)| v.file().is_none())
                                .cloned()
                                .collect::<Vec<_>>(),
                        );
                        args.push(format!("    data={},", python_pairs(&texts, unique)));
                    }
                    args.push(format!("    files=[\n{}\n    ],", files.join("\n")));
                }
            }
        }
    }
    args.push("    timeout=10,".into());
    format!(
        "{}\n\nresponse = requests.request(\n    {},\n{}\n)\nprint(response.status_code, response.text)",
        imports.join("\n"),
        py(&r.method),
        args.join("\n")
    )
}

// ---------------------------------------------------------------------------------------------
// Go

/// A Go string literal: a raw string where that reads better and can hold the text, else an
/// interpreted one with every control and non-ASCII character escaped.
fn go_str(s: &str) -> String {
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
const GO_CHECK: &str = "\tif err != nil {\n\t\tlog.Fatal(err)\n\t}";

/// The Go helper that adds a file part with its own Content-Disposition and Content-Type.
const GO_ADD_FILE: &str = r#"
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

fn go(r: &Request, body: &Body<'_>) -> String {
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

// ---------------------------------------------------------------------------------------------
// Java and C#

/// A Java or C# string literal: `\`, `"` and line breaks escaped, every other control and
/// non-ASCII character as `\uXXXX` (UTF-16), so the source is ASCII whatever its encoding.
/// Java reads `\u` escapes before it reads the source, so line breaks, `"` and `\` are never
/// written that way.
fn c_like_str(s: &str) -> String {
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
            c => {
                let mut units = [0_u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    out.push_str(&format!("\\u{unit:04x}"));
                }
            }
        }
    }
    out.push('"');
    out
}

/// A text as string literals joined by `+`, one per line of the text, continued lines indented
/// by `indent`.
fn c_like_lines(s: &str, indent: &str) -> String {
    let pieces: Vec<String> = s.split_inclusive('\n').map(c_like_str).collect();
    if pieces.is_empty() { "\"\"".to_owned() } else { pieces.join(&format!("\n{indent}+ ")) }
}

/// Headers `java.net.http` refuses to be given (it sets them itself), in their usual case.
const JAVA_RESTRICTED: [&str; 5] = ["Connection", "Content-Length", "Expect", "Host", "Upgrade"];

/// The Java helper that starts a multipart part.
const JAVA_PART: &str = r#"
    /** The start of a multipart part: its boundary line and headers. */
    private static byte[] partHeader(String boundary, String disposition, String contentType) {
        String header = "--" + boundary + "\r\nContent-Disposition: " + disposition + "\r\n"
            + (contentType == null ? "" : "Content-Type: " + contentType + "\r\n") + "\r\n";
        return header.getBytes(UTF_8);
    }"#;

/// The Java helper that encodes one urlencoded pair.
const JAVA_FIELD: &str = r#"
    /** One `name=value` pair of a urlencoded form. */
    private static String field(String name, String value) {
        return URLEncoder.encode(name, UTF_8) + "=" + URLEncoder.encode(value, UTF_8);
    }"#;

fn java(r: &Request, body: &Body<'_>) -> String {
    let s = c_like_str;
    let mut imports = std::collections::BTreeSet::from([
        "java.net.URI",
        "java.net.http.HttpClient",
        "java.net.http.HttpRequest",
        "java.net.http.HttpResponse",
    ]);
    let mut utf8 = false;
    let mut lines: Vec<String> = Vec::new();
    let mut builder: Vec<String> = Vec::new();
    let mut helpers: Vec<&str> = Vec::new();
    for (name, value) in body.headers(r) {
        match JAVA_RESTRICTED.iter().find(|h| h.eq_ignore_ascii_case(name)) {
            Some(h) => builder.push(format!("// HttpClient sets {h} itself.")),
            None => builder.push(format!(".header({}, {})", s(name), s(value))),
        }
    }
    let publisher = match body {
        Body::None => None,
        Body::Json(json) => {
            lines.push(format!("String body = {};", c_like_lines(&pretty(json), "    ")));
            Some("HttpRequest.BodyPublishers.ofString(body)".to_owned())
        }
        Body::Text(text) => {
            lines.push(format!("String body = {};", c_like_lines(text, "    ")));
            Some("HttpRequest.BodyPublishers.ofString(body)".to_owned())
        }
        Body::Binary => {
            imports.insert("java.nio.file.Path");
            Some(format!("HttpRequest.BodyPublishers.ofFile(Path.of({}))", s(BODY_FILE)))
        }
        Body::Form(form) if form.kind == FormKind::UrlEncoded => {
            imports.insert("java.net.URLEncoder");
            utf8 = true;
            helpers.push(JAVA_FIELD);
            let fields: Vec<String> = form
                .fields
                .iter()
                .map(|(n, v)| format!(",\n    field({}, {})", s(n), s(v.as_text())))
                .collect();
            lines.push(format!("String form = String.join(\"&\"{});", fields.concat()));
            builder.push(".header(\"Content-Type\", \"application/x-www-form-urlencoded\")".to_owned());
            Some("HttpRequest.BodyPublishers.ofString(form)".to_owned())
        }
        Body::Form(form) => {
            imports.extend(["java.io.ByteArrayOutputStream", "java.util.UUID"]);
            utf8 = true;
            helpers.push(JAVA_PART);
            lines.push("String boundary = \"PetstoreBoundary\" + UUID.randomUUID();".to_owned());
            lines.push("ByteArrayOutputStream body = new ByteArrayOutputStream();".to_owned());
            for (name, value) in &form.fields {
                let file = value.file();
                let disposition = content_disposition(name, file.map(|(f, _)| f));
                match file {
                    None => {
                        lines.push(format!(
                            "body.writeBytes(partHeader(boundary, {}, null));",
                            s(&disposition)
                        ));
                        lines.push(format!("body.writeBytes({}.getBytes(UTF_8));", s(value.as_text())));
                    }
                    Some((file, kind)) => {
                        imports.extend(["java.nio.file.Files", "java.nio.file.Path"]);
                        lines.push(format!(
                            "body.writeBytes(partHeader(boundary, {}, {}));",
                            s(&disposition),
                            s(kind)
                        ));
                        lines.push(format!("body.writeBytes(Files.readAllBytes(Path.of({})));", s(file)));
                    }
                }
                lines.push("body.writeBytes(\"\\r\\n\".getBytes(UTF_8));".to_owned());
            }
            lines.push("body.writeBytes((\"--\" + boundary + \"--\\r\\n\").getBytes(UTF_8));".to_owned());
            builder
                .push(".header(\"Content-Type\", \"multipart/form-data; boundary=\" + boundary)".to_owned());
            Some("HttpRequest.BodyPublishers.ofByteArray(body.toByteArray())".to_owned())
        }
    };
    builder.push(match (r.method.as_str(), publisher) {
        ("GET", None) => ".GET()".to_owned(),
        ("DELETE", None) => ".DELETE()".to_owned(),
        (method, None) => format!(".method({}, HttpRequest.BodyPublishers.noBody())", s(method)),
        ("POST", Some(p)) => format!(".POST({p})"),
        ("PUT", Some(p)) => format!(".PUT({p})"),
        (method, Some(p)) => format!(".method({}, {p})", s(method)),
    });
    builder.push(".build();".to_owned());
    lines.push(format!(
        "HttpRequest request = HttpRequest.newBuilder(URI.create({}))\n    {}",
        s(&r.target),
        builder.join("\n    ")
    ));
    lines.push(
        "HttpResponse<String> response = HttpClient.newHttpClient()\n    .send(request, HttpResponse.BodyHandlers.ofString());"
            .to_owned(),
    );
    lines.push("System.out.println(response.statusCode() + \" \" + response.body());".to_owned());
    let mut head: Vec<String> = imports.iter().map(|i| format!("import {i};")).collect();
    if utf8 {
        head.push("\nimport static java.nio.charset.StandardCharsets.UTF_8;".to_owned());
    }
    let body_lines: Vec<String> =
        lines.iter().map(|l| format!("        {}", l.replace('\n', "\n        "))).collect();
    format!(
        "{}\n\npublic class Main {{\n    public static void main(String[] args) throws Exception {{\n{}\n    }}\n{}}}",
        head.join("\n"),
        body_lines.join("\n"),
        helpers.iter().map(|h| format!("{h}\n")).collect::<String>()
    )
}

/// Whether .NET keeps a header on the content rather than on the request.
fn is_content_header(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    lower.starts_with("content-") || matches!(lower.as_str(), "allow" | "expires" | "last-modified")
}

/// The C# statement that sets a text body. `ByteArrayContent` has no Content-Type of its own,
/// so the request's is the one sent.
fn csharp_text_content(text: &str) -> String {
    format!(
        "request.Content = new ByteArrayContent(Encoding.UTF8.GetBytes(\n    {}));",
        c_like_lines(text, "    ")
    )
}

fn csharp(r: &Request, body: &Body<'_>) -> String {
    let s = c_like_str;
    let mut usings = std::collections::BTreeSet::from(["System", "System.Net.Http"]);
    let method = match r.method.as_str() {
        "GET" => "HttpMethod.Get".to_owned(),
        "POST" => "HttpMethod.Post".to_owned(),
        "PUT" => "HttpMethod.Put".to_owned(),
        "DELETE" => "HttpMethod.Delete".to_owned(),
        "PATCH" => "HttpMethod.Patch".to_owned(),
        "HEAD" => "HttpMethod.Head".to_owned(),
        "OPTIONS" => "HttpMethod.Options".to_owned(),
        other => format!("new HttpMethod({})", s(other)),
    };
    let mut lines = vec![
        "using var client = new HttpClient();".to_owned(),
        format!("using var request = new HttpRequestMessage({method}, {});", s(&r.target)),
    ];
    let headers = body.headers(r);
    for (name, value) in headers.iter().filter(|(n, _)| !is_content_header(n)) {
        lines.push(format!("request.Headers.TryAddWithoutValidation({}, {});", s(name), s(value)));
    }
    let has_content = match body {
        Body::None => false,
        Body::Json(json) => {
            usings.insert("System.Text");
            lines.push(csharp_text_content(&pretty(json)));
            true
        }
        Body::Text(text) => {
            usings.insert("System.Text");
            lines.push(csharp_text_content(text));
            true
        }
        Body::Binary => {
            usings.insert("System.IO");
            lines.push(format!(
                "request.Content = new ByteArrayContent(File.ReadAllBytes({}));",
                s(BODY_FILE)
            ));
            true
        }
        Body::Form(form) if form.kind == FormKind::UrlEncoded => {
            usings.insert("System.Collections.Generic");
            let pairs: Vec<String> =
                form.fields.iter().map(|(n, v)| format!("    new({}, {}),", s(n), s(v.as_text()))).collect();
            lines.push(format!(
                "request.Content = new FormUrlEncodedContent(new List<KeyValuePair<string, string>>\n{{\n{}\n}});",
                pairs.join("\n")
            ));
            true
        }
        Body::Form(form) => {
            lines.push("var form = new MultipartFormDataContent();".to_owned());
            let mut files = 0;
            for (name, value) in &form.fields {
                match value.file() {
                    // Names go escaped as browsers escape them: .NET does not escape `"` or
                    // line breaks.
                    None => lines.push(format!(
                        "form.Add(new StringContent({}), {});",
                        s(value.as_text()),
                        s(&escape_disposition_name(name))
                    )),
                    Some((file, kind)) => {
                        usings.insert("System.IO");
                        files += 1;
                        let var = format!("file{files}");
                        lines.push(format!(
                            "var {var} = new ByteArrayContent(File.ReadAllBytes({}));",
                            s(file)
                        ));
                        lines.push(format!(
                            "{var}.Headers.TryAddWithoutValidation(\"Content-Type\", {});",
                            s(kind)
                        ));
                        lines.push(format!(
                            "form.Add({var}, {}, {});",
                            s(&escape_disposition_name(name)),
                            s(&escape_disposition_name(file))
                        ));
                    }
                }
            }
            lines.push("request.Content = form;".to_owned());
            true
        }
    };
    if has_content {
        for (name, value) in headers.iter().filter(|(n, _)| is_content_header(n)) {
            lines.push(format!(
                "request.Content.Headers.TryAddWithoutValidation({}, {});",
                s(name),
                s(value)
            ));
        }
    }
    lines.push("using var response = await client.SendAsync(request);".to_owned());
    lines.push(
        "Console.WriteLine($\"{(int)response.StatusCode} {await response.Content.ReadAsStringAsync()}\");"
            .to_owned(),
    );
    let usings: Vec<String> = usings.iter().map(|u| format!("using {u};")).collect();
    format!("{}\n\n{}", usings.join("\n"), lines.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn post() -> Request {
        Request::new("POST", "http://127.0.0.1:4010/pets")
            .json(&json!({"name": "O'Brien", "categoryId": 1, "ok": true, "tag": null}))
            .header("Authorization", "Bearer it's")
    }

    #[test]
    fn curl_quotes_for_the_shell() {
        assert_eq!(
            generate(Lang::Curl, &post()),
            "curl -i -X POST 'http://127.0.0.1:4010/pets' \\\n  -H 'Content-Type: application/json' \\\n  -H 'Authorization: Bearer it'\\''s' \\\n  --data-raw '{\"name\":\"O'\\''Brien\",\"categoryId\":1,\"ok\":true,\"tag\":null}'"
        );
        let get = Request::new("GET", "http://x/pets?a=1&b=2");
        assert_eq!(generate(Lang::Curl, &get), "curl -i 'http://x/pets?a=1&b=2'");
    }

    #[test]
    fn javascript_uses_fetch_with_json_stringify() {
        let js = generate(Lang::JavaScript, &post());
        assert!(
            js.starts_with(
                "const response = await fetch(\"http://127.0.0.1:4010/pets\", {\n  method: \"POST\","
            ),
            "{js}"
        );
        assert!(js.contains("    \"Authorization\": \"Bearer it's\","), "{js}");
        assert!(js.contains("  body: JSON.stringify({\n    \"name\": \"O'Brien\","), "{js}");
        let get = Request::new("GET", "http://x/pets");
        assert!(
            generate(Lang::JavaScript, &get).starts_with("const response = await fetch(\"http://x/pets\");")
        );
    }

    #[test]
    fn python_writes_python_literals_and_lets_requests_set_the_content_type() {
        let py = generate(Lang::Python, &post());
        assert!(py.contains("    json={\n        \"name\": \"O'Brien\",\n        \"categoryId\": 1,\n        \"ok\": True,\n        \"tag\": None,\n    },"), "{py}");
        assert!(!py.contains("Content-Type"), "{py}");
        assert!(py.contains("\"Authorization\": \"Bearer it's\""), "{py}");
    }

    #[test]
    fn a_body_that_is_not_json_is_written_as_text() {
        let text = Request::new("POST", "http://x/notes").header("Content-Type", "text/plain").body("it's");
        assert!(generate(Lang::Curl, &text).ends_with("--data-raw 'it'\\''s'"));
        assert!(generate(Lang::JavaScript, &text).contains("  body: \"it's\","));
        let py = generate(Lang::Python, &text);
        assert!(py.contains("    data=\"it's\",") && py.contains("\"Content-Type\": \"text/plain\""), "{py}");
    }

    /// The hostile text: every character a language's quoting must get right.
    const HOSTILE: &str = "it's \"quoted\" \\back\\ $HOME `tick` $(x) \\u0041 \n\r\ttab é 😀 */";

    fn get() -> Request {
        Request::new("GET", "http://127.0.0.1:4010/pets?status=available&limit=5")
            .header("Accept", "application/json")
            .header("X-Api-Key", "k1")
    }

    fn multipart() -> (Request, SampleForm) {
        let request = Request::new("POST", "http://127.0.0.1:4010/pets/1/photo")
            .header("Content-Type", "multipart/form-data; boundary=abc")
            .header("Authorization", "Bearer t");
        let form = SampleForm {
            kind: FormKind::Multipart,
            fields: vec![
                ("caption".into(), SampleValue::Text("Rex".into())),
                (
                    "photo".into(),
                    SampleValue::File { file_name: "rex.png".into(), content_type: "image/png".into() },
                ),
            ],
        };
        (request, form)
    }

    fn urlencoded() -> (Request, SampleForm) {
        let request = Request::new("POST", "http://127.0.0.1:4010/login")
            .header("Content-Type", "application/x-www-form-urlencoded");
        let form = SampleForm {
            kind: FormKind::UrlEncoded,
            fields: vec![
                ("user".into(), SampleValue::Text("rex & co".into())),
                ("tag".into(), SampleValue::Text("a".into())),
                ("tag".into(), SampleValue::Text("b".into())),
            ],
        };
        (request, form)
    }

    fn binary() -> Request {
        Request::new("PUT", "http://127.0.0.1:4010/blobs/1")
            .header("Content-Type", "application/octet-stream")
            .body(vec![0x89, 0xff, 0x00, 0xfe])
    }

    fn hostile() -> Request {
        Request::new("POST", format!("http://x/a?q={HOSTILE}"))
            .header("X-Note", HOSTILE)
            .header("Content-Type", "text/plain")
            .body(HOSTILE)
    }

    fn hostile_form(kind: FormKind) -> (Request, SampleForm) {
        let form = SampleForm {
            kind,
            fields: vec![
                (HOSTILE.into(), SampleValue::Text(HOSTILE.into())),
                ("@x;y".into(), SampleValue::Text("<z;type=a".into())),
                (
                    "file".into(),
                    SampleValue::File {
                        file_name: "a \"b\";c,d\\e.txt".into(),
                        content_type: "text/plain; charset=utf-8".into(),
                    },
                ),
                ("file".into(), SampleValue::File { file_name: String::new(), content_type: String::new() }),
            ],
        };
        (Request::new("POST", "http://x/upload"), form)
    }

    /// Every fixture with its form.
    fn fixtures() -> Vec<(&'static str, Request, Option<SampleForm>)> {
        let (mp, mp_form) = multipart();
        let (ue, ue_form) = urlencoded();
        let (hm, hm_form) = hostile_form(FormKind::Multipart);
        let (hu, hu_form) = hostile_form(FormKind::UrlEncoded);
        vec![
            ("get", get(), None),
            ("json", post(), None),
            ("multipart", mp, Some(mp_form)),
            ("urlencoded", ue, Some(ue_form)),
            ("binary", binary(), None),
            ("hostile", hostile(), None),
            ("hostile_multipart", hm, Some(hm_form)),
            ("hostile_urlencoded", hu, Some(hu_form)),
            ("delete", Request::new("DELETE", "http://x/pets/1"), None),
            ("odd_method", Request::new("PURGE it", "http://x/"), None),
            (
                "empty_multipart",
                Request::new("POST", "http://x/"),
                Some(SampleForm { kind: FormKind::Multipart, fields: vec![] }),
            ),
        ]
    }

    fn sample(lang: Lang, fixture: &(&str, Request, Option<SampleForm>)) -> String {
        generate_with(lang, &fixture.1, fixture.2.as_ref())
    }

    #[test]
    fn the_languages_are_listed_in_tab_order() {
        let labels: Vec<&str> = Lang::ALL.iter().map(|l| l.label()).collect();
        assert_eq!(labels, ["cURL", "JavaScript", "Python", "Go", "Java", "C#"]);
        assert_eq!(generate(Lang::Go, &post()), generate_with(Lang::Go, &post(), None));
    }

    #[test]
    fn go_is_a_whole_program() {
        assert_eq!(
            generate(Lang::Go, &get()),
            r#"package main

import (
	"fmt"
	"io"
	"log"
	"net/http"
)

func main() {
	req, err := http.NewRequest("GET", "http://127.0.0.1:4010/pets?status=available&limit=5", nil)
	if err != nil {
		log.Fatal(err)
	}
	req.Header.Add("Accept", "application/json")
	req.Header.Add("X-Api-Key", "k1")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		log.Fatal(err)
	}
	defer res.Body.Close()
	text, err := io.ReadAll(res.Body)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.StatusCode, string(text))
}"#
        );
        let json = generate(Lang::Go, &post());
        assert!(json.contains("\t\"strings\"\n"), "{json}");
        assert!(
            json.contains("http.NewRequest(\"POST\", \"http://127.0.0.1:4010/pets\", strings.NewReader(`{\n  \"name\": \"O'Brien\",\n"),
            "{json}"
        );
        assert!(json.contains("\treq.Header.Add(\"Authorization\", \"Bearer it's\")"), "{json}");
    }

    #[test]
    fn java_is_a_class_with_main() {
        assert_eq!(
            generate(Lang::Java, &get()),
            r#"import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

public class Main {
    public static void main(String[] args) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:4010/pets?status=available&limit=5"))
            .header("Accept", "application/json")
            .header("X-Api-Key", "k1")
            .GET()
            .build();
        HttpResponse<String> response = HttpClient.newHttpClient()
            .send(request, HttpResponse.BodyHandlers.ofString());
        System.out.println(response.statusCode() + " " + response.body());
    }
}"#
        );
        let json = generate(Lang::Java, &post());
        assert!(
            json.contains(
                "        String body = \"{\\n\"\n            + \"  \\\"name\\\": \\\"O'Brien\\\",\\n\"\n"
            ),
            "{json}"
        );
        assert!(json.contains("            .POST(HttpRequest.BodyPublishers.ofString(body))\n"), "{json}");
        let host = Request::new("GET", "http://x/").header("host", "y");
        assert!(generate(Lang::Java, &host).contains("            // HttpClient sets Host itself.\n"));
    }

    #[test]
    fn csharp_is_top_level_statements() {
        assert_eq!(
            generate(Lang::CSharp, &get()),
            r#"using System;
using System.Net.Http;

using var client = new HttpClient();
using var request = new HttpRequestMessage(HttpMethod.Get, "http://127.0.0.1:4010/pets?status=available&limit=5");
request.Headers.TryAddWithoutValidation("Accept", "application/json");
request.Headers.TryAddWithoutValidation("X-Api-Key", "k1");
using var response = await client.SendAsync(request);
Console.WriteLine($"{(int)response.StatusCode} {await response.Content.ReadAsStringAsync()}");"#
        );
        let json = generate(Lang::CSharp, &post());
        assert!(json.contains("using System.Text;\n"), "{json}");
        assert!(
            json.contains("request.Content = new ByteArrayContent(Encoding.UTF8.GetBytes(\n    \"{\\n\"\n    + \"  \\\"name\\\": \\\"O'Brien\\\",\\n\""),
            "{json}"
        );
        // Content-Type is a content header in .NET: it goes on the content, after it is set.
        assert!(
            json.ends_with("}\"));\nrequest.Content.Headers.TryAddWithoutValidation(\"Content-Type\", \"application/json\");\nusing var response = await client.SendAsync(request);\nConsole.WriteLine($\"{(int)response.StatusCode} {await response.Content.ReadAsStringAsync()}\");"),
            "{json}"
        );
        assert!(
            json.contains("request.Headers.TryAddWithoutValidation(\"Authorization\", \"Bearer it's\");")
        );
    }

    #[test]
    fn get_with_headers_and_query_in_every_language() {
        let url = "http://127.0.0.1:4010/pets?status=available&limit=5";
        assert_eq!(
            generate(Lang::Curl, &get()),
            format!("curl -i '{url}' \\\n  -H 'Accept: application/json' \\\n  -H 'X-Api-Key: k1'")
        );
        let js = generate(Lang::JavaScript, &get());
        assert!(js.starts_with(&format!("const response = await fetch(\"{url}\", {{\n  headers: {{\n    \"Accept\": \"application/json\",")), "{js}");
        assert!(!js.contains("method"), "{js}");
        let py = generate(Lang::Python, &get());
        assert!(
            py.contains(&format!(
                "    \"GET\",\n    \"{url}\",\n    headers={{\n        \"Accept\": \"application/json\","
            )),
            "{py}"
        );
    }

    #[test]
    fn multipart_forms_use_each_languages_form_api() {
        let (request, form) = multipart();
        let s = |lang| generate_with(lang, &request, Some(&form));
        for lang in Lang::ALL {
            assert!(
                !s(lang).contains("boundary=abc"),
                "{lang:?}: the request's Content-Type is left out:\n{}",
                s(lang)
            );
            assert!(s(lang).contains("Bearer t"), "{lang:?}");
        }
        assert_eq!(
            s(Lang::Curl),
            "curl -i -X POST 'http://127.0.0.1:4010/pets/1/photo' \\\n  -H 'Authorization: Bearer t' \\\n  -F 'caption=Rex' \\\n  -F 'photo=@rex.png;type=image/png'"
        );
        let js = s(Lang::JavaScript);
        assert!(
            js.starts_with(
                "const form = new FormData();\nform.append(\"caption\", \"Rex\");\n// Choose each file"
            ),
            "{js}"
        );
        assert!(
            js.contains("\nform.append(\"photo\", new Blob([], { type: \"image/png\" }), \"rex.png\");\n"),
            "{js}"
        );
        assert!(js.contains("  body: form,\n"), "{js}");
        let py = s(Lang::Python);
        assert!(
            py.contains("    data={\n        \"caption\": \"Rex\",\n    },\n    files=[\n        (\"photo\", (\"rex.png\", open(\"rex.png\", \"rb\"), \"image/png\")),\n    ],"),
            "{py}"
        );
        let go = s(Lang::Go);
        assert!(go.contains("\tif err := form.WriteField(\"caption\", \"Rex\"); err != nil {"), "{go}");
        assert!(
            go.contains("\tif err := addFile(form, `form-data; name=\"photo\"; filename=\"rex.png\"`, \"image/png\", \"rex.png\"); err != nil {"),
            "{go}"
        );
        assert!(go.contains("\treq.Header.Set(\"Content-Type\", form.FormDataContentType())"), "{go}");
        assert!(
            go.contains("\n\t\"mime/multipart\"\n\t\"net/http\"\n\t\"net/textproto\"\n\t\"os\"\n)"),
            "{go}"
        );
        assert!(go.contains("func addFile("), "{go}");
        let java = s(Lang::Java);
        assert!(java.contains("        body.writeBytes(partHeader(boundary, \"form-data; name=\\\"caption\\\"\", null));\n        body.writeBytes(\"Rex\".getBytes(UTF_8));\n"), "{java}");
        assert!(
            java.contains("        body.writeBytes(Files.readAllBytes(Path.of(\"rex.png\")));\n"),
            "{java}"
        );
        assert!(
            java.contains(".header(\"Content-Type\", \"multipart/form-data; boundary=\" + boundary)"),
            "{java}"
        );
        assert!(java.contains(".POST(HttpRequest.BodyPublishers.ofByteArray(body.toByteArray()))"), "{java}");
        let cs = s(Lang::CSharp);
        assert!(
            cs.contains("var form = new MultipartFormDataContent();\nform.Add(new StringContent(\"Rex\"), \"caption\");\nvar file1 = new ByteArrayContent(File.ReadAllBytes(\"rex.png\"));\nfile1.Headers.TryAddWithoutValidation(\"Content-Type\", \"image/png\");\nform.Add(file1, \"photo\", \"rex.png\");\nrequest.Content = form;\n"),
            "{cs}"
        );
        // Only text fields: requests still sends multipart.
        let text_only = SampleForm {
            kind: FormKind::Multipart,
            fields: vec![("a".into(), SampleValue::Text("b".into()))],
        };
        let py = generate_with(Lang::Python, &request, Some(&text_only));
        assert!(py.contains("    files=[\n        (\"a\", (None, \"b\")),\n    ],"), "{py}");
    }

    #[test]
    fn urlencoded_forms_use_each_languages_form_api() {
        let (request, form) = urlencoded();
        let s = |lang| generate_with(lang, &request, Some(&form));
        assert_eq!(
            s(Lang::Curl),
            "curl -i -X POST 'http://127.0.0.1:4010/login' \\\n  --data-urlencode 'user=rex & co' \\\n  --data-urlencode 'tag=a' \\\n  --data-urlencode 'tag=b'"
        );
        assert!(
            s(Lang::JavaScript)
                .starts_with("const form = new URLSearchParams();\nform.append(\"user\", \"rex & co\");\n")
        );
        // A repeated name: a list of pairs, not a dict.
        assert!(s(Lang::Python).contains("    data=[\n        (\"user\", \"rex & co\"),\n        (\"tag\", \"a\"),\n        (\"tag\", \"b\"),\n    ],"), "{}", s(Lang::Python));
        let go = s(Lang::Go);
        assert!(go.contains("\tform := url.Values{}\n\tform.Add(\"user\", \"rex & co\")\n"), "{go}");
        assert!(go.contains("strings.NewReader(form.Encode())"), "{go}");
        assert!(
            go.contains("\treq.Header.Set(\"Content-Type\", \"application/x-www-form-urlencoded\")"),
            "{go}"
        );
        let java = s(Lang::Java);
        assert!(
            java.contains(
                "        String form = String.join(\"&\",\n            field(\"user\", \"rex & co\"),\n"
            ),
            "{java}"
        );
        assert!(java.contains("URLEncoder.encode(name, UTF_8)"), "{java}");
        let cs = s(Lang::CSharp);
        assert!(cs.contains("request.Content = new FormUrlEncodedContent(new List<KeyValuePair<string, string>>\n{\n    new(\"user\", \"rex & co\"),\n"), "{cs}");
        for lang in Lang::ALL {
            assert_eq!(
                s(lang).matches("application/x-www-form-urlencoded").count(),
                usize::from(matches!(lang, Lang::Go | Lang::Java)),
                "{lang:?}"
            );
        }
    }

    #[test]
    fn a_body_that_is_not_utf8_is_read_from_a_file() {
        let r = binary();
        let s = |lang| generate(lang, &r);
        assert!(
            s(Lang::Curl)
                .ends_with("  -H 'Content-Type: application/octet-stream' \\\n  --data-binary @body.bin"),
            "{}",
            s(Lang::Curl)
        );
        assert!(s(Lang::JavaScript).contains("const body = new Blob([]);\nconst response = await fetch("));
        assert!(s(Lang::Python).starts_with("from pathlib import Path\n\nimport requests\n"));
        assert!(s(Lang::Python).contains("    data=Path(\"body.bin\").read_bytes(),"));
        assert!(s(Lang::Go).contains("\tbody, err := os.ReadFile(\"body.bin\")\n"));
        assert!(s(Lang::Go).contains("bytes.NewReader(body)"));
        assert!(s(Lang::Java).contains(".PUT(HttpRequest.BodyPublishers.ofFile(Path.of(\"body.bin\")))"));
        assert!(
            s(Lang::CSharp)
                .contains("request.Content = new ByteArrayContent(File.ReadAllBytes(\"body.bin\"));")
        );
        for lang in Lang::ALL {
            assert!(!s(lang).contains('\u{fffd}'), "{lang:?}");
        }
    }

    #[test]
    fn hostile_strings_stay_quoted() {
        let r = hostile();
        let go = generate(Lang::Go, &r);
        let go_lit = r#""it's \"quoted\" \\back\\ $HOME `tick` $(x) \\u0041 \n\r\ttab \u00e9 \U0001f600 */""#;
        assert!(go.contains(&format!("\treq.Header.Add(\"X-Note\", {go_lit})")), "{go}");
        assert!(go.contains(&format!("strings.NewReader({go_lit})")), "{go}");
        let c_lit =
            r#""it's \"quoted\" \\back\\ $HOME `tick` $(x) \\u0041 \n\r\ttab \u00e9 \ud83d\ude00 */""#;
        let java = generate(Lang::Java, &r);
        assert!(java.contains(&format!(".header(\"X-Note\", {c_lit})")), "{java}");
        // A multi-line text is split after each line break.
        assert!(java.contains("String body = \"it's \\\"quoted\\\" \\\\back\\\\ $HOME `tick` $(x) \\\\u0041 \\n\"\n            + \"\\r\\ttab \\u00e9 \\ud83d\\ude00 */\";"), "{java}");
        let cs = generate(Lang::CSharp, &r);
        assert!(
            cs.contains(&format!("request.Headers.TryAddWithoutValidation(\"X-Note\", {c_lit});")),
            "{cs}"
        );
        let json_lit = r#""it's \"quoted\" \\back\\ $HOME `tick` $(x) \\u0041 \n\r\ttab é 😀 */""#;
        assert!(generate(Lang::JavaScript, &r).contains(&format!("    \"X-Note\": {json_lit},")));
        assert!(generate(Lang::Python, &r).contains(&format!("    data={json_lit},")));
        let curl = generate(Lang::Curl, &r);
        assert!(
            curl.contains(
                "  -H 'X-Note: it'\\''s \"quoted\" \\back\\ $HOME `tick` $(x) \\u0041 \n\r\ttab é 😀 */'"
            ),
            "{curl}"
        );
        // A method that is not a token is quoted too.
        assert!(
            generate(Lang::Curl, &Request::new("PURGE it", "http://x/"))
                .starts_with("curl -i -X 'PURGE it' ")
        );
        // Names and file names in curl's -F syntax, and names curl would not encode.
        let (request, form) = hostile_form(FormKind::Multipart);
        let curl = generate_with(Lang::Curl, &request, Some(&form));
        assert!(curl.contains("  --form-string '@x;y=<z;type=a'"), "{curl}");
        assert!(curl.contains("  -F 'it'\\''s \"quoted\" \\back\\ $HOME"), "{curl}");
        assert!(
            curl.contains(r#"  -F 'file=@"a \"b\";c,d\\e.txt";type="text/plain; charset=utf-8"'"#),
            "{curl}"
        );
        assert!(curl.contains("  -F 'file=@file.bin;type=application/octet-stream'"), "{curl}");
        let (request, form) = hostile_form(FormKind::UrlEncoded);
        let curl = generate_with(Lang::Curl, &request, Some(&form));
        assert!(curl.contains("  --data-urlencode '%40x%3By=<z;type=a'"), "{curl}");
        // Browsers' escaping of a multipart name, then the language's.
        let (request, form) = hostile_form(FormKind::Multipart);
        let go = generate_with(Lang::Go, &request, Some(&form));
        assert!(
            go.contains(
                r#"form.WriteField("it's %22quoted%22 \\back\\ $HOME `tick` $(x) \\u0041 %0A%0D\ttab \u00e9"#
            ),
            "{go}"
        );
        let cs = generate_with(Lang::CSharp, &request, Some(&form));
        assert!(
            cs.contains(r#"var file1 = new ByteArrayContent(File.ReadAllBytes("a \"b\";c,d\\e.txt"));"#),
            "{cs}"
        );
        assert!(cs.contains(r#"form.Add(file1, "file", "a %22b%22;c,d\\e.txt");"#), "{cs}");
        let java = generate_with(Lang::Java, &request, Some(&form));
        assert!(java.contains(r#"body.writeBytes(partHeader(boundary, "form-data; name=\"file\"; filename=\"a %22b%22;c,d\\e.txt\"", "text/plain; charset=utf-8"));"#), "{java}");
    }

    /// Runs `script` with `sh`; `None` where there is no `sh`.
    fn run_sh(script: &str) -> Option<Vec<u8>> {
        let output = std::process::Command::new("sh").arg("-c").arg(script).output().ok()?;
        assert!(output.status.success(), "{script}\n{}", String::from_utf8_lossy(&output.stderr));
        Some(output.stdout)
    }

    #[test]
    fn curl_arguments_survive_a_real_shell() {
        for fixture in fixtures() {
            let command = sample(Lang::Curl, &fixture);
            let Some(rest) = command.strip_prefix("curl ") else { panic!("{command}") };
            // `printf '%s\0'` prints each argument as the shell passed it.
            let Some(out) = run_sh(&format!("printf '%s\\0' {rest}")) else { return };
            let args: Vec<String> = out
                .split(|&b| b == 0)
                .filter(|a| !a.is_empty())
                .map(|a| String::from_utf8(a.to_vec()).unwrap())
                .collect();
            assert_eq!(args.first().map(String::as_str), Some("-i"), "{}", fixture.0);
            assert!(args.contains(&fixture.1.target), "{}: {args:?}", fixture.0);
            for (name, value) in
                fixture.1.headers.iter().filter(|(n, _)| fixture.2.is_none() || n != "Content-Type")
            {
                assert!(args.contains(&format!("{name}: {value}")), "{}: {args:?}", fixture.0);
            }
        }
        let Some(out) = run_sh(&format!(
            "printf '%s\\0' {}",
            generate(Lang::Curl, &hostile()).trim_start_matches("curl ")
        )) else {
            return;
        };
        let args: Vec<&[u8]> = out.split(|&b| b == 0).collect();
        let expected: Vec<String> = vec![
            "-i".into(),
            "-X".into(),
            "POST".into(),
            format!("http://x/a?q={HOSTILE}"),
            "-H".into(),
            format!("X-Note: {HOSTILE}"),
            "-H".into(),
            "Content-Type: text/plain".into(),
            "--data-raw".into(),
            HOSTILE.into(),
            String::new(),
        ];
        assert_eq!(args, expected.iter().map(|a| a.as_bytes()).collect::<Vec<_>>());
        // curl's own -F syntax, as the shell hands it over.
        let (request, form) = hostile_form(FormKind::Multipart);
        let command = generate_with(Lang::Curl, &request, Some(&form));
        let Some(out) = run_sh(&format!("printf '%s\\0' {}", command.trim_start_matches("curl "))) else {
            return;
        };
        let out = String::from_utf8(out).unwrap();
        assert!(
            out.contains(&format!("\0-F\0{HOSTILE}={HOSTILE}\0--form-string\0@x;y=<z;type=a\0")),
            "{out:?}"
        );
        assert!(
            out.contains("\0-F\0file=@\"a \\\"b\\\";c,d\\\\e.txt\";type=\"text/plain; charset=utf-8\"\0"),
            "{out:?}"
        );
    }

    /// Checks a sample's syntax with a tool, when the tool is there.
    fn syntax_ok(program: &str, args: &[&str], source: &str, file: &str) {
        let dir = std::env::temp_dir().join(format!("petstore-samples-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(file);
        std::fs::write(&path, source).unwrap();
        let Ok(output) = std::process::Command::new(program).args(args).arg(&path).output() else { return };
        assert!(output.status.success(), "{source}\n{}", String::from_utf8_lossy(&output.stderr));
    }

    #[test]
    fn javascript_and_python_samples_parse() {
        for (i, fixture) in fixtures().iter().enumerate() {
            syntax_ok("node", &["--check"], &sample(Lang::JavaScript, fixture), &format!("sample{i}.mjs"));
            syntax_ok(
                "python3",
                &["-c", "import ast, sys; ast.parse(open(sys.argv[1], encoding='utf-8').read())"],
                &sample(Lang::Python, fixture),
                &format!("sample{i}.py"),
            );
        }
    }

    #[test]
    fn every_fixture_in_every_language() {
        for fixture in fixtures() {
            for lang in Lang::ALL {
                let text = sample(lang, &fixture);
                assert!(!text.is_empty());
                if matches!(lang, Lang::Go | Lang::Java | Lang::CSharp) {
                    // The source is ASCII: escapes carry everything else.
                    assert!(text.is_ascii(), "{lang:?} {}: {text}", fixture.0);
                }
            }
        }
    }

    #[test]
    #[ignore = "writes the samples to a folder to try with each language's tools"]
    fn dump_samples() {
        let dir: std::path::PathBuf = std::env::var_os("SAMPLES_DIR")
            .map_or_else(|| std::env::temp_dir().join("petstore-samples"), Into::into);
        for fixture in fixtures() {
            for (lang, ext) in [
                (Lang::Curl, "sh"),
                (Lang::JavaScript, "mjs"),
                (Lang::Python, "py"),
                (Lang::Go, "go"),
                (Lang::Java, "java"),
                (Lang::CSharp, "cs"),
            ] {
                let folder =
                    std::path::Path::new(&dir).join(fixture.0).join(lang.label().replace('#', "sharp"));
                std::fs::create_dir_all(&folder).unwrap();
                let name = if lang == Lang::Java { "Main.java".to_owned() } else { format!("main.{ext}") };
                std::fs::write(folder.join(name), sample(lang, &fixture)).unwrap();
            }
        }
    }
}
