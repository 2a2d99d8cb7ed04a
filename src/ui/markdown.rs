//! Markdown from the document, rendered into HTML with no executable content by the core's
//! renderer. The renderer is the deferred module `markdown/playground_markdown.js`, loaded after
//! the first description has been painted: until then (a few tens of milliseconds) a
//! description shows as plain text, then every description on the page switches to its
//! rendered form.

use std::rc::Rc;

use js_sys::{Function, Reflect};
use leptos::prelude::*;
use playground_reference::html::{Html, MARKDOWN_SOURCE};
use wasm_bindgen::JsCast;
use wasm_bindgen::JsValue;

use crate::modules::resolve_links_in;

/// The links and images of the descriptions in a fragment.
const FRAGMENT_LINKS: &str = ".markdown img[src], .markdown a[href]";
/// The links and images of one description.
const LINKS: &str = "img[src], a[href]";

/// The address of the shown document, when it came from one: relative links and images in
/// its descriptions are resolved against it, not against the page.
#[derive(Debug, Clone)]
pub struct DocumentBase(pub String);

/// The renderer's module, relative to the page.
const MODULE_PATH: &str = "markdown/playground_markdown.js";

type Render = Rc<dyn Fn(&str) -> Option<String>>;

/// Where the page's renderer is.
#[derive(Clone, Default)]
enum Renderer {
    /// No description has been shown yet, so the module was not asked for.
    #[default]
    NotRequested,
    /// The module is loading, or did not load (descriptions stay plain text).
    Requested,
    /// Renders Markdown.
    Ready(Render),
}

/// The page's Markdown renderer, provided once at [`crate::App`] for every description below.
/// `Copy`; setting it renders every description on the page again.
#[derive(Clone, Copy)]
pub struct MarkdownRenderer(RwSignal<Renderer, LocalStorage>);

impl std::fmt::Debug for MarkdownRenderer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let ready = self.0.try_with_untracked(|r| matches!(r, Renderer::Ready(_))).unwrap_or(false);
        f.debug_struct("MarkdownRenderer").field("ready", &ready).finish()
    }
}

impl MarkdownRenderer {
    /// A renderer whose module loads once the first description is on screen.
    #[must_use]
    pub fn deferred() -> Self {
        Self(RwSignal::new_local(Renderer::NotRequested))
    }

    /// A renderer that renders with `render` at once (tests link the core's renderer directly).
    #[must_use]
    pub fn ready(render: impl Fn(&str) -> Option<String> + 'static) -> Self {
        Self(RwSignal::new_local(Renderer::Ready(Rc::new(render))))
    }

    /// Loads the module in the background, the first time only; on failure descriptions stay
    /// plain text and the reason goes to the console.
    fn request(self) {
        let first = self.0.try_update_untracked(|renderer| {
            let first = matches!(renderer, Renderer::NotRequested);
            if first {
                *renderer = Renderer::Requested;
            }
            first
        });
        if first != Some(true) {
            return;
        }
        leptos::task::spawn_local(async move {
            let loaded = crate::modules::load(MODULE_PATH).await.and_then(|module| {
                Reflect::get(&module, &"markdownToHtml".into())
                    .ok()
                    .and_then(|f| f.dyn_into::<Function>().ok())
                    .ok_or_else(|| "markdownToHtml is missing".to_owned())
            });
            match loaded {
                Ok(render) => self.0.set(Renderer::Ready(Rc::new(move |source| {
                    render
                        .call1(&JsValue::NULL, &JsValue::from_str(source))
                        .ok()
                        .and_then(|html| html.as_string())
                }))),
                Err(reason) => {
                    web_sys::console::warn_1(&format!("Descriptions stay plain text: {reason}").into());
                }
            }
        });
    }

    /// Whether descriptions can be rendered now (tracked).
    fn is_ready(self) -> bool {
        self.0.with(|renderer| matches!(renderer, Renderer::Ready(_)))
    }

    /// `source` as HTML, when the renderer is ready (untracked).
    fn render_untracked(self, source: &str) -> Option<String> {
        let render = self.0.try_with_untracked(|renderer| match renderer {
            Renderer::Ready(render) => Some(Rc::clone(render)),
            Renderer::NotRequested | Renderer::Requested => None,
        });
        render.flatten().and_then(|render| render(source))
    }
}

/// Renders `source` with the page's renderer; `None` until the renderer is ready. Relative
/// links are resolved once the HTML is in the page.
fn render_markdown(renderer: Option<MarkdownRenderer>, source: &str) -> Option<String> {
    renderer?.render_untracked(source)
}

/// Renders the descriptions still shown as plain text under `root`, in place, a slice of time
/// at a time (an overview can have thousands: one per tag), their relative links resolved
/// against the document's address.
async fn render_pending(root: web_sys::Element, renderer: MarkdownRenderer, base: Option<DocumentBase>) {
    let selector = format!("[{MARKDOWN_SOURCE}]");
    let Ok(pending) = root.query_selector_all(&selector) else { return };
    let mut slice = js_sys::Date::now();
    for i in 0..pending.length() {
        if js_sys::Date::now() - slice > crate::modules::SLICE_MS {
            crate::modules::next_task().await;
            slice = js_sys::Date::now();
        }
        let Some(element) = pending.item(i).and_then(|n| n.dyn_into::<web_sys::Element>().ok()) else {
            continue;
        };
        // Replaced meanwhile (another page shown): nothing to do.
        if !element.is_connected() || !element.has_attribute(MARKDOWN_SOURCE) {
            continue;
        }
        let source = element.text_content().unwrap_or_default();
        if let Some(html) = render_markdown(Some(renderer), &source) {
            element.set_inner_html(&html);
            element.set_class_name("markdown");
            let _ = element.remove_attribute(MARKDOWN_SOURCE);
            if let Some(DocumentBase(base)) = &base {
                resolve_links_in(&element, base, LINKS);
            }
        }
    }
}

/// A read-only part of the reference that the core writes as HTML ([`playground_reference::html`]):
/// its descriptions are rendered Markdown when the page's renderer is ready, else plain text
/// until it is (outside an [`crate::App`], which provides the renderer, they stay text).
/// A click on a button with a `data-action` calls `on_action` with the action's name.
pub fn fragment(write: &dyn Fn(&mut Html<'_>), on_action: Option<Callback<String>>) -> AnyView {
    let renderer = use_context::<MarkdownRenderer>();
    let base = use_context::<DocumentBase>();
    let render = |source: &str| render_markdown(renderer, source);
    let mut html = Html::new(&render);
    write(&mut html);
    let pending = html.markdown_pending();
    let html = html.finish();
    let node = NodeRef::<leptos::html::Div>::new();
    if let (true, Some(renderer)) = (pending, renderer) {
        renderer.request();
        let base = base.clone();
        Effect::new(move |done: Option<bool>| {
            if done == Some(true) {
                return true;
            }
            let (true, Some(root)) = (renderer.is_ready(), node.get()) else { return false };
            leptos::task::spawn_local(render_pending(root.into(), renderer, base.clone()));
            true
        });
    }
    if let Some(DocumentBase(base)) = base.filter(|_| html.contains(r#"<div class="markdown">"#)) {
        // The descriptions rendered at once have their links resolved once they are in.
        crate::effect(move || {
            if let Some(root) = node.get() {
                resolve_links_in(&root, &base, FRAGMENT_LINKS);
            }
        });
    }
    let click = move |event: leptos::ev::MouseEvent| {
        let action = event
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|e| e.closest("[data-action]").ok().flatten())
            .and_then(|e| e.get_attribute("data-action"));
        if let (Some(action), Some(on_action)) = (action, on_action) {
            on_action.run(action);
        }
    };
    view! { <div class="fragment" node_ref=node inner_html=html on:click=click></div> }.into_any()
}
