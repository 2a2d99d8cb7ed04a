//! The reference's read-only parts as HTML (`playground_reference::html`): what each page shows, that
//! every value from the document is escaped and every element closed, and that descriptions are
//! rendered Markdown when the renderer is ready and marked plain text when it is not.
#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test, with its location

use petstore::document::PETSTORE_JSON;
use playground_openapi::catalog::Method;
use playground_openapi::document::AnyDocument;
use playground_reference::DocumentViews;
use playground_reference::Overview;
use playground_reference::html::{self, Html, MARKDOWN_SOURCE};
use playground_reference::markdown;
use serde_json::{Value, json};

fn rendered(source: &str) -> Option<String> {
    Some(markdown::to_safe_html(source))
}

fn not_ready(_: &str) -> Option<String> {
    None
}

fn write(markdown: html::Markdown<'_>, f: impl FnOnce(&mut Html<'_>)) -> (String, bool) {
    let mut out = Html::new(markdown);
    f(&mut out);
    let pending = out.markdown_pending();
    (out.finish(), pending)
}

/// Every element opened is closed, in order (the writer emits no void elements; Markdown may).
fn assert_balanced(html: &str) {
    const VOID: [&str; 4] = ["br", "hr", "img", "input"];
    let mut open: Vec<String> = Vec::new();
    let mut rest = html;
    while let Some(at) = rest.find('<') {
        rest = &rest[at + 1..];
        let end = rest.find('>').unwrap_or_else(|| panic!("an unclosed tag in {html}"));
        let tag = &rest[..end];
        rest = &rest[end + 1..];
        let closing = tag.strip_prefix('/');
        let name: String =
            closing.unwrap_or(tag).chars().take_while(char::is_ascii_alphanumeric).collect::<String>();
        match closing {
            Some(_) => assert_eq!(open.pop().as_deref(), Some(name.as_str()), "in {html}"),
            None if VOID.contains(&name.as_str()) || tag.ends_with('/') => {}
            None => open.push(name),
        }
    }
    assert!(open.is_empty(), "left open: {open:?} in {html}");
}

fn petstore() -> AnyDocument {
    AnyDocument::whole(serde_json::from_str(PETSTORE_JSON).unwrap())
}

#[test]
fn an_operation_shows_its_parameters_body_responses_and_badges() {
    let doc = petstore();
    let view = doc.operation_view(Method::Post, "/pets").unwrap();
    let (out, pending) = write(&rendered, |h| html::operation(h, &view));
    assert_balanced(&out);
    assert!(!pending);
    assert!(out.starts_with(r#"<header class="detail-header"><span class="method method-post">POST</span><code class="path">/pets</code>"#), "{out}");
    assert!(out.contains(r#"<section class="request-body" data-testid="request-body"><h3>Request body <span class="media-type">application/json</span> <span class="required">required</span></h3>"#));
    let sep = html::SEPARATOR;
    assert!(out.contains(&format!(
        r#"<li class="schema-prop" data-testid="schema-prop" data-name="name">{sep}<code class="prop-name">name</code>{sep}<span class="required" data-testid="required">required</span>{sep}"#
    )));
    assert!(
        out.contains(r#"<span class="schema-limit" data-testid="schema-limit">1 to 100 characters</span>"#)
    );
    let statuses: Vec<&str> =
        out.split(r#"data-testid="response" data-status=""#).skip(1).map(|s| &s[..3]).collect();
    assert_eq!(statuses, ["201", "400", "409", "413", "415", "422"]);
    assert!(out.contains(r#"<span class="status status-ok">201</span>"#));
    assert!(out.contains(r#"<span class="status status-error">422</span>"#));

    let listed = doc.operation_view(Method::Get, "/pets").unwrap();
    let (out, _) = write(&rendered, |h| html::operation(h, &listed));
    let params: Vec<&str> = out
        .split(r#"data-testid="parameter" data-name=""#)
        .skip(1)
        .map(|s| &s[..s.find('"').unwrap()])
        .collect();
    assert_eq!(params, ["status", "categoryId", "limit", "offset"]);
    assert!(out.contains("one of <code>available</code> <code>pending</code> <code>sold</code> "));
}

#[test]
fn deprecation_stability_and_security_are_written() {
    let doc = json!({
        "openapi": "3.0.3", "info": {"title": "T", "version": "1"},
        "components": {"securitySchemes": {
            "key": {"type": "apiKey", "in": "header", "name": "X-Key"},
            "oauth": {"type": "oauth2", "flows": {"implicit": {"authorizationUrl": "https://a.example/auth", "scopes": {"read": "r"}}}}}},
        "paths": {"/old": {"get": {
            "deprecated": true, "x-deprecated-sunset": "2027-01-01", "x-stability": "beta",
            "security": [{"key": [], "oauth": ["read"]}, {}],
            "responses": {"200": {"description": "ok"}}}}}
    });
    let view = AnyDocument::whole(doc).operation_view(Method::Get, "/old").unwrap();
    let (out, _) = write(&rendered, |h| html::operation(h, &view));
    assert_balanced(&out);
    assert!(out.contains(r#"<code class="path deprecated">/old</code>"#));
    assert!(out.contains(r#"data-testid="detail-deprecated">Deprecated</span><span class="badge badge-beta" data-testid="detail-stability">Beta</span>"#));
    assert!(out.contains("will be sunset on 2027-01-01."), "{out}");
    assert!(
        out.contains(r#"<li data-testid="security-way"><span class="security-scheme"><code>key</code> ("#),
        "{out}"
    );
    assert!(out.contains(" and <span class=\"security-scheme\"><code>oauth</code> ("), "{out}");
    assert!(out.contains("<code>oauth</code> (OAuth 2, implicit flow; scopes read)</span>"), "{out}");
    // One pair of brackets per label.
    for label in out.split(r#"<span class="security-scheme">"#).skip(1) {
        let label = &label[..label.find("</span>").unwrap()];
        let mut depth = 0;
        for c in label.chars() {
            depth += match c {
                '(' => 1,
                ')' => -1,
                _ => 0,
            };
            assert!(depth <= 1, "nested brackets in {label}");
        }
    }
    assert!(out.contains("It can also be called without credentials."));
}

/// A document whose every shown value tries to become markup.
fn hostile() -> Value {
    let evil = r#"<script>alert(1)</script>"#;
    let attr = r#"x" onmouseover="alert(2)"#;
    json!({
        "openapi": "3.1.0",
        "info": {"title": evil, "version": "1", "summary": evil, "description": format!("{evil} [a](javascript:alert(3))"),
            "license": {"name": evil, "url": "javascript:alert(4)"},
            "contact": {"name": evil, "url": "https://example.com/\"><script>"},
            "termsOfService": "javascript:alert(5)"},
        "externalDocs": {"url": "https://example.com/x\" onclick=\"alert(6)", "description": evil},
        "tags": [{"name": attr, "description": evil}],
        "paths": {format!("/p/{{{attr}}}"): {"get": {
            "tags": [attr], "summary": evil, "operationId": attr,
            "parameters": [{"name": attr, "in": "path", "required": true,
                "schema": {"type": "string", "enum": [evil], "description": evil}}],
            "responses": {evil: {"description": evil,
                "headers": {attr: {"schema": {"type": "string"}, "description": evil}},
                "content": {"application/json": {"schema": {"$ref": format!("#/components/schemas/{}", "a%22b")},
                    "example": {"x": evil}}}}},
            "callbacks": {attr: {evil: {"post": {"summary": evil, "responses": {"200": {"description": evil}}}}}}
        }}},
        "components": {"schemas": {"a\"b": {"type": "object", "description": evil,
            "properties": {attr: {"type": "string", "format": evil}}}}}
    })
}

#[test]
fn nothing_from_a_document_becomes_markup_and_unsafe_links_are_dropped() {
    let doc = AnyDocument::whole(hostile());
    let catalog = doc.catalog().unwrap();
    let overview = Overview::from_root(doc.root().unwrap());
    let mut pages = Vec::new();
    for markdown in [&rendered as html::Markdown<'_>, &not_ready] {
        pages.push(write(markdown, |h| html::overview(h, &catalog, &overview, true)).0);
        let tag = catalog.groups[0].name.clone();
        let (out, _) = write(markdown, |h| assert!(html::tag_page(h, &catalog, &overview, &tag)));
        pages.push(out);
        let op = catalog.operations().next().unwrap();
        let view = doc.view_of(op).unwrap();
        assert!(!view.callbacks.is_empty());
        pages.push(write(markdown, |h| html::operation(h, &view)).0);
        let names = doc.schema_names().unwrap();
        pages.push(write(markdown, |h| html::schema_list(h, &names)).0);
        let schema = doc.schema_view(&names[0]).unwrap();
        pages.push(write(markdown, |h| html::schema_page(h, &schema)).0);
    }
    for page in pages {
        assert_balanced(&page);
        assert!(!page.contains("<script"), "{page}");
        assert!(!page.contains("\" on"), "an attribute escaped its quotes: {page}");
        assert!(!page.contains("href=\"javascript"), "{page}");
        let shown = if page.contains("schema-index") { "<code>a&quot;b</code>" } else { "&lt;script&gt;" };
        assert!(page.contains(shown), "the text is still shown: {page}");
    }
}

#[test]
fn descriptions_wait_for_the_renderer_as_marked_plain_text() {
    let doc = petstore();
    let catalog = doc.catalog().unwrap();
    let overview = Overview::from_root(doc.root().unwrap());
    let (out, pending) = write(&not_ready, |h| html::overview(h, &catalog, &overview, false));
    assert!(pending);
    let marked =
        format!(r#"<div class="markdown markdown-plain" {MARKDOWN_SOURCE}>A stateful petstore: **pets**"#);
    assert!(out.contains(&marked), "{out}");
    assert!(!out.contains("download-document"), "no download without a document to save");

    let (out, pending) = write(&rendered, |h| html::overview(h, &catalog, &overview, true));
    assert!(!pending);
    assert!(out.contains(r#"<div class="markdown"><p>A stateful petstore: <strong>pets</strong>"#), "{out}");
    assert!(
        out.contains(&format!(r#"data-testid="download-document" data-action="{}">"#, html::DOWNLOAD_ACTION))
    );
    assert!(out.contains(r##"<a href="#schemas" data-testid="schemas-link">Schemas</a>"##));
    assert!(out.contains(r##"<dt><a href="#tag/Pets">Pets</a></dt>"##), "{out}");
}

#[test]
fn schema_pages_link_components_and_show_an_example() {
    let doc = petstore();
    let names = doc.schema_names().unwrap();
    let (out, _) = write(&rendered, |h| html::schema_list(h, &names));
    assert_balanced(&out);
    assert!(out.contains(&format!(r#"<h2 tabindex="-1">Schemas ({})</h2>"#, names.len())));
    assert!(out.contains(r##"<li><a href="#schema/Pet"><code>Pet</code></a></li>"##));
    let (empty, _) = write(&rendered, |h| html::schema_list(h, &[]));
    assert!(empty.contains("This document has no component schemas."));

    let pet = doc.schema_view("Pet").unwrap();
    let (out, _) = write(&rendered, |h| html::schema_page(h, &pet));
    assert_balanced(&out);
    assert!(out.starts_with(r#"<section class="schema-page" data-testid="schema-page" data-schema="Pet">"#));
    assert!(
        out.contains(r##"<a href="#schema/PetStatus" data-testid="schema-link">PetStatus</a>"##),
        "{out}"
    );
    assert!(
        out.contains(r#"<pre class="example" data-testid="schema-example" data-example="schema"><code>{"#)
    );
}

#[test]
fn an_unknown_page_is_an_alert() {
    let (out, _) = write(&rendered, |h| html::error(h, "unknown-operation", "There is no operation #<x>."));
    assert_eq!(
        out,
        r#"<p class="load-error" role="alert" data-testid="unknown-operation">There is no operation #&lt;x&gt;.</p>"#
    );
    let doc = petstore();
    let catalog = doc.catalog().unwrap();
    let (out, _) = write(&rendered, |h| assert!(!html::tag_page(h, &catalog, &Overview::default(), "nope")));
    assert!(out.is_empty());
}
