//! Code samples for a request: cURL, JavaScript (`fetch`) and Python (`requests`), built from
//! the same [`Request`] the try-it panel sends, so what a reader copies is exactly what the page
//! ran.

use serde_json::Value;

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
}

impl Lang {
    /// Every language, in the order the tabs show them.
    pub const ALL: [Lang; 3] = [Lang::Curl, Lang::JavaScript, Lang::Python];

    /// The tab label.
    #[must_use]
    pub const fn label(self) -> &'static str {
        match self {
            Lang::Curl => "cURL",
            Lang::JavaScript => "JavaScript",
            Lang::Python => "Python",
        }
    }
}

/// A request's body as the samples write it.
enum Body {
    None,
    /// JSON: written as the language's literal.
    Json(Value),
    /// Anything else: written as a string.
    Text(String),
}

impl Body {
    fn of(request: &Request) -> Self {
        if request.body.is_empty() {
            return Self::None;
        }
        let text = String::from_utf8_lossy(&request.body);
        // `from_str`, as everywhere in the page: one JSON reader in the wasm, not two.
        serde_json::from_str(&text).map_or_else(|_| Self::Text(text.into_owned()), Self::Json)
    }
}

/// The sample of `request` in `lang`.
#[must_use]
pub fn generate(lang: Lang, request: &Request) -> String {
    match lang {
        Lang::Curl => curl(request),
        Lang::JavaScript => javascript(request),
        Lang::Python => python(request),
    }
}

/// Quotes for a POSIX shell: single quotes, with `'` written as `'\''`.
fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

fn curl(r: &Request) -> String {
    let mut lines = vec![if r.method == "GET" {
        format!("curl -i {}", shell_quote(&r.target))
    } else {
        format!("curl -i -X {} {}", r.method, shell_quote(&r.target))
    }];
    for (name, value) in &r.headers {
        lines.push(format!("  -H {}", shell_quote(&format!("{name}: {value}"))));
    }
    match Body::of(r) {
        Body::None => {}
        Body::Json(body) => lines.push(format!("  --data-raw {}", shell_quote(&body.to_string()))),
        Body::Text(body) => lines.push(format!("  --data-raw {}", shell_quote(&body))),
    }
    lines.join(" \\\n")
}

fn javascript(r: &Request) -> String {
    let js = |s: &str| Value::String(s.to_owned()).to_string();
    let mut options = Vec::new();
    if r.method != "GET" {
        options.push(format!("  method: {},", js(&r.method)));
    }
    if !r.headers.is_empty() {
        let headers: Vec<String> =
            r.headers.iter().map(|(n, v)| format!("    {}: {},", js(n), js(v))).collect();
        options.push(format!("  headers: {{\n{}\n  }},", headers.join("\n")));
    }
    match Body::of(r) {
        Body::None => {}
        Body::Json(body) => {
            let pretty = serde_json::to_string_pretty(&body).unwrap_or_default().replace('\n', "\n  ");
            options.push(format!("  body: JSON.stringify({pretty}),"));
        }
        Body::Text(body) => options.push(format!("  body: {},", js(&body))),
    }
    let call = if options.is_empty() {
        format!("const response = await fetch({});", js(&r.target))
    } else {
        format!("const response = await fetch({}, {{\n{}\n}});", js(&r.target), options.join("\n"))
    };
    format!(
        "{call}\nconst text = await response.text();\nconsole.log(response.status, text ? JSON.parse(text) : null);"
    )
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
        Value::String(s) => Value::String(s.clone()).to_string(),
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
                .map(|(k, v)| {
                    format!("{pad}{}: {},", Value::String(k.clone()), python_literal(v, indent + 1))
                })
                .collect();
            format!("{{\n{}\n{close}}}", inner.join("\n"))
        }
    }
}

fn python(r: &Request) -> String {
    let mut args = vec![format!("    {},", Value::String(r.target.clone()))];
    let body = Body::of(r);
    // `json=` sets the Content-Type itself.
    let headers: Vec<&(String, String)> = r
        .headers
        .iter()
        .filter(|(n, _)| !(matches!(body, Body::Json(_)) && n.eq_ignore_ascii_case("content-type")))
        .collect();
    if !headers.is_empty() {
        let h: Vec<String> = headers
            .iter()
            .map(|(n, v)| format!("        {}: {},", Value::String(n.clone()), Value::String(v.clone())))
            .collect();
        args.push(format!("    headers={{\n{}\n    }},", h.join("\n")));
    }
    match &body {
        Body::None => {}
        Body::Json(body) => args.push(format!("    json={},", python_literal(body, 1))),
        Body::Text(body) => args.push(format!("    data={},", Value::String(body.clone()))),
    }
    args.push("    timeout=10,".into());
    format!(
        "import requests\n\nresponse = requests.request(\n    {},\n{}\n)\nprint(response.status_code, response.text)",
        Value::String(r.method.clone()),
        args.join("\n")
    )
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
}
