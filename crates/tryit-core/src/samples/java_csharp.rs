//! Java (`java.net.http`, a class with `main`) and C# (`HttpClient`, top-level
//! statements), which quote strings alike.

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

pub(super) fn java(r: &Request, body: &Body<'_>) -> String {
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

pub(super) fn csharp(r: &Request, body: &Body<'_>) -> String {
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
