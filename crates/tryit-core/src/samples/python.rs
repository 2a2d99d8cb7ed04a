//! Python: the `requests` package.

use super::*;

/// A Python string literal (JSON's quoting is valid Python).
pub(super) fn py(s: &str) -> String {
    Value::String(s.to_owned()).to_string()
}

/// A JSON value as a Python literal (`true` is `True`, `null` is `None`).
pub(super) fn python_literal(v: &Value, indent: usize) -> String {
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
pub(super) fn python_pairs(pairs: &[(String, String)], unique: bool) -> String {
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

pub(super) fn python(r: &Request, body: &Body<'_>) -> String {
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
