//! The operation list: groups (`Pets`, `Store`) as headings, their child tags, and each
//! operation's method, path, summary and markers.

use leptos::prelude::*;
use petstore_core::catalog::{Group, OperationSummary, Stability, TagSection};

/// Every group of the document, in document order.
#[component]
pub fn OperationList(
    groups: Vec<Group>,
    /// The anchor of the operation shown, marked `aria-current` in the list.
    #[prop(optional, into)]
    selected: Signal<Option<String>>,
) -> impl IntoView {
    view! {
        <nav class="operation-list" aria-label="Operations" data-testid="operation-list">
            {groups.into_iter().map(|group| view! { <GroupView group=group selected=selected /> }).collect_view()}
        </nav>
    }
}

#[component]
fn GroupView(group: Group, selected: Signal<Option<String>>) -> impl IntoView {
    // A tag standing alone is its own group: do not repeat its name as a sub-heading.
    let standalone = group.tags.len() == 1 && group.tags[0].name == group.name;
    view! {
        <section class="group" data-testid="group" data-group=group.name.clone()>
            <h2 class="group-name">{group.name.clone()}</h2>
            {group.description.map(|d| view! { <p class="group-description">{d}</p> })}
            {group
                .tags
                .into_iter()
                .map(|tag| view! { <TagView tag=tag show_name=!standalone selected=selected /> })
                .collect_view()}
        </section>
    }
}

#[component]
fn TagView(tag: TagSection, show_name: bool, selected: Signal<Option<String>>) -> impl IntoView {
    view! {
        <section class="tag" data-testid="tag" data-tag=tag.name.clone()>
            {show_name.then(|| view! { <h3 class="tag-name">{tag.name.clone()}</h3> })}
            {tag.description.map(|d| view! { <p class="tag-description">{d}</p> })}
            <ul class="operations">
                {tag.operations.into_iter().map(|op| view! { <OperationRow op=op selected=selected /> }).collect_view()}
            </ul>
        </section>
    }
}

#[component]
fn OperationRow(op: OperationSummary, selected: Signal<Option<String>>) -> impl IntoView {
    let method = op.method.as_str();
    let anchor = op.anchor();
    let mine = anchor.clone();
    let current = move || (selected.get().as_deref() == Some(mine.as_str())).then_some("page");
    view! {
        <li class="operation" data-testid="operation" data-operation-id=anchor.clone()>
            <a href=format!("#{anchor}") class="operation-link" aria-current=current>
                <span class=format!("method method-{}", method.to_ascii_lowercase())>{method}</span>
                <code class="path" class:deprecated=op.deprecated>{op.path.clone()}</code>
                <span class="summary">{op.summary.clone()}</span>
                {op.deprecated.then(|| view! { <span class="badge badge-deprecated" data-testid="badge-deprecated">"Deprecated"</span> })}
                {op.stability.map(|s| match s {
                    Stability::Experimental => view! { <span class="badge badge-experimental" data-testid="badge-stability">"Experimental"</span> },
                    Stability::Beta => view! { <span class="badge badge-beta" data-testid="badge-stability">"Beta"</span> },
                })}
            </a>
        </li>
    }
}
