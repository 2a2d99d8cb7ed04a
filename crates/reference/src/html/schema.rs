//! A schema as a nested list: type, format, limits, enum values, fields with required markers;
//! a component schema's name links to its page.

use super::Html;
use crate::SchemaNode;
use playground_openapi::outline::schema_anchor;

fn type_label(node: &SchemaNode) -> String {
    let base = match (&node.kind[..], &node.items) {
        ("array", Some(items)) => format!("array of {}", type_label(items)),
        _ => node.name.clone().unwrap_or_else(|| node.kind.clone()),
    };
    let base = match (&node.format, &node.name) {
        (Some(f), None) => format!("{base} ({f})"),
        _ => base,
    };
    if node.nullable { format!("{base} or null") } else { base }
}

/// The label, with the component's name a link to its page in the Schemas section (an array
/// of one: "array of" and the link).
fn label(html: &mut Html<'_>, node: &SchemaNode) {
    let linked = match (&node.kind[..], &node.items, &node.component) {
        (_, _, Some(component)) => Some(("", component)),
        ("array", Some(items), None) => items.component.as_ref().map(|c| ("array of ", c)),
        _ => None,
    };
    match linked {
        Some((lead, component)) => {
            let name = if lead.is_empty() {
                &node.name
            } else {
                node.items.as_ref().map_or(&node.name, |i| &i.name)
            };
            html.text(lead).anchor_link(
                &schema_anchor(component),
                r#" data-testid="schema-link""#,
                name.as_deref().unwrap_or(component),
            );
            if node.nullable {
                html.raw(" or null");
            }
        }
        None => {
            html.text(&type_label(node));
        }
    }
}

/// Whether an array's item schema shows its own tree under the array (its fields, limits or
/// variants), rather than only its name in the label.
fn shows_items(items: &SchemaNode) -> bool {
    !items.properties.is_empty()
        || items.truncated
        || !items.enumeration.is_empty()
        || !items.constraints.is_empty()
        || !items.variants.is_empty()
}

/// Writes the tree of `node`; fields, items, parts and variants nest. Each part of a line (the
/// type, each limit, a field's name and its marks) is its own element spaced by CSS, with a
/// [`Html::separator`] between them so the text reads as separate words.
pub fn schema_tree(html: &mut Html<'_>, node: &SchemaNode) {
    html.raw(r#"<div class="schema" data-testid="schema"><span class="schema-type">"#);
    label(html, node);
    html.raw("</span>");
    if !node.enumeration.is_empty() {
        html.separator().raw(r#"<span class="schema-enum" data-testid="schema-enum">one of "#);
        for value in &node.enumeration {
            let text = value.as_str().map_or_else(|| value.to_string(), str::to_owned);
            html.element("code", "", &text).raw(" ");
        }
        html.raw("</span>");
    }
    for constraint in &node.constraints {
        html.separator().element("span", r#" class="schema-limit" data-testid="schema-limit""#, constraint);
    }
    if node.closed {
        html.separator().raw(r#"<span class="schema-limit">no other properties</span>"#);
    }
    if node.truncated {
        html.separator().raw(r#"<span class="schema-limit">(shown above)</span>"#);
    }
    if let Some(description) = &node.description {
        html.separator().markdown(description);
    }
    if !node.properties.is_empty() {
        html.raw(r#"<ul class="schema-props">"#);
        for p in &node.properties {
            html.raw(r#"<li class="schema-prop" data-testid="schema-prop""#)
                .attr("data-name", &p.name)
                .raw(">")
                .separator();
            html.element("code", r#" class="prop-name""#, &p.name).separator();
            if p.required {
                html.raw(r#"<span class="required" data-testid="required">required</span>"#).separator();
            }
            if p.read_only {
                html.raw(r#"<span class="read-only">read-only</span> "#);
            }
            schema_tree(html, &p.schema);
            html.raw("</li>");
        }
        html.raw("</ul>");
    }
    // Arrays of objects show the item's fields directly under the array.
    if let ("array", Some(items)) = (&node.kind[..], &node.items)
        && shows_items(items)
    {
        html.separator();
        schema_tree(html, items);
    }
    if !node.parts.is_empty() {
        html.raw(r#"<ul class="schema-props">"#);
        for part in &node.parts {
            html.raw(r#"<li class="schema-prop schema-part" data-testid="schema-part""#)
                .attr("data-label", &part.label)
                .raw(">")
                .separator();
            html.element("span", r#" class="prop-name""#, &part.label).separator();
            schema_tree(html, &part.schema);
            html.raw("</li>");
        }
        html.raw("</ul>");
    }
    if !node.variants.is_empty() {
        html.raw(r#"<ol class="schema-variants">"#);
        for variant in &node.variants {
            html.raw("<li>").separator();
            schema_tree(html, variant);
            html.raw("</li>");
        }
        html.raw("</ol>");
    }
    html.raw("</div>");
}
