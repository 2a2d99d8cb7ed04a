//! Markdown from the document, rendered into HTML with no executable content by the core's
//! renderer. The renderer is the deferred module `markdown/petstore_markdown.js`, loaded after
//! the first description has been painted: until then (a few tens of milliseconds) a
//! description shows as plain text, then every description on the page switches to its
//! rendered form.

use std::rc::Rc;

use js_sys::{Function, Reflect};
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen::JsValue;
use wasm_bindgen::prelude::wasm_bindgen;

#[wasm_bindgen(inline_js = r##"
export function resolveLinks(html, base) {
  let from;
  try {
    from = new URL(base, document.baseURI);
  } catch (e) {
    return html;
  }
  const holder = document.createElement("template");
  holder.innerHTML = html;
  for (const element of holder.content.querySelectorAll("img[src], a[href]")) {
    const name = element.tagName === "IMG" ? "src" : "href";
    const value = element.getAttribute(name);
    if (!value || value.startsWith("#")) continue;
    try {
      element.setAttribute(name, new URL(value, from).href);
    } catch (e) {}
  }
  return holder.innerHTML;
}
"##)]
extern "C" {
    #[wasm_bindgen(js_name = resolveLinks)]
    fn resolve_links(html: &str, base: &str) -> String;
}

/// The address of the shown document, when it came from one: relative links and images in
/// its descriptions are resolved against it, not against the page.
#[derive(Debug, Clone)]
pub struct DocumentBase(pub String);

/// The renderer's module, relative to the page.
const MODULE_PATH: &str = "markdown/petstore_markdown.js";

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

    /// `source` as HTML, once the renderer is ready (tracked).
    fn render(self, source: &str) -> Option<String> {
        let render = self.0.with(|renderer| match renderer {
            Renderer::Ready(render) => Some(Rc::clone(render)),
            Renderer::NotRequested | Renderer::Requested => None,
        });
        render.and_then(|render| render(source))
    }
}

/// A description rendered from Markdown (plain text until the page's renderer is ready, and
/// outside an [`crate::App`], which provides it).
#[component]
pub fn Markdown(#[prop(into)] source: String) -> impl IntoView {
    let renderer = use_context::<MarkdownRenderer>();
    if let Some(renderer) = renderer {
        renderer.request();
    }
    let base = use_context::<DocumentBase>();
    move || match renderer.and_then(|renderer| renderer.render(&source)) {
        Some(html) => {
            let html = match &base {
                Some(DocumentBase(base)) => resolve_links(&html, base),
                None => html,
            };
            view! { <div class="markdown" inner_html=html></div> }.into_any()
        }
        None => view! { <div class="markdown markdown-plain">{source.clone()}</div> }.into_any(),
    }
}
