//! The pages of a site besides its operations': `llms.txt`, the overview (`index.md`), each
//! tag's page, the list of component schemas and each schema's page.

use std::fmt::Write as _;

use playground_openapi::Catalog;
use playground_openapi::catalog::{OperationSummary, WEBHOOKS};
use playground_openapi::outline::{SCHEMAS_ANCHOR, markdown_file, tag_anchor};
use playground_openapi::security::Scheme;
use playground_reference::{Overview, SchemaView};
use serde_json::Value;

use crate::operation::{method_path, scheme_words, title};
use crate::schema::{Base, Trees};
use crate::text::{code, example_block, first_sentence, link, one_line, plain_paragraph, shorten};
use crate::{FULL, INDEX};

/// At most this many characters of a summary line (`llms.txt`'s quote, a link's note).
const MAX_SUMMARY_CHARS: usize = 500;
const MAX_NOTE_CHARS: usize = 200;

/// The first sentence of some Markdown, plain and short: the note after a link.
pub(crate) fn note_of(markdown: Option<&str>) -> Option<String> {
    let paragraph = plain_paragraph(markdown?)?;
    Some(shorten(first_sentence(&paragraph), MAX_NOTE_CHARS))
}

/// The operation's own `description`, read from the document (a path item's `$ref` followed).
pub(crate) fn description<'a>(document: &'a Value, op: &OperationSummary) -> Option<&'a str> {
    let items = if op.webhook {
        document.get("webhooks").or_else(|| document.get("x-webhooks"))?
    } else {
        document.get("paths")?
    };
    let item = playground_openapi::pointer::resolve(document, items.get(&op.path)?).ok()?;
    item.get(op.method.as_str().to_ascii_lowercase())?.get("description")?.as_str()
}

/// The line of an operation in a list: its page's link, method and path, and first sentence.
pub(crate) fn operation_line(document: &Value, op: &OperationSummary, base: Base) -> String {
    let mut line = format!(
        "- {}: {}",
        link(&title(op), &base.to(&markdown_file(&op.anchor()))),
        code(&method_path(op.method, &op.path, op.webhook))
    );
    if op.deprecated {
        line.push_str(" (deprecated)");
    }
    // A first sentence that only repeats the summary says nothing more.
    let repeats = |note: &str| {
        op.summary
            .as_deref()
            .is_some_and(|s| note.trim_end_matches('.').eq_ignore_ascii_case(s.trim().trim_end_matches('.')))
    };
    if let Some(note) = note_of(description(document, op)).filter(|n| !repeats(n)) {
        let _ = write!(line, " — {note}");
    }
    line
}

/// The security schemes of the document, each on a line of its own in words.
fn schemes_lines(schemes: &[Scheme]) -> Vec<String> {
    schemes.iter().map(|s| format!("{}: {}", code(&s.name), scheme_words(&s.kind))).collect()
}

/// What operations need when they say nothing themselves, in words.
fn default_security(catalog: &Catalog) -> Option<String> {
    if catalog.security.is_empty() {
        return None;
    }
    let ways: Vec<String> = catalog
        .security
        .iter()
        .map(|names| {
            if names.is_empty() {
                "no credentials".to_owned()
            } else {
                names.iter().map(|n| code(n)).collect::<Vec<_>>().join(" and ")
            }
        })
        .collect();
    Some(ways.join(" or "))
}

/// The document's base URLs.
fn base_urls(document: &Value) -> Vec<String> {
    playground_openapi::servers::read_servers(document.get("servers").unwrap_or(&Value::Null))
        .into_iter()
        .map(|s| s.url)
        .collect()
}

/// The tags with a page (name, title, description), in list order, each once: the groups
/// that are tags and the tags under groups (the webhooks' list is no tag).
pub(crate) fn tag_names(catalog: &Catalog) -> Vec<(String, String, Option<String>)> {
    let mut names: Vec<(String, String, Option<String>)> = Vec::new();
    for group in &catalog.groups {
        let own = group.is_tag.then(|| (group.name.clone(), group.title.clone(), group.description.clone()));
        let sections = group.tags.iter().map(|t| (t.name.clone(), t.title.clone(), t.description.clone()));
        for (name, shown, description) in own.into_iter().chain(sections) {
            if name != WEBHOOKS && !names.iter().any(|(n, _, _)| *n == name) {
                names.push((name, shown, description));
            }
        }
    }
    names
}

/// `llms.txt`: the title, a summary, the facts an API call needs, then each group's operations
/// as links, and the schemas. Each operation is listed once, under the first tag that lists
/// it (its page names every tag).
pub(crate) fn llms_txt(document: &Value, catalog: &Catalog, title: &str, schemas: &[String]) -> String {
    let mut out = format!("# {}\n\n", one_line(title));
    let summary = document
        .pointer("/info/summary")
        .and_then(Value::as_str)
        .and_then(plain_paragraph)
        .or_else(|| catalog.description.as_deref().and_then(plain_paragraph));
    if let Some(summary) = summary {
        let _ = write!(out, "> {}\n\n", shorten(&summary, MAX_SUMMARY_CHARS));
    }
    if !catalog.version.trim().is_empty() {
        let _ = write!(out, "Version: {}\n\n", one_line(&catalog.version));
    }
    let urls = base_urls(document);
    if !urls.is_empty() {
        let urls: Vec<String> = urls.iter().map(|u| code(u)).collect();
        let _ = write!(out, "Base URLs: {}\n\n", urls.join(", "));
    }
    for line in schemes_lines(&playground_openapi::security::schemes(document)) {
        let _ = write!(out, "Authentication: {line}\n\n");
    }
    let _ = write!(
        out,
        "The overview is {}; every page in one file is {}.\n\n",
        link("index.md", "index.md"),
        link(FULL, FULL)
    );
    let mut listed = std::collections::HashSet::new();
    for group in &catalog.groups {
        let _ = write!(out, "## {}\n\n", one_line(&group.title));
        if group.is_tag {
            let _ = writeln!(out, "{}", tag_line(&group.name, &group.title, group.description.as_deref()));
        }
        for section in &group.tags {
            let standalone = group.tags.len() == 1 && section.name == group.name;
            if !standalone && section.name != WEBHOOKS {
                let _ = write!(
                    out,
                    "\n### {}\n\n{}\n",
                    one_line(&section.title),
                    tag_line(&section.name, &section.title, section.description.as_deref())
                );
            }
            for op in &section.operations {
                if listed.insert(markdown_file(&op.anchor())) {
                    let _ = writeln!(out, "{}", operation_line(document, op, Base("")));
                }
            }
        }
        out.push('\n');
    }
    if !schemas.is_empty() {
        let _ = write!(
            out,
            "## Schemas\n\n- {}: every schema\n",
            link("All schemas", &markdown_file(SCHEMAS_ANCHOR))
        );
        for name in schemas {
            let _ = writeln!(out, "{}", schema_line(document, name, Base("")));
        }
        out.push('\n');
    }
    out
}

/// The line of a tag's page in `llms.txt`: its link and first sentence.
fn tag_line(name: &str, shown: &str, description: Option<&str>) -> String {
    let note = note_of(description).unwrap_or_else(|| "the tag's page".to_owned());
    format!("- {}: {note}", link(&format!("About {shown}"), &markdown_file(&tag_anchor(name))))
}

/// The line of a component schema in a list: its link and first sentence.
fn schema_line(document: &Value, name: &str, base: Base) -> String {
    let description = document
        .pointer("/components/schemas")
        .and_then(|s| s.get(name))
        .and_then(|s| s.get("description"))
        .and_then(Value::as_str);
    match note_of(description) {
        Some(note) => format!("- {}: {note}", base.schema_link(name)),
        None => format!("- {}", base.schema_link(name)),
    }
}

/// What the overview shows besides the operations (the document's root read, not copied).
pub(crate) fn facts(document: &Value) -> Overview {
    match document.as_object() {
        Some(root) => Overview::from_root(root),
        None => Overview::default(),
    }
}

/// The overview (`index.md`): title, version, description, servers, authentication, contact
/// and licence, then links to the tags, the schemas and `llms.txt`.
pub(crate) fn overview(document: &Value, catalog: &Catalog, title: &str, base: Base) -> String {
    let facts = facts(document);
    let mut out = format!("# {}\n\n", one_line(title));
    if !catalog.version.trim().is_empty() {
        let _ = write!(out, "Version {}\n\n", code(&catalog.version));
    }
    if let Some(summary) = &facts.summary {
        let _ = write!(out, "{}\n\n", one_line(summary));
    }
    if let Some(description) = catalog.description.as_deref().map(str::trim).filter(|d| !d.is_empty()) {
        let _ = write!(out, "{description}\n\n");
    }
    let urls = base_urls(document);
    if !urls.is_empty() {
        out.push_str("## Servers\n\n");
        for url in urls {
            let _ = writeln!(out, "- {}", code(&url));
        }
        out.push('\n');
    }
    let schemes = playground_openapi::security::schemes(document);
    if !schemes.is_empty() {
        out.push_str("## Authentication\n\n");
        for (line, scheme) in schemes_lines(&schemes).into_iter().zip(&schemes) {
            let description = scheme.description.as_deref().and_then(|d| note_of(Some(d)));
            let _ = writeln!(out, "- {line}{}", description.map(|d| format!(". {d}")).unwrap_or_default());
        }
        if let Some(default) = default_security(catalog) {
            let _ = write!(out, "\nUnless an operation says otherwise, it needs {default}.\n");
        }
        out.push('\n');
    }
    about(&mut out, &facts);
    let tags = tag_names(catalog);
    if !tags.is_empty() {
        out.push_str("## Tags\n\n");
        for (name, shown, description) in &tags {
            let note = note_of(description.as_deref()).map(|n| format!(": {n}")).unwrap_or_default();
            let _ = writeln!(out, "- {}{note}", link(shown, &base.to(&markdown_file(&tag_anchor(name)))));
        }
        out.push('\n');
    }
    let webhooks = catalog.webhook_count();
    let webhooks = if webhooks > 0 { format!(", {webhooks} webhook operations") } else { String::new() };
    let _ = write!(
        out,
        "## More\n\n- {}: every operation ({}{webhooks}) and schema, one link each\n- {}\n- {}: every page in one file\n",
        link(INDEX, &base.to(INDEX)),
        catalog.operation_count(),
        link("Schemas", &base.to(&markdown_file(SCHEMAS_ANCHOR))),
        link(FULL, &base.to(FULL)),
    );
    out
}

/// The contact, the licence, the terms and the external docs.
fn about(out: &mut String, facts: &Overview) {
    let mut lines = Vec::new();
    if let Some((name, url)) = &facts.contact {
        lines.push(format!("Contact: {}", url.as_deref().map_or_else(|| one_line(name), |u| link(name, u))));
    }
    if let Some(license) = &facts.license {
        let name = &license.name;
        lines.push(format!(
            "Licence: {}",
            license.url.as_deref().map_or_else(|| one_line(name), |u| link(name, u))
        ));
    }
    if let Some(url) = &facts.terms_of_service {
        lines.push(link("Terms of service", url));
    }
    if let Some(docs) = &facts.external_docs {
        lines
            .push(format!("See also: {}", link(docs.description.as_deref().unwrap_or(&docs.url), &docs.url)));
    }
    if !lines.is_empty() {
        out.push_str("## About\n\n");
        for line in lines {
            let _ = writeln!(out, "- {line}");
        }
        out.push('\n');
    }
}

/// A tag's page (in `tags/`): its title, description and external docs, its operations, and
/// its child tags' operations.
pub(crate) fn tag_page(document: &Value, catalog: &Catalog, facts: &Overview, name: &str) -> String {
    let base = Base("../");
    let group = catalog.groups.iter().find(|g| g.is_tag && g.name == name);
    let section = catalog.groups.iter().flat_map(|g| &g.tags).find(|t| t.name == name);
    let shown = section.map(|s| &s.title).or(group.map(|g| &g.title)).map_or(name, String::as_str);
    let mut out = format!("# {}\n\n", one_line(shown));
    let description =
        section.and_then(|s| s.description.as_ref()).or_else(|| group.and_then(|g| g.description.as_ref()));
    if let Some(description) = description.map(|d| d.trim()).filter(|d| !d.is_empty()) {
        let _ = write!(out, "{description}\n\n");
    }
    if let Some((_, docs)) = facts.tag_docs.iter().find(|(tag, _)| tag == name) {
        let _ = write!(
            out,
            "See also: {}\n\n",
            link(docs.description.as_deref().unwrap_or(&docs.url), &docs.url)
        );
    }
    if let Some(section) = section.filter(|s| !s.operations.is_empty()) {
        out.push_str("## Operations\n\n");
        for op in &section.operations {
            let _ = writeln!(out, "{}", operation_line(document, op, base));
        }
        out.push('\n');
    }
    for child in group.iter().flat_map(|g| &g.tags).filter(|t| t.name != name) {
        let _ =
            write!(out, "## {}\n\n", link(&child.title, &base.to(&markdown_file(&tag_anchor(&child.name)))));
        for op in &child.operations {
            let _ = writeln!(out, "{}", operation_line(document, op, base));
        }
        out.push('\n');
    }
    let _ = writeln!(out, "Back to the {}.", link("overview", &base.to("index.md")));
    out
}

/// The list of component schemas (`schemas/index.md`).
pub(crate) fn schema_list(document: &Value, names: &[String]) -> String {
    let mut out = format!("# Schemas ({})\n\n", names.len());
    if names.is_empty() {
        out.push_str("This description has no component schemas.\n");
    }
    for name in names {
        let _ = writeln!(out, "{}", schema_line(document, name, Base("../")));
    }
    out
}

/// A component schema's page: its tree and an example, or why it could not be read.
pub(crate) fn schema_page(out: &mut String, name: &str, view: Result<&SchemaView, String>, base: Base) {
    let _ = write!(out, "# {}\n\n", one_line(name));
    match view {
        Ok(view) => {
            let description = view.tree.description.as_deref().map(str::trim).filter(|d| !d.is_empty());
            if let Some(description) = description {
                let _ = write!(out, "{description}\n\n");
            }
            // The description is the page's first paragraph, not part of the type's line.
            let top = playground_reference::SchemaNode { description: None, ..view.tree.clone() };
            Trees::new(base).tree(out, "Type: ", &top);
            let source = if view.slot.documented.is_some() {
                "from the description"
            } else {
                "generated from the schema"
            };
            let _ = write!(out, "Example ({source}):\n\n");
            example_block(out, &view.example.value, None);
            if !view.example.notes.is_empty() {
                let _ = write!(out, "About the example: {}.\n\n", view.example.notes.join("; "));
            }
        }
        Err(problem) => {
            let _ = writeln!(out, "This schema could not be read: {}", one_line(&problem));
        }
    }
}
