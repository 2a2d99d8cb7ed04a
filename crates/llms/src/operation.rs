//! An operation's page, written from the reference's view of it ([`OperationView`]).

use std::fmt::Write as _;

use playground_openapi::catalog::{Method, OperationSummary};
use playground_openapi::security::{ApiKeyIn, FlowKind, Scheme, SchemeKind};
use playground_reference::{BodyView, OperationView, ParameterView, ResponseView, SecurityUse};
use serde_json::Value;

use crate::schema::{Base, Trees, capitalized, constraint, joined, type_words};
use crate::text::{
    cell, code, continued, example_block, first_sentence, link, one_line, plain_paragraph, short_json,
    shorten,
};

/// At most this many examples of one response are shown.
const MAX_EXAMPLES: usize = 3;

/// At most this many characters of a title; a longer summary follows the title whole.
const MAX_TITLE_CHARS: usize = 120;

/// The page's title: the summary as plain text (its first sentence when it is long), else the
/// method and path.
pub(crate) fn title(op: &OperationSummary) -> String {
    match op.summary.as_deref().and_then(plain_paragraph) {
        Some(summary) if summary.chars().count() <= MAX_TITLE_CHARS => summary,
        Some(summary) => shorten(first_sentence(&summary), MAX_TITLE_CHARS),
        None if op.webhook => format!("Webhook {} {}", op.method.as_str(), one_line(&op.path)),
        None => format!("{} {}", op.method.as_str(), one_line(&op.path)),
    }
}

/// The summary when the title does not say all of it.
fn long_summary(op: &OperationSummary) -> Option<&str> {
    let summary = op.summary.as_deref()?.trim();
    (summary.chars().count() > MAX_TITLE_CHARS).then_some(summary)
}

/// The view of the operation a list entry names.
pub(crate) fn view(document: &Value, op: &OperationSummary) -> Result<OperationView, String> {
    OperationView::build_text(document, op.method, &op.path, op.webhook).map_err(|e| e.to_string())
}

/// The page of `op`: its view's text, or what kept it from being read. `tags` are the tags
/// that list it (name and title).
pub(crate) fn page(
    out: &mut String,
    op: &OperationSummary,
    view: Result<&OperationView, &str>,
    tags: &[(String, String)],
    base: Base,
) {
    let _ = write!(out, "# {}\n\n", title(op));
    let view = match view {
        Ok(view) => view,
        Err(problem) => {
            let _ = write!(out, "{}\n\nThis operation could not be read: {problem}\n", signature(op, None));
            return;
        }
    };
    heading(out, op, view, tags, base);
    servers(out, view);
    let _ = write!(out, "## Security\n\n{}\n", security(view));
    let mut trees = Trees::new(base);
    parameters(out, &view.parameters, &mut trees);
    if let Some(body) = &view.request_body {
        request_body(out, body, &mut trees);
    }
    responses(out, &view.responses, &mut trees);
    callbacks(out, view);
    if !view.problems.is_empty() {
        out.push_str("## Not shown\n\nParts of the description that could not be read:\n\n");
        for problem in &view.problems {
            let _ = writeln!(out, "- {}", one_line(problem));
        }
        out.push('\n');
    }
}

/// `` `METHOD /path` `` and the operationId, or the webhook's name.
fn signature(op: &OperationSummary, operation_id: Option<&str>) -> String {
    let mut line = if op.webhook {
        format!(
            "Webhook {}: the API sends {} to the receiver's address",
            code(&op.path),
            code(op.method.as_str())
        )
    } else {
        code(&format!("{} {}", op.method.as_str(), op.path))
    };
    if let Some(id) = operation_id.filter(|id| !id.trim().is_empty()) {
        let _ = write!(line, " · operationId {}", code(id));
    }
    line
}

/// The signature, the badges in words, the tags, the description and the external docs.
fn heading(
    out: &mut String,
    op: &OperationSummary,
    view: &OperationView,
    tags: &[(String, String)],
    base: Base,
) {
    let _ = write!(out, "{}\n\n", signature(op, view.operation_id.as_deref()));
    if let Some(summary) = long_summary(op) {
        let _ = write!(out, "{summary}\n\n");
    }
    if let Some(warning) = view.deprecation_warning() {
        let _ = write!(out, "**Deprecated.** {warning}\n\n");
    }
    if let Some(stability) = view.stability {
        let _ = write!(out, "**{}.** This operation may still change.\n\n", stability.label());
    }
    if !tags.is_empty() {
        let links: Vec<String> = tags
            .iter()
            .map(|(name, shown)| {
                link(
                    shown,
                    &base.to(&playground_openapi::outline::markdown_file(
                        &playground_openapi::outline::tag_anchor(name),
                    )),
                )
            })
            .collect();
        let _ = write!(out, "Tags: {}\n\n", links.join(", "));
    }
    if let Some(description) = view.description.as_deref().map(str::trim).filter(|d| !d.is_empty()) {
        let _ = write!(out, "{description}\n\n");
    }
    if let Some(docs) = &view.external_docs {
        let text = docs.description.as_deref().map_or_else(|| docs.url.clone(), one_line);
        let _ = write!(out, "See also: {}\n\n", link(&text, &docs.url));
    }
}

/// The base URLs, with their variables.
fn servers(out: &mut String, view: &OperationView) {
    if view.server_details.is_empty() {
        return;
    }
    out.push_str("## Servers\n\n");
    for server in &view.server_details {
        let _ = write!(out, "- {}", code(&server.url));
        if let Some(description) = server.description.as_deref().map(one_line).filter(|d| !d.is_empty()) {
            let _ = write!(out, ": {description}");
        }
        out.push('\n');
        for variable in &server.variables {
            let _ = write!(
                out,
                "  - {} defaults to {}",
                code(&format!("{{{}}}", variable.name)),
                code(&variable.default)
            );
            if !variable.choices.is_empty() {
                let choices: Vec<String> = variable.choices.iter().take(30).map(|c| code(c)).collect();
                let _ = write!(out, "; one of {}", choices.join(", "));
            }
            if let Some(description) = variable.description.as_deref().map(one_line) {
                let _ = write!(out, ". {description}");
            }
            out.push('\n');
        }
    }
    out.push('\n');
}

/// What the operation needs to be called, as a list (or "None").
fn security(view: &OperationView) -> String {
    if view.security.is_empty() {
        return "None: the operation needs no credentials.\n".to_owned();
    }
    let mut out = String::new();
    if view.security.len() > 1 {
        out.push_str("Any one of:\n\n");
    }
    for entry in &view.security {
        if entry.is_empty() {
            out.push_str("- No credentials (they are optional).\n");
            continue;
        }
        let each: Vec<String> = entry.iter().map(|used| security_use(used, &view.schemes)).collect();
        let _ = writeln!(out, "- {}", each.join("; together with "));
    }
    out.push('\n');
    out
}

/// One scheme an operation uses, in words, with the scopes it needs.
fn security_use(used: &SecurityUse, schemes: &[Scheme]) -> String {
    let words = schemes
        .iter()
        .find(|s| s.name == used.name)
        .map_or_else(|| used.kind.clone(), |s| scheme_words(&s.kind));
    let mut line = format!("{} ({words})", code(&used.name));
    if !used.scopes.is_empty() {
        let scopes: Vec<String> = used.scopes.iter().map(|s| code(s)).collect();
        let _ = write!(line, ", scopes {}", scopes.join(", "));
    }
    line
}

/// How a request carries a scheme's credentials, in words.
pub(crate) fn scheme_words(kind: &SchemeKind) -> String {
    match kind {
        SchemeKind::ApiKey { name, location } => match location {
            ApiKeyIn::Header => format!("API key in the header {}", code(name)),
            ApiKeyIn::Query => format!("API key in the query parameter {}", code(name)),
            ApiKeyIn::Cookie => format!("API key in the cookie {}", code(name)),
        },
        SchemeKind::Http { scheme, bearer_format } if scheme == "bearer" => {
            let format = bearer_format.as_deref().map(|f| format!(", a {}", one_line(f))).unwrap_or_default();
            format!("Bearer token in `Authorization: Bearer <token>`{format}")
        }
        SchemeKind::Http { scheme, .. } if scheme == "basic" => {
            "HTTP basic: `Authorization: Basic <base64 of user:password>`".to_owned()
        }
        SchemeKind::Http { scheme, .. } => format!("HTTP {} authentication in `Authorization`", code(scheme)),
        SchemeKind::OAuth2 { flows } => {
            let flows: Vec<String> = flows
                .iter()
                .map(|flow| {
                    let name = match flow.kind {
                        FlowKind::AuthorizationCode => "authorization code",
                        FlowKind::ClientCredentials => "client credentials",
                        FlowKind::Implicit => "implicit",
                        FlowKind::Password => "password",
                    };
                    match flow.token_url.as_deref().or(flow.authorization_url.as_deref()) {
                        Some(url) => format!("{name} flow at {}", code(url)),
                        None => format!("{name} flow"),
                    }
                })
                .collect();
            let flows = if flows.is_empty() { String::new() } else { format!(" ({})", flows.join(", ")) };
            format!("OAuth 2 access token in `Authorization: Bearer <token>`{flows}")
        }
        SchemeKind::OpenIdConnect { url, .. } => {
            format!("OpenID Connect token in `Authorization: Bearer <token>` (discovery at {})", code(url))
        }
        SchemeKind::MutualTls => "mutual TLS: a client certificate".to_owned(),
        SchemeKind::Unsupported(reason) => one_line(reason),
    }
}

/// The parameters as a table.
fn parameters(out: &mut String, parameters: &[ParameterView], trees: &mut Trees) {
    let base = trees.base;
    if parameters.is_empty() {
        return;
    }
    out.push_str("## Parameters\n\n| Name | In | Type | Required | Description |\n|---|---|---|---|---|\n");
    for p in parameters {
        let mut text = Vec::new();
        if p.deprecated {
            text.push("Deprecated.".to_owned());
        }
        if let Some(description) = p.description.as_deref().map(str::trim).filter(|d| !d.is_empty()) {
            text.push(description.to_owned());
        }
        if !p.schema.enumeration.is_empty() {
            let values: Vec<String> =
                p.schema.enumeration.iter().take(30).map(|v| code(&short_json(v, 60))).collect();
            let more = p.schema.enumeration.len().saturating_sub(30);
            let more = if more > 0 { format!(" and {more} more") } else { String::new() };
            text.push(format!("One of: {}{more}.", values.join(", ")));
        }
        if !p.schema.constraints.is_empty() {
            let limits: Vec<String> = p.schema.constraints.iter().map(|c| constraint(c)).collect();
            text.push(format!("{}.", capitalized(&limits.join("; "))));
        }
        if let Some(example) = &p.example {
            text.push(format!("Example: {}.", code(&short_json(example, 120))));
        }
        if p.repeated {
            text.push("Repeated for each value.".to_owned());
        }
        let mut kind = type_words(&p.schema, base);
        if p.schema.nullable {
            kind.push_str(", nullable");
        }
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} |",
            cell(&code(&p.name)),
            cell(&p.location),
            cell(&kind),
            if p.required { "yes" } else { "no" },
            cell(&joined(&text))
        );
    }
    out.push('\n');
    // An object parameter's fields do not fit a table cell: they follow it as lists.
    for p in parameters.iter().filter(|p| !p.schema.properties.is_empty()) {
        let _ = write!(out, "Fields of {}:\n\n", code(&p.name));
        trees.children(out, &p.schema, 0);
        out.push('\n');
    }
}

/// The request body: its media types, the schema's tree and an example.
fn request_body(out: &mut String, body: &BodyView, trees: &mut Trees) {
    out.push_str("## Request body\n\n");
    out.push_str(if body.required { "Required." } else { "Optional." });
    if let Some(description) = body.description.as_deref().map(str::trim).filter(|d| !d.is_empty()) {
        let _ = write!(out, " {}", continued(description, 0));
    }
    out.push_str("\n\n");
    if body.media_types.len() > 1 {
        let kinds: Vec<String> = body.media_types.iter().map(|m| code(&m.media_type)).collect();
        let _ = write!(out, "Media types: {}.\n\n", kinds.join(", "));
    }
    trees.tree(out, &format!("Schema ({}): ", code(&body.media_type)), &body.schema);
    let source = if body.documented { "from the description" } else { "generated from the schema" };
    let _ = write!(out, "Example request body ({source}):\n\n");
    example_block(out, &body.example, Some(&body.media_type));
    notes(out, &body.example_notes);
}

/// The responses, each with its headers, schema and examples.
fn responses(out: &mut String, responses: &[ResponseView], trees: &mut Trees) {
    let base = trees.base;
    if responses.is_empty() {
        return;
    }
    out.push_str("## Responses\n\n");
    for r in responses {
        let _ = write!(out, "### {}\n\n", one_line(&r.status));
        let description = r.description.trim();
        if !description.is_empty() {
            let _ = write!(out, "{description}\n\n");
        }
        if !r.headers.is_empty() {
            out.push_str("Headers:\n\n| Name | Type | Description |\n|---|---|---|\n");
            for (name, description, schema) in &r.headers {
                let _ = writeln!(
                    out,
                    "| {} | {} | {} |",
                    cell(&code(name)),
                    cell(&type_words(schema, base)),
                    cell(description.as_deref().unwrap_or_default())
                );
            }
            out.push('\n');
        }
        if let (Some(media_type), Some(schema)) = (&r.media_type, &r.schema) {
            trees.tree(out, &format!("Content ({}): ", code(media_type)), schema);
        }
        let shown = r.examples.len().min(MAX_EXAMPLES);
        for (label, value) in r.examples.iter().take(MAX_EXAMPLES) {
            let label = if r.documented { one_line(label) } else { "generated from the schema".to_owned() };
            if label == "Example" {
                out.push_str("Example:\n\n");
            } else {
                let _ = write!(out, "Example ({label}):\n\n");
            }
            example_block(out, value, r.media_type.as_deref());
        }
        if r.examples.len() > shown {
            let _ = write!(out, "{} more examples are in the description.\n\n", r.examples.len() - shown);
        }
        notes(out, &r.example_notes);
    }
}

/// What a generated example leaves out.
fn notes(out: &mut String, notes: &[String]) {
    if !notes.is_empty() {
        let notes: Vec<String> = notes.iter().map(|n| one_line(n)).collect();
        let _ = write!(out, "About the example: {}.\n\n", notes.join("; "));
    }
}

/// The requests the API sends back, each named with its operations.
fn callbacks(out: &mut String, view: &OperationView) {
    if view.callbacks.is_empty() {
        return;
    }
    out.push_str("## Callbacks\n\nRequests the API sends to an address the request gives:\n\n");
    for callback in &view.callbacks {
        let _ = writeln!(out, "- {} to {}", code(&callback.name), code(&callback.expression));
        for op in &callback.operations {
            let summary = op.summary.as_deref().map(|s| format!(": {}", one_line(s))).unwrap_or_default();
            let _ = writeln!(out, "  - {}{summary}", code(op.method.as_str()));
        }
    }
    out.push('\n');
}

/// The method and path of an operation, for lists.
pub(crate) fn method_path(method: Method, path: &str, webhook: bool) -> String {
    if webhook {
        format!("{} {} (webhook)", method.as_str(), one_line(path))
    } else {
        format!("{} {}", method.as_str(), one_line(path))
    }
}
