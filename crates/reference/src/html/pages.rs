//! The reference's pages besides an operation: the overview (`#`), a tag's page
//! (`#tag/<name>`), the list of component schemas (`#schemas`) and one schema
//! (`#schema/<name>`).

use super::operation::external_docs;
use super::{Html, plural, schema_tree};
use crate::{Overview, SchemaView};
use playground_openapi::catalog::{Catalog, OperationSummary, TagSection};
use playground_openapi::outline::{SCHEMAS_ANCHOR, schema_anchor, tag_anchor};

/// The `data-action` of the overview's "Download the document" button: the page handles its
/// click.
pub const DOWNLOAD_ACTION: &str = "download";

/// The overview: summary, description, licence, contact, terms, external docs, the document
/// download (when `download`), then every tag with its description.
pub fn overview(html: &mut Html<'_>, catalog: &Catalog, overview: &Overview, download: bool) {
    html.raw(r#"<section class="overview" data-testid="overview">"#);
    if let Some(summary) = &overview.summary {
        html.element("p", r#" class="doc-summary" data-testid="doc-summary""#, summary);
    }
    if let Some(description) = &catalog.description {
        html.markdown(description);
    }
    let has_facts =
        overview.license.is_some() || overview.contact.is_some() || overview.terms_of_service.is_some();
    if has_facts {
        html.raw(r#"<ul class="doc-facts" data-testid="doc-facts">"#);
        if let Some(license) = &overview.license {
            fact(html, "Licence: ", &license.name, license.url.as_deref());
        }
        if let Some((name, link)) = &overview.contact {
            fact(html, "Contact: ", name, link.as_deref());
        }
        if let Some(url) = &overview.terms_of_service {
            html.raw("<li>").external_link(url, "Terms of service").raw("</li>");
        }
        html.raw("</ul>");
    }
    if let Some(docs) = &overview.external_docs {
        external_docs(html, docs);
    }
    html.raw(r#"<p class="doc-links">"#);
    if download {
        html.raw(r#"<button type="button" class="button button-quiet" data-testid="download-document" data-action=""#)
            .raw(DOWNLOAD_ACTION)
            .raw(r#"">Download the document</button>"#);
    }
    html.anchor_link(SCHEMAS_ANCHOR, r#" data-testid="schemas-link""#, "Schemas");
    let webhooks = catalog.webhook_count();
    if webhooks > 0 {
        html.raw(" ").element(
            "span",
            r#" class="hint""#,
            &format!("{webhooks} webhook{} listed at the end", plural(webhooks)),
        );
    }
    html.raw("</p>");
    let mut tags = catalog.groups.iter().filter(|g| g.is_tag).peekable();
    if tags.peek().is_some() {
        html.raw(r#"<h2>Sections</h2><dl class="tag-index" data-testid="tag-index">"#);
        for group in tags {
            html.raw("<dt>").anchor_link(&tag_anchor(&group.name), "", &group.title).raw("</dt><dd>");
            if let Some(description) = &group.description {
                html.markdown(description);
            }
            html.raw("</dd>");
        }
        html.raw("</dl>");
    }
    html.raw(r#"<p class="hint">Choose an operation to read its reference.</p></section>"#);
}

/// `lead` and `name`, the name a link when there is one.
fn fact(html: &mut Html<'_>, lead: &str, name: &str, link: Option<&str>) {
    html.raw("<li>").text(lead);
    match link {
        Some(url) => html.external_link(url, name),
        None => html.text(name),
    };
    html.raw("</li>");
}

fn operation_links(html: &mut Html<'_>, operations: &[std::sync::Arc<OperationSummary>]) {
    html.raw(r#"<ul class="operation-links">"#);
    for op in operations {
        html.raw("<li><a")
            .attr("href", &playground_openapi::outline::href(&op.anchor()))
            .raw(">")
            .method(op.method.as_str());
        html.raw(" ").element("code", r#" class="path""#, &op.path).raw(" ");
        html.element("span", r#" class="summary""#, op.summary.as_deref().unwrap_or_default())
            .raw("</a></li>");
    }
    html.raw("</ul>");
}

/// A tag's page: its title, description and external docs, its operations, and its child
/// tags (for a tag other tags name as `x-parent`). False (nothing written) when the document
/// has no such tag.
pub fn tag_page(html: &mut Html<'_>, catalog: &Catalog, overview: &Overview, name: &str) -> bool {
    let group = catalog.groups.iter().find(|g| g.is_tag && g.name == name);
    let section: Option<&TagSection> = catalog.groups.iter().flat_map(|g| &g.tags).find(|t| t.name == name);
    let Some(title) = section.map(|s| &s.title).or_else(|| group.map(|g| &g.title)) else {
        return false;
    };
    let description =
        section.and_then(|s| s.description.as_ref()).or_else(|| group.and_then(|g| g.description.as_ref()));
    html.raw(r#"<section class="tag-page" data-testid="tag-page""#).attr("data-tag", name).raw(">");
    html.element("h2", r#" tabindex="-1""#, title);
    if let Some(description) = description {
        html.markdown(description);
    }
    if let Some((_, docs)) = overview.tag_docs.iter().find(|(tag, _)| tag == name) {
        external_docs(html, docs);
    }
    if let Some(section) = section.filter(|s| !s.operations.is_empty()) {
        operation_links(html, &section.operations);
    }
    for child in group.iter().flat_map(|g| &g.tags).filter(|t| t.name != name) {
        html.raw("<h3>").anchor_link(&tag_anchor(&child.name), "", &child.title).raw("</h3>");
        operation_links(html, &child.operations);
    }
    html.raw("</section>");
    true
}

/// The component schemas, each a link to its page.
pub fn schema_list(html: &mut Html<'_>, names: &[String]) {
    html.raw(r#"<section class="schema-index" data-testid="schema-index">"#);
    if names.is_empty() {
        html.raw(
            r#"<h2 tabindex="-1">Schemas</h2><p class="hint">This document has no component schemas.</p>"#,
        );
    } else {
        html.element("h2", r#" tabindex="-1""#, &format!("Schemas ({})", names.len()));
        html.raw(r#"<ul class="schema-names">"#);
        for name in names {
            html.raw("<li><a")
                .attr("href", &playground_openapi::outline::href(&schema_anchor(name)))
                .raw(">");
            html.element("code", "", name).raw("</a></li>");
        }
        html.raw("</ul>");
    }
    html.raw("</section>");
}

/// One component schema: its tree and an example.
pub fn schema_page(html: &mut Html<'_>, schema: &SchemaView) {
    html.raw(r#"<section class="schema-page" data-testid="schema-page""#).attr("data-schema", &schema.name);
    html.raw(r#"><p class="hint">"#).anchor_link(SCHEMAS_ANCHOR, "", "Schemas").raw(" ›</p>");
    html.raw(r#"<h2 tabindex="-1">"#).element("code", "", &schema.name).raw("</h2>");
    schema_tree(html, &schema.tree);
    html.raw("<h3>Example</h3>")
        .example(r#" data-testid="schema-example" data-example="schema""#, &schema.example.value);
    html.example_notes(r#" class="hint" data-example-note="schema""#, &schema.example.notes);
    html.raw("</section>");
}
