//! Java (`java.net.http`, a class with `main`) and C# (`HttpClient`, top-level
//! statements), which quote strings alike.

use std::collections::BTreeSet;

use super::*;

/// A Java or C# string literal: `\`, `"` and line breaks escaped, every other control and
/// non-ASCII character as `\uXXXX` (UTF-16), so the source is ASCII whatever its encoding.
/// Java reads `\u` escapes before it reads the source, so line breaks, `"` and `\` are never
/// written that way.
pub(super) fn c_like_str(s: &str) -> String {
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
pub(super) fn c_like_lines(s: &str, indent: &str) -> String {
    let pieces: Vec<String> = s.split_inclusive('\n').map(c_like_str).collect();
    if pieces.is_empty() { "\"\"".to_owned() } else { pieces.join(&format!("\n{indent}+ ")) }
}

/// Headers `java.net.http` refuses to be given (it sets them itself), in their usual case.
pub(super) const JAVA_RESTRICTED: [&str; 5] = ["Connection", "Content-Length", "Expect", "Host", "Upgrade"];

/// The Java helper that starts a multipart part.
pub(super) const JAVA_PART: &str = r#"
    /** The start of a multipart part: its boundary line and headers. */
    private static byte[] partHeader(String boundary, String disposition, String contentType) {
        String header = "--" + boundary + "\r\nContent-Disposition: " + disposition + "\r\n"
            + (contentType == null ? "" : "Content-Type: " + contentType + "\r\n") + "\r\n";
        return header.getBytes(UTF_8);
    }"#;

/// The Java helper that encodes one urlencoded pair.
pub(super) const JAVA_FIELD: &str = r#"
    /** One `name=value` pair of a urlencoded form. */
    private static String field(String name, String value) {
        return URLEncoder.encode(name, UTF_8) + "=" + URLEncoder.encode(value, UTF_8);
    }"#;

/// How Java and C# each write the parts of a request's body; [`write_body`] walks the body and
/// calls them in order.
trait BodyWriter {
    /// A UTF-8 body, JSON already indented.
    fn text(&mut self, text: &str);
    /// A body read from [`BODY_FILE`].
    fn binary(&mut self);
    /// A urlencoded form.
    fn url_encoded(&mut self, form: &SampleForm);
    /// What comes before a multipart form's parts.
    fn multipart_start(&mut self);
    /// A multipart part of the field `name` with the value `text`.
    fn text_part(&mut self, name: &str, text: &str);
    /// A multipart part of the field `name`, read from `file`, of the media type `kind`.
    fn file_part(&mut self, name: &str, file: &str, kind: &str);
    /// What comes after a multipart form's parts.
    fn multipart_end(&mut self);
}

/// Writes `body` with `writer`: nothing for no body, text for JSON and other text, a form's
/// fields one by one.
fn write_body(body: &Body<'_>, writer: &mut impl BodyWriter) {
    match body {
        Body::None => {}
        Body::Json(json) => writer.text(&pretty(json)),
        Body::Text(text) => writer.text(text),
        Body::Binary => writer.binary(),
        Body::Form(form) if form.kind == FormKind::UrlEncoded => writer.url_encoded(form),
        Body::Form(form) => {
            writer.multipart_start();
            for (name, value) in &form.fields {
                match value.file() {
                    None => writer.text_part(name, value.as_text()),
                    Some((file, kind)) => writer.file_part(name, file, kind),
                }
            }
            writer.multipart_end();
        }
    }
}

/// The Java sample of `r` with `body`: a class whose `main` sends the request and prints the
/// answer.
pub(super) fn java(r: &Request, body: &Body<'_>) -> String {
    let s = c_like_str;
    let mut java = Java::new();
    for (name, value) in body.headers(r) {
        match JAVA_RESTRICTED.iter().find(|h| h.eq_ignore_ascii_case(name)) {
            Some(h) => java.builder.push(format!("// HttpClient sets {h} itself.")),
            None => java.builder.push(format!(".header({}, {})", s(name), s(value))),
        }
    }
    write_body(body, &mut java);
    java.builder.push(match (r.method.as_str(), java.publisher.take()) {
        ("GET", None) => ".GET()".to_owned(),
        ("DELETE", None) => ".DELETE()".to_owned(),
        (method, None) => format!(".method({}, HttpRequest.BodyPublishers.noBody())", s(method)),
        ("POST", Some(p)) => format!(".POST({p})"),
        ("PUT", Some(p)) => format!(".PUT({p})"),
        (method, Some(p)) => format!(".method({}, {p})", s(method)),
    });
    java.builder.push(".build();".to_owned());
    java.lines.push(format!(
        "HttpRequest request = HttpRequest.newBuilder(URI.create({}))\n    {}",
        s(&r.target),
        java.builder.join("\n    ")
    ));
    java.lines.push(
        "HttpResponse<String> response = HttpClient.newHttpClient()\n    .send(request, HttpResponse.BodyHandlers.ofString());"
            .to_owned(),
    );
    java.lines.push("System.out.println(response.statusCode() + \" \" + response.body());".to_owned());
    java.source()
}

/// A Java sample as it is written.
struct Java {
    /// The classes imported.
    imports: BTreeSet<&'static str>,
    /// `UTF_8` is used, imported statically.
    utf8: bool,
    /// The statements of `main`.
    lines: Vec<String>,
    /// The calls on the request's builder, after `newBuilder`.
    builder: Vec<String>,
    /// The class's helper methods.
    helpers: Vec<&'static str>,
    /// What publishes the body, when there is one.
    publisher: Option<String>,
}

impl Java {
    fn new() -> Self {
        Java {
            imports: BTreeSet::from([
                "java.net.URI",
                "java.net.http.HttpClient",
                "java.net.http.HttpRequest",
                "java.net.http.HttpResponse",
            ]),
            utf8: false,
            lines: Vec::new(),
            builder: Vec::new(),
            helpers: Vec::new(),
            publisher: None,
        }
    }

    /// The class: its imports, `main` with the statements, and the helpers.
    fn source(self) -> String {
        let mut head: Vec<String> = self.imports.iter().map(|i| format!("import {i};")).collect();
        if self.utf8 {
            head.push("\nimport static java.nio.charset.StandardCharsets.UTF_8;".to_owned());
        }
        let body_lines: Vec<String> =
            self.lines.iter().map(|l| format!("        {}", l.replace('\n', "\n        "))).collect();
        format!(
            "{}\n\npublic class Main {{\n    public static void main(String[] args) throws Exception {{\n{}\n    }}\n{}}}",
            head.join("\n"),
            body_lines.join("\n"),
            self.helpers.iter().map(|h| format!("{h}\n")).collect::<String>()
        )
    }
}

impl BodyWriter for Java {
    fn text(&mut self, text: &str) {
        self.lines.push(format!("String body = {};", c_like_lines(text, "    ")));
        self.publisher = Some("HttpRequest.BodyPublishers.ofString(body)".to_owned());
    }

    fn binary(&mut self) {
        self.imports.insert("java.nio.file.Path");
        self.publisher =
            Some(format!("HttpRequest.BodyPublishers.ofFile(Path.of({}))", c_like_str(BODY_FILE)));
    }

    fn url_encoded(&mut self, form: &SampleForm) {
        let s = c_like_str;
        self.imports.insert("java.net.URLEncoder");
        self.utf8 = true;
        self.helpers.push(JAVA_FIELD);
        let fields: Vec<String> =
            form.fields.iter().map(|(n, v)| format!(",\n    field({}, {})", s(n), s(v.as_text()))).collect();
        self.lines.push(format!("String form = String.join(\"&\"{});", fields.concat()));
        self.builder.push(".header(\"Content-Type\", \"application/x-www-form-urlencoded\")".to_owned());
        self.publisher = Some("HttpRequest.BodyPublishers.ofString(form)".to_owned());
    }

    fn multipart_start(&mut self) {
        self.imports.extend(["java.io.ByteArrayOutputStream", "java.util.UUID"]);
        self.utf8 = true;
        self.helpers.push(JAVA_PART);
        self.lines.push("String boundary = \"PetstoreBoundary\" + UUID.randomUUID();".to_owned());
        self.lines.push("ByteArrayOutputStream body = new ByteArrayOutputStream();".to_owned());
    }

    fn text_part(&mut self, name: &str, text: &str) {
        let s = c_like_str;
        let disposition = content_disposition(name, None);
        self.lines.push(format!("body.writeBytes(partHeader(boundary, {}, null));", s(&disposition)));
        self.lines.push(format!("body.writeBytes({}.getBytes(UTF_8));", s(text)));
        self.lines.push("body.writeBytes(\"\\r\\n\".getBytes(UTF_8));".to_owned());
    }

    fn file_part(&mut self, name: &str, file: &str, kind: &str) {
        let s = c_like_str;
        let disposition = content_disposition(name, Some(file));
        self.imports.extend(["java.nio.file.Files", "java.nio.file.Path"]);
        self.lines.push(format!("body.writeBytes(partHeader(boundary, {}, {}));", s(&disposition), s(kind)));
        self.lines.push(format!("body.writeBytes(Files.readAllBytes(Path.of({})));", s(file)));
        self.lines.push("body.writeBytes(\"\\r\\n\".getBytes(UTF_8));".to_owned());
    }

    fn multipart_end(&mut self) {
        self.lines.push("body.writeBytes((\"--\" + boundary + \"--\\r\\n\").getBytes(UTF_8));".to_owned());
        self.builder
            .push(".header(\"Content-Type\", \"multipart/form-data; boundary=\" + boundary)".to_owned());
        self.publisher = Some("HttpRequest.BodyPublishers.ofByteArray(body.toByteArray())".to_owned());
    }
}

/// Whether .NET keeps a header on the content rather than on the request.
pub(super) fn is_content_header(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    lower.starts_with("content-") || matches!(lower.as_str(), "allow" | "expires" | "last-modified")
}

/// The C# statement that sets a text body. `ByteArrayContent` has no Content-Type of its own,
/// so the request's is the one sent.
pub(super) fn csharp_text_content(text: &str) -> String {
    format!(
        "request.Content = new ByteArrayContent(Encoding.UTF8.GetBytes(\n    {}));",
        c_like_lines(text, "    ")
    )
}

/// The C# sample of `r` with `body`: top-level statements that send the request and print the
/// answer.
pub(super) fn csharp(r: &Request, body: &Body<'_>) -> String {
    let s = c_like_str;
    let mut csharp = CSharp {
        usings: BTreeSet::from(["System", "System.Net.Http"]),
        lines: vec![
            "using var client = new HttpClient();".to_owned(),
            format!(
                "using var request = new HttpRequestMessage({}, {});",
                csharp_method(&r.method),
                s(&r.target)
            ),
        ],
        files: 0,
    };
    let headers = body.headers(r);
    for (name, value) in headers.iter().filter(|(n, _)| !is_content_header(n)) {
        csharp.lines.push(format!("request.Headers.TryAddWithoutValidation({}, {});", s(name), s(value)));
    }
    write_body(body, &mut csharp);
    let mut lines = csharp.lines;
    if body.is_some() {
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
    let usings: Vec<String> = csharp.usings.iter().map(|u| format!("using {u};")).collect();
    format!("{}\n\n{}", usings.join("\n"), lines.join("\n"))
}

/// The C# `HttpMethod` of `method`.
fn csharp_method(method: &str) -> String {
    match method {
        "GET" => "HttpMethod.Get".to_owned(),
        "POST" => "HttpMethod.Post".to_owned(),
        "PUT" => "HttpMethod.Put".to_owned(),
        "DELETE" => "HttpMethod.Delete".to_owned(),
        "PATCH" => "HttpMethod.Patch".to_owned(),
        "HEAD" => "HttpMethod.Head".to_owned(),
        "OPTIONS" => "HttpMethod.Options".to_owned(),
        other => format!("new HttpMethod({})", c_like_str(other)),
    }
}

/// A C# sample as it is written.
struct CSharp {
    /// The namespaces used.
    usings: BTreeSet<&'static str>,
    /// The statements.
    lines: Vec<String>,
    /// The form's files so far, which number their variables.
    files: usize,
}

impl BodyWriter for CSharp {
    fn text(&mut self, text: &str) {
        self.usings.insert("System.Text");
        self.lines.push(csharp_text_content(text));
    }

    fn binary(&mut self) {
        self.usings.insert("System.IO");
        self.lines.push(format!(
            "request.Content = new ByteArrayContent(File.ReadAllBytes({}));",
            c_like_str(BODY_FILE)
        ));
    }

    fn url_encoded(&mut self, form: &SampleForm) {
        let s = c_like_str;
        self.usings.insert("System.Collections.Generic");
        let pairs: Vec<String> =
            form.fields.iter().map(|(n, v)| format!("    new({}, {}),", s(n), s(v.as_text()))).collect();
        self.lines.push(format!(
            "request.Content = new FormUrlEncodedContent(new List<KeyValuePair<string, string>>\n{{\n{}\n}});",
            pairs.join("\n")
        ));
    }

    fn multipart_start(&mut self) {
        self.lines.push("var form = new MultipartFormDataContent();".to_owned());
    }

    // Names go escaped as browsers escape them: .NET does not escape `"` or line breaks.
    fn text_part(&mut self, name: &str, text: &str) {
        let s = c_like_str;
        self.lines.push(format!(
            "form.Add(new StringContent({}), {});",
            s(text),
            s(&escape_disposition_name(name))
        ));
    }

    fn file_part(&mut self, name: &str, file: &str, kind: &str) {
        let s = c_like_str;
        self.usings.insert("System.IO");
        self.files += 1;
        let var = format!("file{}", self.files);
        self.lines.push(format!("var {var} = new ByteArrayContent(File.ReadAllBytes({}));", s(file)));
        self.lines.push(format!("{var}.Headers.TryAddWithoutValidation(\"Content-Type\", {});", s(kind)));
        self.lines.push(format!(
            "form.Add({var}, {}, {});",
            s(&escape_disposition_name(name)),
            s(&escape_disposition_name(file))
        ));
    }

    fn multipart_end(&mut self) {
        self.lines.push("request.Content = form;".to_owned());
    }
}
