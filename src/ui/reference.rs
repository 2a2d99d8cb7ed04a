//! The reference page: the document header, the operation list as navigation, and the
//! operation chosen by the URL's `#operationId` (back and forward follow it).

use leptos::prelude::*;
use playground_openapi::Catalog;
use playground_openapi::document::AnyDocument;

use playground_openapi::outline::{Page, SCHEMAS_ANCHOR};
use playground_reference::html::{self, DOWNLOAD_ACTION};
use playground_reference::site::SiteConfig;
use playground_reference::{DocumentViews, Overview, ViewError};

use playground_openapi::security::SchemeKind;
use playground_openapi::servers::read_servers;

use super::authorize::Authorize;
use super::markdown::fragment;
use super::operation_list::OperationList;
use super::operation_view::OperationDetail;
use super::search::OperationSearch;
use crate::credentials::Marking;
use crate::document::Arrivals;

fn current_hash() -> Option<String> {
    let hash = web_sys::window()?.location().hash().ok()?;
    let anchor = hash.strip_prefix('#').unwrap_or(&hash);
    let decoded = js_sys::decode_uri_component(anchor).ok().and_then(|s| s.as_string()).unwrap_or_default();
    (!decoded.is_empty()).then_some(decoded)
}

/// Header with the document's title and version (and `children` beside them, such as the
/// document loader and the Mock block), the operations by group and tag (only the rows in view
/// are rendered), and the selected operation.
#[component]
pub fn Reference(
    /// The document; while its text arrives, its root so far (the list is shown already), then
    /// the whole document: the context's `Arrivals` says when, and the views waiting for it
    /// are made again, the list and the header follow its whole list.
    document: AnyDocument,
    /// The list, as shown first.
    catalog: Catalog,
    /// Whether it is the built-in Petstore document (its credentials and servers are kept
    /// under its name).
    #[prop(default = true)]
    builtin: bool,
    /// For a Swagger 2.0 document, converted as it loaded: what could not be carried over.
    #[prop(default = None)]
    converted: Option<Vec<String>>,
    /// The document's address, when it came from one: its descriptions' relative links and
    /// images are resolved against it.
    #[prop(default = None)]
    base: Option<String>,
    /// Saves the document's text as a file (the overview offers it when given).
    #[prop(optional)]
    download: Option<Callback<()>>,
    /// A published site's configuration: its title (else the document's), logo and try-it
    /// target.
    #[prop(default = None)]
    site: Option<std::sync::Arc<SiteConfig>>,
    #[prop(optional)] children: Option<Children>,
) -> impl IntoView {
    let document_key = document_key(base.as_deref(), builtin, &catalog.title);
    // The Authorize dialog's base URL: the document's first server, against its address.
    let servers_base = first_server(&document, base.as_deref());
    if let Some(base) = base {
        provide_context(super::markdown::DocumentBase(base));
    }
    // The title is that of the fields before `paths`: what arrives after the list is shown
    // adds operations (when only the first rows were read) and webhooks.
    let heading = Heading {
        title: site.as_ref().map_or(catalog.title.as_str(), |site| site.title_or(&catalog.title)).to_owned(),
        version: catalog.version.clone(),
        converted,
        logo: site.as_ref().and_then(|site| site.logo.clone()),
    };
    // A site whose panels are hidden has nothing to authorize.
    let offers_try_it =
        site.as_ref().is_none_or(|site| site.try_it != playground_reference::site::TryIt::None);
    let marking = marking(&document, &catalog, &document_key);
    let list = List::new(document.clone(), catalog);
    let selected = follow_hash();
    let authorize =
        offers_try_it.then(|| authorize_button(list, document.clone(), document_key.clone(), servers_base));
    let detail = Detail {
        document,
        list,
        selected,
        builtin,
        site,
        document_key,
        download: download.is_some(),
        on_action: download.map(download_action),
    };
    view! {
        {header(heading, list, authorize, children)}
        <div class="layout">
            {sidebar(list, selected, marking)}
            <main id="content">{move || detail.view()}</main>
        </div>
    }
}

/// The key credentials and servers are kept under, per document: its address, else the
/// built-in one's name, else its title.
fn document_key(base: Option<&str>, builtin: bool, title: &str) -> String {
    match (base, builtin) {
        (Some(address), _) => address.to_owned(),
        (None, true) => "petstore".to_owned(),
        (None, false) => format!("title:{title}"),
    }
}

/// The anchor the URL's hash names, following it (back and forward, links). Only a different
/// anchor changes it: an event for the same hash keeps the view's state (chosen sample tab,
/// form inputs).
fn follow_hash() -> RwSignal<Option<String>> {
    let hash = current_hash();
    point_markdown_twin(hash.as_deref());
    let selected = RwSignal::new(hash);
    let listener = window_event_listener(leptos::ev::hashchange, move |_| {
        let hash = current_hash();
        point_markdown_twin(hash.as_deref());
        if selected.get_untracked() != hash {
            selected.set(hash);
        }
    });
    on_cleanup(move || listener.remove());
    selected
}

/// A published site's page names its Markdown twin in `<link id="markdown-twin"
/// rel="alternate" type="text/markdown">` (`playground build` writes it, for the overview): the
/// link follows the view shown, so the page in a browser points at the same twin a client asking
/// the server for Markdown gets. The app's own page has no such link, and nothing is done.
fn point_markdown_twin(anchor: Option<&str>) {
    if let Some(link) =
        web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id("markdown-twin"))
    {
        let _ = link
            .set_attribute("href", &playground_openapi::outline::markdown_file(anchor.unwrap_or_default()));
    }
}

/// The document's list: the one shown first, then the whole document's once it arrived (the
/// context's `Arrivals`; read through it, a view is made again when the document arrives).
/// `Copy`: every part of the page reads it.
#[derive(Clone, Copy)]
struct List {
    document: StoredValue<AnyDocument>,
    shown: StoredValue<Catalog>,
    arrivals: Option<Arrivals>,
}

impl List {
    fn new(document: AnyDocument, shown: Catalog) -> Self {
        Self {
            document: StoredValue::new(document),
            shown: StoredValue::new(shown),
            arrivals: use_context::<Arrivals>(),
        }
    }

    /// The list now (a copy); tracked when the document still arrives.
    fn get(self) -> Catalog {
        self.arrivals
            .and_then(|a| self.document.with_value(|document| a.list_of(document)))
            .unwrap_or_else(|| self.shown.get_value())
    }
}

/// What the header says of the document, as it was first listed.
struct Heading {
    title: String,
    version: String,
    /// The conversion's notes, for a Swagger 2.0 document.
    converted: Option<Vec<String>>,
    /// A site's logo, before the title.
    logo: Option<String>,
}

/// The header: title, version, how many operations and webhooks (following the list), the
/// link to the schemas and the conversion's note, with `children` beside them.
fn header(
    heading: Heading,
    list: List,
    authorize: Option<impl IntoView>,
    children: Option<Children>,
) -> impl IntoView {
    let Heading { title, version, converted, logo } = heading;
    // `playground_reference::html::prerender` writes the same header for a site's first paint.
    let logo = logo.map(|src| view! { <img class="site-logo" src=src alt="" data-testid="site-logo" /> });
    view! {
        <header class="doc-header">
            <div class="doc-heading">
                <h1 data-testid="doc-title"><a href="#" class="title-link">{logo}{title}</a></h1>
                <p class="doc-meta">
                    <span class="version" data-testid="doc-version">{html::version_label(&version)}</span>
                    <span class="op-count" data-testid="op-count">{move || html::operation_count(&list.get())}</span>
                    {move || webhook_count(&list.get())}
                    <a href=playground_openapi::outline::href(SCHEMAS_ANCHOR) data-testid="header-schemas-link">"Schemas"</a>
                </p>
                {authorize}
                {converted.map(|notes| view! { <Converted notes=notes /> })}
            </div>
            {children.map(|children| children())}
        </header>
    }
}

/// "2 webhooks", when the document has any.
fn webhook_count(catalog: &Catalog) -> Option<impl IntoView + use<>> {
    let webhooks = catalog.webhook_count();
    (webhooks > 0).then(|| {
        view! {
            <span class="op-count" data-testid="webhook-count">
                {html::count(webhooks, "webhook")}
            </span>
        }
    })
}

/// The search box over the list of the operations that match it.
fn sidebar(list: List, selected: RwSignal<Option<String>>, marking: Marking) -> impl IntoView {
    let query = RwSignal::new(String::new());
    view! {
        <aside class="sidebar">
            <OperationSearch query=query />
            {move || matching(list, &query.get(), selected, marking.clone())}
        </aside>
    }
}

/// The operations matching `query`, or a line saying none does. A new query makes the list
/// again; the rest of the document arriving changes its rows in place (`regroup`).
fn matching(list: List, query: &str, selected: RwSignal<Option<String>>, marking: Marking) -> AnyView {
    let arrivals = list.arrivals;
    let groups = untrack(|| list.get().filter_folded(query, &fold_case));
    if groups.is_empty() {
        // The rest of the document may hold a match: looked for again when it arrives.
        let _ = arrivals.map(|arrivals| arrivals.count());
        return view! {
            <p class="hint" role="status" data-testid="search-empty">
                {format!("No operation matches \u{201c}{}\u{201d}.", query.trim())}
            </p>
        }
        .into_any();
    }
    let query = query.to_owned();
    let regroup = Callback::new(move |()| {
        let catalog = list.get();
        (catalog.filter_folded(&query, &fold_case), catalog.security)
    });
    view! { <OperationList groups=groups selected=selected arrivals=arrivals regroup=regroup marking=marking /> }
        .into_any()
}

/// What the list marks operations with: the document's `security` and the schemes with
/// credentials (`crate::credentials`), mutual TLS ones always: the browser presents a client
/// certificate itself.
fn marking(document: &AnyDocument, catalog: &Catalog, document_key: &str) -> Marking {
    let always = document
        .security_schemes()
        .unwrap_or_default()
        .into_iter()
        .filter(|scheme| scheme.kind == SchemeKind::MutualTls)
        .map(|scheme| scheme.name)
        .collect();
    Marking { document: catalog.security.clone(), filled: crate::credentials::filled(document_key, always) }
}

/// The header's Authorize button, for a document with security schemes (looked for again when
/// the rest of the document arrives).
fn authorize_button(
    list: List,
    document: AnyDocument,
    document_key: String,
    base_url: String,
) -> impl IntoView {
    move || {
        let _ = list.arrivals.map(|arrivals| arrivals.count());
        let schemes = document.security_schemes().unwrap_or_default();
        (!schemes.is_empty()).then(|| {
            view! { <Authorize schemes=schemes document_key=document_key.clone() base_url=base_url.clone() /> }
        })
    }
}

/// The first server of `document` with its variables' defaults, absolute (against the
/// document's address, else the page's); the page's address when it names none.
fn first_server(document: &AnyDocument, address: Option<&str>) -> String {
    let page = web_sys::window().and_then(|w| w.location().href().ok()).unwrap_or_default();
    let against = address.map_or_else(|| page.clone(), str::to_owned);
    let against = web_sys::Url::new_with_base(&against, &page).map(|u| u.href()).unwrap_or(page);
    let first = document
        .root()
        .and_then(|root| root.get("servers"))
        .and_then(|servers| read_servers(servers).into_iter().next())
        .map_or_else(|| "/".to_owned(), |server| server.resolve(&[]));
    web_sys::Url::new_with_base(&first, &against).map(|u| u.href()).unwrap_or(against)
}

/// The overview's actions: its Download button runs `download`.
fn download_action(download: Callback<()>) -> Callback<String> {
    Callback::new(move |action: String| {
        if action == DOWNLOAD_ACTION {
            download.run(());
        }
    })
}

/// The main column: what the hash names (an operation by its anchor, else a tag's page, the
/// schemas or a schema), or the overview when there is no hash.
struct Detail {
    document: AnyDocument,
    list: List,
    selected: RwSignal<Option<String>>,
    /// Where the try-it panel starts on the mock (the built-in document).
    builtin: bool,
    /// A published site's configuration: its try-it target.
    site: Option<std::sync::Arc<SiteConfig>>,
    document_key: String,
    /// Whether the overview offers the download.
    download: bool,
    /// The overview's download button.
    on_action: Option<Callback<String>>,
}

impl Detail {
    /// The view for the hash now. Reading the list, a view of a document that is still
    /// arriving is made again when it arrives: the one waiting for the rest, the overview, a
    /// tag's page (the root fields and the webhooks that came after `paths` are in).
    fn view(&self) -> AnyView {
        let catalog = self.list.get();
        let overview = self.document.root().map(Overview::from_root).unwrap_or_default();
        let Some(anchor) = self.selected.get() else {
            let write = |out: &mut html::Html<'_>| html::overview(out, &catalog, &overview, self.download);
            return fragment(&write, self.on_action);
        };
        if let Some(op) = catalog.operations().find(|o| o.anchor() == anchor) {
            return match self.document.view_of(op) {
                Ok(view) => view! {
                    <OperationDetail view=view mock_first=self.builtin document_key=self.document_key.clone() site=self.site.clone() />
                }
                .into_any(),
                Err(e @ ViewError::Arriving) => fragment(&|out| html::pending(out, &e.to_string()), None),
                Err(e) => fragment(&|out| html::error(out, "", &e.to_string()), None),
            };
        }
        if let Some(Page::Schema(name)) = Page::of(&anchor)
            && let Ok(schema) = self.document.schema_view(name)
        {
            return schema_detail(schema);
        }
        fragment(&|out| self.page(out, &catalog, &overview, &anchor), None)
    }

    /// A page that is not an operation's: the schemas, a schema or a tag's page; else what the
    /// hash names is not in the document.
    fn page(&self, out: &mut html::Html<'_>, catalog: &Catalog, overview: &Overview, anchor: &str) {
        let shown = match Page::of(anchor) {
            Some(Page::Schemas) => {
                match self.document.schema_names().map_err(ViewError::from) {
                    Ok(names) => html::schema_list(out, &names),
                    Err(e @ ViewError::Arriving) => html::pending(out, &e.to_string()),
                    Err(e) => html::error(out, "", &e.to_string()),
                }
                true
            }
            Some(Page::Schema(name)) => {
                match self.document.schema_view(name) {
                    Ok(schema) => html::schema_page(out, &schema),
                    Err(e @ ViewError::Arriving) => html::pending(out, &e.to_string()),
                    Err(e) => html::error(out, "unknown-schema", &e.to_string()),
                }
                true
            }
            Some(Page::Tag(name)) => html::tag_page(out, catalog, overview, name),
            None => false,
        };
        if !shown {
            html::error(
                out,
                "unknown-operation",
                &format!("There is no operation #{anchor} in this document."),
            );
        }
    }
}

/// The browser's case folding, for the search (no Unicode tables in the page's WebAssembly).
fn fold_case(text: &str) -> String {
    js_sys::JsString::from(text).to_lower_case().into()
}

/// The note on a Swagger 2.0 document: it was converted to OpenAPI 3.0 as it loaded, and what
/// the conversion could not carry over exactly.
#[component]
fn Converted(notes: Vec<String>) -> impl IntoView {
    let lead = "Converted from Swagger 2.0 to OpenAPI 3.0 as it loaded";
    if notes.is_empty() {
        return view! { <p class="hint converted" data-testid="converted">{format!("{lead}.")}</p> }
            .into_any();
    }
    let count = notes.len();
    view! {
        <details class="hint converted" data-testid="converted">
            <summary>{format!("{lead}; {count} thing{} not carried over exactly", if count == 1 { "" } else { "s" })}</summary>
            <ul>{notes.into_iter().map(|n| view! { <li>{n}</li> }).collect_view()}</ul>
        </details>
    }
    .into_any()
}

/// A component schema's page. Its Example block is the mock generator's (or the schema's own
/// example, with a note when it does not fit), from the try-it module once it is loaded; until
/// then, and if it cannot load, the reference's own.
fn schema_detail(schema: playground_reference::SchemaView) -> AnyView {
    let node = NodeRef::<leptos::html::Div>::new();
    let host = crate::tryit::TryItHost::from_context();
    let doc = serde_json::to_string(&schema.schema_document).unwrap_or_default();
    let slots = serde_json::to_string(&[&schema.slot]).unwrap_or_default();
    node.on_load(move |root| {
        leptos::task::spawn_local(async move {
            let _ = host.fill_examples(&root, &doc, &slots).await;
        });
    });
    let page = fragment(&|out| html::schema_page(out, &schema), None);
    view! { <div node_ref=node>{page}</div> }.into_any()
}
