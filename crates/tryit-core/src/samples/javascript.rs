//! JavaScript: `fetch` (browsers and Node 18+).

use super::*;

/// A JavaScript string literal (JSON's quoting, valid JavaScript since ES2019).
pub(super) fn js(s: &str) -> String {
    Value::String(s.to_owned()).to_string()
}

pub(super) fn javascript(r: &Request, body: &Body<'_>) -> String {
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
