//! The sections of an operation's view, each read on its own: parameters, request body,
//! responses, code samples, servers, security schemes and callbacks. A section that cannot be
//! read is named in the view's `problems`; the others are still shown.

use super::*;

/// The operation's parameters, the path item's first and then the operation's own, which
/// replace a path item's of the same name and location; one that cannot be read is named in
/// `problems`.
pub(crate) fn parameters(
    doc: &Value,
    item: &Value,
    op: &Value,
    reader: Reader,
    problems: &mut Vec<String>,
) -> Vec<ParameterView> {
    let mut parameters: Vec<ParameterView> = Vec::new();
    for (p, own) in
        listed(item, "parameters").map(|p| (p, false)).chain(listed(op, "parameters").map(|p| (p, true)))
    {
        match parameter(doc, p, reader) {
            Ok(view) => {
                if own {
                    parameters.retain(|q| !(q.name == view.name && q.location == view.location));
                }
                parameters.push(view);
            }
            Err(e) => problems.push(format!("A parameter is not shown: {e}.")),
        }
    }
    parameters
}

/// The operation's request body, when it has one that can be read; one that cannot is named in
/// `problems`.
pub(crate) fn request_body(
    doc: &Value,
    op: &Value,
    reader: Reader,
    problems: &mut Vec<String>,
) -> Option<BodyView> {
    op.get("requestBody").and_then(|b| match body(doc, b, reader) {
        Ok(view) => view,
        Err(e) => {
            problems.push(format!("The request body is not shown: {e}."));
            None
        }
    })
}

/// The operation's responses in document order, without extensions; one that cannot be read is
/// named in `problems`.
pub(crate) fn responses(
    doc: &Value,
    op: &Value,
    reader: Reader,
    problems: &mut Vec<String>,
) -> Vec<ResponseView> {
    let mut responses = Vec::new();
    for (status, r) in op.get("responses").and_then(Value::as_object).into_iter().flatten() {
        if status.starts_with("x-") {
            continue;
        }
        match response(doc, status, r, reader, problems) {
            Ok(view) => responses.push(view),
            Err(e) => problems.push(format!("The response {status} is not shown: {e}.")),
        }
    }
    responses
}

/// The code samples the operation asks for: none (`x-codeSamples: false`), its own
/// (`x-codeSamples` or `x-code-samples`), or the generated ones.
pub(crate) fn code_samples(op: &Value) -> CodeSamples {
    let text = |v: &Value, key: &str| v.get(key).and_then(Value::as_str).map(str::to_owned);
    match op.get("x-codeSamples").or_else(|| op.get("x-code-samples")) {
        Some(Value::Bool(false)) => CodeSamples::Hidden,
        Some(Value::Array(list)) if !list.is_empty() => CodeSamples::Custom(
            list.iter()
                .filter_map(|s| {
                    let lang = text(s, "lang")?;
                    let source = text(s, "source")?;
                    Some(CustomSample {
                        label: text(s, "label").unwrap_or_else(|| lang.clone()),
                        lang,
                        source,
                    })
                })
                .collect(),
        ),
        _ => CodeSamples::Generated,
    }
}

/// The operation's servers, as addresses and in full: the first non-empty list of the
/// operation's, the path item's and the document's.
pub(crate) fn servers(
    doc: &Value,
    item: &Value,
    op: &Value,
) -> (Vec<String>, Vec<playground_openapi::servers::Server>) {
    let server_list = [op.get("servers"), item.get("servers"), doc.get("servers")]
        .into_iter()
        .flatten()
        .find(|s| s.as_array().is_some_and(|s| !s.is_empty()));
    let servers = server_list
        .and_then(Value::as_array)
        .map(|s| s.iter().filter_map(|s| s.get("url").and_then(Value::as_str).map(server_url)).collect())
        .unwrap_or_default();
    let server_details = server_list.map(playground_openapi::servers::read_servers).unwrap_or_default();
    (servers, server_details)
}

/// The security schemes `security` names, each once, in the order first named.
pub(crate) fn schemes(
    doc: &Value,
    security: &[Vec<SecurityUse>],
) -> Vec<playground_openapi::security::Scheme> {
    let mut named: Vec<&str> = Vec::new();
    for way in security {
        for used in way {
            if !named.contains(&used.name.as_str()) {
                named.push(&used.name);
            }
        }
    }
    let all = if named.is_empty() { Vec::new() } else { playground_openapi::security::schemes(doc) };
    named.iter().filter_map(|name| all.iter().find(|s| s.name == *name).cloned()).collect()
}

/// The operation's callbacks in document order; a part that cannot be read is named in
/// `problems`.
pub(crate) fn callbacks(
    doc: &Value,
    op: &Value,
    reader: Reader,
    problems: &mut Vec<String>,
) -> Vec<CallbackView> {
    let mut callbacks = Vec::new();
    for (name, callback) in op.get("callbacks").and_then(Value::as_object).into_iter().flatten() {
        match follow(doc, callback) {
            Ok(callback) => callbacks.extend(callback_views(doc, name, callback, reader, problems)),
            Err(e) => problems.push(format!("The callback {name} is not shown: {e}.")),
        }
    }
    callbacks
}

/// The expressions of one callback, each with its operations; a part that cannot be read is
/// named in `problems`.
pub(crate) fn callback_views(
    doc: &Value,
    name: &str,
    callback: &Value,
    reader: Reader,
    problems: &mut Vec<String>,
) -> Vec<CallbackView> {
    let mut out = Vec::new();
    for (expression, item) in callback.as_object().into_iter().flatten() {
        if expression.starts_with("x-") {
            continue;
        }
        let item = match follow(doc, item) {
            Ok(item) => item,
            Err(e) => {
                problems.push(format!("The callback {name} is not shown: {e}."));
                continue;
            }
        };
        let operations = playground_openapi::catalog::METHODS
            .iter()
            .filter(|m| item.get(m.as_str().to_ascii_lowercase()).is_some_and(Value::is_object))
            .filter_map(|m| OperationView::build_in(doc, item, *m, expression, Kind::Callback, reader).ok())
            .collect();
        out.push(CallbackView { name: name.to_owned(), expression: expression.clone(), operations });
    }
    out
}

/// The entries of the list `key` of `value` (none when it is missing or not a list).
pub(crate) fn listed<'a>(value: &'a Value, key: &str) -> impl Iterator<Item = &'a Value> {
    value.get(key).and_then(Value::as_array).into_iter().flatten()
}
