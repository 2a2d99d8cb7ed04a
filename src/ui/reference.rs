//! The reference page: document header and the grouped operation list.

use leptos::prelude::*;
use petstore_core::Catalog;

use super::operation_list::OperationList;

/// Header with the document's title and version (and `children` beside them, such as the
/// Mock block), then its operations by group and tag.
#[component]
pub fn Reference(catalog: Catalog, #[prop(optional)] children: Option<Children>) -> impl IntoView {
    let count = catalog.operation_count();
    view! {
        <header class="doc-header">
            <div class="doc-heading">
                <h1 data-testid="doc-title">{catalog.title.clone()}</h1>
                <p class="doc-meta">
                    <span class="version" data-testid="doc-version">{format!("v{}", catalog.version)}</span>
                    <span class="op-count" data-testid="op-count">
                        {format!("{count} operation{}", if count == 1 { "" } else { "s" })}
                    </span>
                </p>
            </div>
            {children.map(|children| children())}
        </header>
        <main id="content">
            <OperationList groups=catalog.groups />
        </main>
    }
}

/// Shown instead of the reference when the document cannot be read.
#[component]
pub fn LoadError(error: String) -> impl IntoView {
    view! {
        <main id="content">
            <div class="load-error" role="alert" data-testid="load-error">
                <h1>"The API description could not be loaded"</h1>
                <p>{error}</p>
            </div>
        </main>
    }
}
