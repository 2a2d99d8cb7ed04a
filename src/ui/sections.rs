//! The reference's pages besides an operation: the overview (`#`), a tag's page
//! (`#tag/<name>`), the list of component schemas (`#schemas`) and one schema
//! (`#schema/<name>`). Each reads the core's values; links are the core's anchors.

use leptos::prelude::*;
use petstore_core::catalog::{Catalog, Group, OperationSummary, TagSection};
use petstore_core::document::AnyDocument;
use petstore_core::outline::{SCHEMAS_ANCHOR, href, schema_anchor, tag_anchor};
use petstore_core::reference::{ExternalDocs, Overview};

use super::markdown::Markdown;
use super::schema_tree::SchemaTree;

/// A link to `externalDocs`: its description, else its address.
pub(crate) fn external_link(docs: ExternalDocs) -> impl IntoView {
    let text = docs.description.unwrap_or_else(|| docs.url.clone());
    view! {
        <p class="external-docs" data-testid="external-docs">
            <a href=docs.url target="_blank" rel="noopener noreferrer">
                {text}
            </a>
        </p>
    }
}

/// The overview: summary, description, licence, contact, terms, external docs, the document
/// download, then every tag with its description, the webhooks and the schemas.
#[component]
pub fn OverviewPage(
    catalog: Catalog,
    overview: Overview,
    /// Saves the document's text as a file.
    download: Option<Callback<()>>,
) -> impl IntoView {
    let Overview { summary, license, contact, terms_of_service, external_docs, tag_docs: _ } = overview;
    let mut facts = Vec::new();
    if let Some(license) = license {
        facts.push(match license.url {
            Some(url) => view! { <li>"Licence: "<a href=url rel="noopener noreferrer" target="_blank">{license.name}</a></li> }.into_any(),
            None => view! { <li>{format!("Licence: {}", license.name)}</li> }.into_any(),
        });
    }
    if let Some((name, link)) = contact {
        facts.push(match link {
            Some(url) => {
                view! { <li>"Contact: "<a href=url rel="noopener noreferrer" target="_blank">{name}</a></li> }
                    .into_any()
            }
            None => view! { <li>{format!("Contact: {name}")}</li> }.into_any(),
        });
    }
    if let Some(url) = terms_of_service {
        facts.push(
            view! { <li><a href=url rel="noopener noreferrer" target="_blank">"Terms of service"</a></li> }
                .into_any(),
        );
    }
    let webhooks = catalog.webhook_count();
    let tags: Vec<Group> = catalog.groups.into_iter().filter(|g| g.is_tag).collect();
    view! {
        <section class="overview" data-testid="overview">
            {summary.map(|s| view! { <p class="doc-summary" data-testid="doc-summary">{s}</p> })}
            {catalog.description.map(|d| view! { <Markdown source=d /> })}
            {(!facts.is_empty()).then(|| view! { <ul class="doc-facts" data-testid="doc-facts">{facts}</ul> })}
            {external_docs.map(external_link)}
            <p class="doc-links">
                {download.map(|download| view! {
                    <button type="button" class="button button-quiet" data-testid="download-document" on:click=move |_| download.run(())>
                        "Download the document"
                    </button>
                })}
                <a href=href(SCHEMAS_ANCHOR) data-testid="schemas-link">"Schemas"</a>
                {(webhooks > 0).then(|| view! {
                    " "
                    <span class="hint">{format!("{webhooks} webhook{} listed at the end", if webhooks == 1 { "" } else { "s" })}</span>
                })}
            </p>
            {(!tags.is_empty()).then(|| view! {
                <h2>"Sections"</h2>
                <dl class="tag-index" data-testid="tag-index">
                    {tags.into_iter().map(|g| view! {
                        <dt><a href=href(&tag_anchor(&g.name))>{g.title}</a></dt>
                        <dd>{g.description.map(|d| view! { <Markdown source=d /> })}</dd>
                    }).collect_view()}
                </dl>
            })}
            <p class="hint">"Choose an operation to read its reference."</p>
        </section>
    }
}

fn operation_links(operations: Vec<OperationSummary>) -> impl IntoView {
    view! {
        <ul class="operation-links">
            {operations.into_iter().map(|op| {
                let method = op.method.as_str();
                view! {
                    <li>
                        <a href=href(&op.anchor())>
                            <span class=format!("method method-{}", method.to_ascii_lowercase())>{method}</span>
                            " "
                            <code class="path">{op.path.clone()}</code>
                            " "
                            <span class="summary">{op.summary.clone().unwrap_or_default()}</span>
                        </a>
                    </li>
                }
            }).collect_view()}
        </ul>
    }
}

/// A tag's page: its title, description and external docs, its operations, and its child
/// tags (for a tag other tags name as `x-parent`). `None` when the document has no such tag.
pub fn tag_page(catalog: &Catalog, overview: &Overview, name: &str) -> Option<AnyView> {
    let group = catalog.groups.iter().find(|g| g.is_tag && g.name == name);
    let section: Option<&TagSection> = catalog.groups.iter().flat_map(|g| &g.tags).find(|t| t.name == name);
    let title = section.map(|s| s.title.clone()).or_else(|| group.map(|g| g.title.clone()))?;
    let description =
        section.and_then(|s| s.description.clone()).or_else(|| group.and_then(|g| g.description.clone()));
    let docs = overview.tag_docs.iter().find(|(tag, _)| tag == name).map(|(_, docs)| docs.clone());
    let operations = section.map(|s| s.operations.clone()).unwrap_or_default();
    let children: Vec<TagSection> =
        group.map(|g| g.tags.iter().filter(|t| t.name != name).cloned().collect()).unwrap_or_default();
    Some(
        view! {
            <section class="tag-page" data-testid="tag-page" data-tag=name.to_owned()>
                <h2 tabindex="-1">{title}</h2>
                {description.map(|d| view! { <Markdown source=d /> })}
                {docs.map(external_link)}
                {(!operations.is_empty()).then(|| operation_links(operations))}
                {children.into_iter().map(|child| view! {
                    <h3><a href=href(&tag_anchor(&child.name))>{child.title.clone()}</a></h3>
                    {operation_links(child.operations)}
                }).collect_view()}
            </section>
        }
        .into_any(),
    )
}

/// The component schemas, each a link to its page.
pub fn schema_list(document: &AnyDocument) -> AnyView {
    match document.schema_names() {
        Ok(names) if names.is_empty() => view! {
            <section class="schema-index" data-testid="schema-index">
                <h2 tabindex="-1">"Schemas"</h2>
                <p class="hint">"This document has no component schemas."</p>
            </section>
        }
        .into_any(),
        Ok(names) => view! {
            <section class="schema-index" data-testid="schema-index">
                <h2 tabindex="-1">{format!("Schemas ({})", names.len())}</h2>
                <ul class="schema-names">
                    {names.into_iter().map(|n| {
                        let link = href(&schema_anchor(&n));
                        view! { <li><a href=link><code>{n}</code></a></li> }
                    }).collect_view()}
                </ul>
            </section>
        }
        .into_any(),
        Err(e) => view! { <p class="load-error" role="alert">{e.to_string()}</p> }.into_any(),
    }
}

/// One component schema: its tree and an example.
pub fn schema_page(document: &AnyDocument, name: &str) -> AnyView {
    match document.schema_view(name) {
        Ok(schema) => view! {
            <section class="schema-page" data-testid="schema-page" data-schema=schema.name.clone()>
                <p class="hint"><a href=href(SCHEMAS_ANCHOR)>"Schemas"</a>" ›"</p>
                <h2 tabindex="-1"><code>{schema.name.clone()}</code></h2>
                <SchemaTree node=schema.tree />
                <h3>"Example"</h3>
                <pre class="example" data-testid="schema-example"><code>{serde_json::to_string_pretty(&schema.example.value).unwrap_or_default()}</code></pre>
                {(!schema.example.notes.is_empty()).then(|| view! {
                    <p class="hint">{format!("Generated example: {}.", schema.example.notes.join("; "))}</p>
                })}
            </section>
        }
        .into_any(),
        Err(e) => view! { <p class="load-error" role="alert" data-testid="unknown-schema">{e.to_string()}</p> }.into_any(),
    }
}
