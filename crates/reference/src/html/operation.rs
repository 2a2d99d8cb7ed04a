//! One operation's reference: method and path, badges, the deprecation warning with its sunset
//! date, the description, security, parameters, request body, responses and callbacks (the
//! page adds the try-it panel and the code samples, which change as the reader works).

use super::{Html, schema_tree};
use crate::{CallbackView, ExternalDocs, OperationView, ResponseView, SecurityUse};

/// Writes what does not change of `view`'s reference.
pub fn operation(html: &mut Html<'_>, view: &OperationView) {
    html.raw(r#"<header class="detail-header">"#).method(view.method.as_str());
    html.element(
        "code",
        if view.deprecated { r#" class="path deprecated""# } else { r#" class="path""# },
        &view.path,
    );
    if view.webhook {
        html.raw(r#"<span class="badge badge-webhook" data-testid="detail-webhook">Webhook</span>"#);
    }
    if view.deprecated {
        html.raw(r#"<span class="badge badge-deprecated" data-testid="detail-deprecated">Deprecated</span>"#);
    }
    if let Some(stability) = view.stability {
        html.raw(r#"<span class="badge badge-"#)
            .raw(stability.as_str())
            .raw(r#"" data-testid="detail-stability">"#)
            .raw(stability.label())
            .raw("</span>");
    }
    html.raw("</header>");
    if view.webhook {
        html.raw(r#"<p class="hint">A request the API sends to an address you give it; your server answers with one of the responses below.</p>"#);
    }
    html.element(
        "h2",
        r#" class="detail-summary" tabindex="-1""#,
        view.summary.as_deref().unwrap_or(&view.path),
    );
    if !view.problems.is_empty() {
        html.raw(r#"<div class="warning" role="note" data-testid="view-problems"><p>Part of this operation could not be shown:</p><ul>"#);
        for problem in &view.problems {
            html.element("li", "", problem);
        }
        html.raw("</ul></div>");
    }
    if let Some(warning) = view.deprecation_warning() {
        html.element("p", r#" class="warning" role="note" data-testid="deprecation-warning""#, &warning);
    }
    if let Some(description) = &view.description {
        html.markdown(description);
    }
    if let Some(docs) = &view.external_docs {
        external_docs(html, docs);
    }
    security(html, &view.security);
    exchange(html, view, true);
    if !view.callbacks.is_empty() {
        callbacks(html, &view.callbacks);
    }
}

/// A link to `externalDocs`: its description, else its address.
pub(super) fn external_docs(html: &mut Html<'_>, docs: &ExternalDocs) {
    html.raw(r#"<p class="external-docs" data-testid="external-docs">"#)
        .external_link(&docs.url, docs.description.as_deref().unwrap_or(&docs.url))
        .raw("</p>");
}

/// Parameters, request body and responses. `slots`: the Example blocks carry
/// `data-example` (an [`crate::ExampleSlot::at`]) and their notes `data-example-note`, which the
/// page fills from the try-it module (a callback's are left as they are).
fn exchange(html: &mut Html<'_>, view: &OperationView, slots: bool) {
    if !view.parameters.is_empty() {
        html.raw(r#"<section class="parameters" data-testid="parameters"><h3>Parameters</h3><ul class="param-list">"#);
        for p in &view.parameters {
            html.raw(r#"<li class="param" data-testid="parameter""#).attr("data-name", &p.name).raw(">");
            html.element("code", r#" class="prop-name""#, &p.name).raw(" ");
            html.element("span", r#" class="param-in""#, &format!("in {}", p.location));
            if p.required {
                html.raw(r#" <span class="required">required</span>"#);
            }
            if p.deprecated {
                html.raw(r#" <span class="badge badge-deprecated">Deprecated</span>"#);
            }
            html.raw(" ");
            schema_tree(html, &p.schema);
            if let Some(description) = &p.description {
                html.markdown(description);
            }
            html.raw("</li>");
        }
        html.raw("</ul></section>");
    }
    if let Some(body) = &view.request_body {
        html.raw(r#"<section class="request-body" data-testid="request-body"><h3>Request body "#);
        html.element("span", r#" class="media-type""#, &body.media_type);
        if body.required {
            html.raw(r#" <span class="required">required</span>"#);
        }
        html.raw("</h3>");
        if let Some(description) = &body.description {
            html.markdown(description);
        }
        schema_tree(html, &body.schema);
        let at = slots.then_some("request");
        html.raw("<h4>Example</h4>").example(&slot_attrs("", at), &body.example);
        html.example_notes(&note_attrs(at), &body.example_notes);
        html.raw("</section>");
    }
    html.raw(r#"<section class="responses" data-testid="responses"><h3>Responses</h3>"#);
    for (i, response) in view.responses.iter().enumerate() {
        self::response(html, response, slots.then_some(i));
    }
    html.raw("</section>");
}

/// ` data-example="<at>"` after `attrs`, when the block is a slot.
fn slot_attrs(attrs: &str, at: Option<&str>) -> String {
    match at {
        Some(at) => format!(r#"{attrs} data-example="{}""#, super::escape(at)),
        None => attrs.to_owned(),
    }
}

/// The attributes of an Example block's notes.
fn note_attrs(at: Option<&str>) -> String {
    slot_attrs(r#" class="hint" data-testid="example-notes""#, at)
        .replace("data-example=", "data-example-note=")
}

/// One response; `index`: its position, when its Example blocks are slots.
fn response(html: &mut Html<'_>, response: &ResponseView, index: Option<usize>) {
    let class = match response.status.chars().next() {
        Some('2') => "status status-ok",
        Some('4' | '5') => "status status-error",
        _ => "status",
    };
    html.raw(r#"<details class="response" data-testid="response""#).attr("data-status", &response.status);
    html.raw("><summary>")
        .raw(r#"<span class=""#)
        .raw(class)
        .raw(r#"">"#)
        .text(&response.status)
        .raw("</span> ");
    html.element("span", r#" class="response-description""#, &response.description).raw("</summary>");
    if !response.headers.is_empty() {
        html.raw(r#"<h4>Headers</h4><ul class="param-list">"#);
        for (name, description, schema) in &response.headers {
            html.raw(r#"<li class="param">"#).element("code", r#" class="prop-name""#, name).separator();
            schema_tree(html, schema);
            if let Some(description) = description {
                html.markdown(description);
            }
            html.raw("</li>");
        }
        html.raw("</ul>");
    }
    if let Some(schema) = &response.schema {
        html.raw("<h4>Body ");
        html.element("span", r#" class="media-type""#, response.media_type.as_deref().unwrap_or_default());
        html.raw("</h4>");
        schema_tree(html, schema);
    }
    for (j, (label, value)) in response.examples.iter().enumerate() {
        let at = index.map(|i| format!("response/{i}/{j}"));
        html.element("h4", "", label)
            .example(&slot_attrs(r#" data-testid="response-example""#, at.as_deref()), value);
        html.example_notes(
            &note_attrs(at.as_deref()),
            if response.documented { &[] } else { &response.example_notes },
        );
    }
    html.raw("</details>");
}

/// What credentials an operation needs: each way in, its schemes used together.
fn security(html: &mut Html<'_>, alternatives: &[Vec<SecurityUse>]) {
    let open = alternatives.iter().any(Vec::is_empty);
    let ways: Vec<&Vec<SecurityUse>> = alternatives.iter().filter(|a| !a.is_empty()).collect();
    if ways.is_empty() {
        return;
    }
    let lead = if ways.len() == 1 { "Needs" } else { "Needs one of" };
    html.raw(r#"<section class="security" data-testid="security"><h3>Authorization</h3><p>"#)
        .raw(lead)
        .raw(r#":</p><ul class="security-list">"#);
    for together in ways {
        html.raw(r#"<li data-testid="security-way">"#);
        for (i, scheme) in together.iter().enumerate() {
            if i > 0 {
                html.raw(" and ");
            }
            html.raw(r#"<span class="security-scheme">"#)
                .element("code", "", &scheme.name)
                .raw(" (")
                .text(&scheme.kind);
            if !scheme.scopes.is_empty() {
                html.raw("; scopes ").text(&scheme.scopes.join(", "));
            }
            html.raw(")</span>");
        }
        html.raw("</li>");
    }
    html.raw("</ul>");
    if open {
        html.raw(r#"<p class="hint">It can also be called without credentials.</p>"#);
    }
    html.raw("</section>");
}

/// The requests the API sends back (`callbacks`): each expression's operations, folded.
fn callbacks(html: &mut Html<'_>, callbacks: &[CallbackView]) {
    html.raw(r#"<section class="callbacks" data-testid="callbacks"><h3>Callbacks</h3><p class="hint">Requests the API sends to the address given, once this operation is called.</p>"#);
    for callback in callbacks {
        for op in &callback.operations {
            html.raw(r#"<details class="callback" data-testid="callback""#).attr("data-name", &callback.name);
            html.raw("><summary>")
                .element("strong", "", &callback.name)
                .raw(" ")
                .method(op.method.as_str())
                .raw(" ");
            html.element("code", r#" class="path""#, &callback.expression).raw("</summary>");
            if let Some(summary) = &op.summary {
                html.element("p", "", summary);
            }
            if let Some(description) = &op.description {
                html.markdown(description);
            }
            exchange(html, op, false);
            html.raw("</details>");
        }
    }
    html.raw("</section>");
}
