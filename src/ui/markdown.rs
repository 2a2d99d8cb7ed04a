//! Markdown from the document, rendered into HTML with no executable content by the core's
//! renderer. The renderer is the deferred module `markdown/petstore_markdown.js`, loaded after
//! the first description has been painted: until then (a few tens of milliseconds) a
//! description shows as plain text, then every description on the page switches to its
//! rendered form.

use std::cell::RefCell;
use std::rc::Rc;

use js_sys::{Function, Reflect};
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen::JsValue;

/// The renderer's module, relative to the page.
pub const MODULE_PATH: &str = "markdown/petstore_markdown.js";

type Renderer = Rc<dyn Fn(&str) -> Option<String>>;

thread_local! {
    static RENDERER: RefCell<Option<Renderer>> = const { RefCell::new(None) };
    /// Bumped when a renderer is set, so descriptions already on screen render again.
    static GENERATION: ArcRwSignal<u32> = ArcRwSignal::new(0);
    /// Whether the module was asked for already.
    static REQUESTED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Renders Markdown with `render` from now on (tests link the core's renderer directly).
pub fn set_renderer(render: impl Fn(&str) -> Option<String> + 'static) {
    RENDERER.with_borrow_mut(|r| *r = Some(Rc::new(render)));
    GENERATION.with(|g| g.update(|n| *n += 1));
}

/// Loads the renderer's module in the background, once, unless a renderer is set already; on
/// failure descriptions stay plain text and the reason goes to the console.
pub fn load_renderer() {
    if REQUESTED.with(|r| r.replace(true)) || RENDERER.with_borrow(Option::is_some) {
        return;
    }
    leptos::task::spawn_local(async {
        let loaded = crate::modules::load(MODULE_PATH).await.and_then(|module| {
            Reflect::get(&module, &"markdownToHtml".into())
                .ok()
                .and_then(|f| f.dyn_into::<Function>().ok())
                .ok_or_else(|| "markdownToHtml is missing".to_owned())
        });
        match loaded {
            Ok(render) => set_renderer(move |source| {
                render
                    .call1(&JsValue::NULL, &JsValue::from_str(source))
                    .ok()
                    .and_then(|html| html.as_string())
            }),
            Err(reason) => {
                web_sys::console::warn_1(&format!("Descriptions stay plain text: {reason}").into());
            }
        }
    });
}

/// A description rendered from Markdown.
#[component]
pub fn Markdown(#[prop(into)] source: String) -> impl IntoView {
    let generation = GENERATION.with(Clone::clone);
    load_renderer();
    move || {
        generation.track();
        match RENDERER.with_borrow(|r| r.clone()).and_then(|render| render(&source)) {
            Some(html) => view! { <div class="markdown" inner_html=html></div> }.into_any(),
            None => view! { <div class="markdown markdown-plain">{source.clone()}</div> }.into_any(),
        }
    }
}
