//! A schema as a nested list: type, format, limits, enum values, fields with required markers.

use leptos::prelude::*;
use petstore_core::outline::{href, schema_anchor};
use petstore_core::reference::SchemaNode;

use super::markdown::Markdown;

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

/// A schema tree; fields and items nest.
#[component]
pub fn SchemaTree(node: SchemaNode) -> impl IntoView {
    tree(node)
}

/// The label, with the component's name a link to its page in the Schemas section (an array
/// of one: "array of" and the link).
fn label_view(node: &SchemaNode) -> AnyView {
    let linked = match (&node.kind[..], &node.items, &node.component) {
        (_, _, Some(component)) => Some(("", component.clone())),
        ("array", Some(items), None) => items.component.clone().map(|c| ("array of ", c)),
        _ => None,
    };
    match linked {
        Some((lead, component)) => {
            let link = href(&schema_anchor(&component));
            let name =
                node.items.as_ref().filter(|_| !lead.is_empty()).map_or(&node.name, |i| &i.name).clone();
            let tail = if node.nullable { " or null" } else { "" };
            view! { {lead}<a href=link data-testid="schema-link">{name.unwrap_or(component)}</a>{tail} }
                .into_any()
        }
        None => type_label(node).into_any(),
    }
}

fn tree(node: SchemaNode) -> AnyView {
    let label = label_view(&node);
    let enumeration = (!node.enumeration.is_empty()).then(|| {
        let values: Vec<String> = node
            .enumeration
            .iter()
            .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_owned))
            .collect();
        view! {
            <span class="schema-enum" data-testid="schema-enum">
                "one of "
                {values.into_iter().map(|v| view! { <code>{v}</code> " " }).collect_view()}
            </span>
        }
    });
    let constraints = node
        .constraints
        .iter()
        .map(|c| view! { <span class="schema-limit" data-testid="schema-limit">{c.clone()}</span> })
        .collect_view();
    let items = match (&node.kind[..], node.items) {
        // Arrays of objects show the item's fields directly under the array.
        ("array", Some(items))
            if !items.properties.is_empty()
                || items.truncated
                || !items.enumeration.is_empty()
                || !items.constraints.is_empty()
                || !items.variants.is_empty() =>
        {
            Some(tree(*items))
        }
        _ => None,
    };
    let properties = (!node.properties.is_empty()).then(|| {
        view! {
            <ul class="schema-props">
                {node
                    .properties
                    .into_iter()
                    .map(|p| {
                        view! {
                            <li class="schema-prop" data-testid="schema-prop" data-name=p.name.clone()>
                                <code class="prop-name">{p.name.clone()}</code>
                                {p.required.then(|| view! { <span class="required" data-testid="required">"required"</span> })}
                                {p.read_only.then(|| view! { <span class="read-only">"read-only"</span> " " })}
                                {tree(p.schema)}
                            </li>
                        }
                    })
                    .collect_view()}
            </ul>
        }
    });
    let variants = (!node.variants.is_empty()).then(|| {
        view! { <ol class="schema-variants">{node.variants.into_iter().map(|v| view! { <li>{tree(v)}</li> }).collect_view()}</ol> }
    });
    view! {
        <div class="schema" data-testid="schema">
            <span class="schema-type">{label}</span>
            {enumeration}
            {constraints}
            {node.closed.then(|| view! { <span class="schema-limit">"no other fields"</span> })}
            {node.truncated.then(|| view! { <span class="schema-limit">"(shown above)"</span> })}
            {node.description.map(|d| view! { <Markdown source=d /> })}
            {properties}
            {items}
            {variants}
        </div>
    }
    .into_any()
}
