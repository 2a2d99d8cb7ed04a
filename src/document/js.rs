//! The JavaScript side of loading a document: fetch, file reads, js-yaml and the page's
//! address, and reading the plain objects it answers with.

use wasm_bindgen::prelude::*;

// Input and output stay in JavaScript (fetch, file reads, js-yaml): the initial WebAssembly
// has a size budget. A body crosses into Rust as Uint8Array chunks, which is much cheaper than a
// string for large documents; every decision and message is Rust's (the core's).
#[wasm_bindgen(inline_js = r#"
export async function readDocument(kind, input) {
  if (kind === "text") return { bytes: new TextEncoder().encode(input), label: "" };
  const opened = await openDocument(kind, input);
  if (!opened.reader) return opened;
  try {
    const body = await new Response(new ReadableStream({ pull: (c) => opened.reader.read().then((r) => (r.done ? c.close() : c.enqueue(r.value))) })).arrayBuffer();
    return { bytes: new Uint8Array(body), label: opened.label };
  } catch (e) {
    return kind === "file" ? { error: "file", message: String((e && e.message) || e) } : { error: "network", url: opened.label };
  }
}
// A document's bytes as they arrive: { reader, label, size } (size 0 when unknown), or { error, ... }.
export async function openDocument(kind, input) {
  if (kind === "file") {
    try {
      return { reader: input.stream().getReader(), label: input.name, size: input.size };
    } catch (e) {
      return { error: "file", message: String((e && e.message) || e) };
    }
  }
  let url;
  try {
    url = new URL(String(input).trim(), document.baseURI);
  } catch (e) {
    return { error: "bad-url" };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return { error: "bad-url" };
  try {
    // index.html starts the request for the ?url= document before the app runs; taken once.
    const early = globalThis.__playgroundEarlyDocument;
    let response, reader;
    if (early && early.href === url.href) {
      globalThis.__playgroundEarlyDocument = undefined;
      response = await early.response;
      // Its body, read into a queue since it started to arrive (index.html).
      reader = await early.reader;
    } else {
      response = await fetch(url.href);
    }
    if (!response.ok) return { error: "http", url: url.href, status: response.status, statusText: response.statusText };
    // Compressed answers give the compressed length: only an estimate of the room to reserve.
    const size = response.headers.get("content-encoding") ? 0 : Number(response.headers.get("content-length")) || 0;
    return { reader: reader || response.body.getReader(), label: url.href, size };
  } catch (e) {
    return { error: "network", url: url.href };
  }
}
// The next chunk (a Uint8Array), null at the end, or false when the read failed.
export async function nextChunk(reader) {
  try {
    const { done, value } = await reader.read();
    return done ? null : value;
  } catch (e) {
    return false;
  }
}
// Whether `promise` settles within `ms` milliseconds; the promise itself is left as it is.
export function settledWithin(promise, ms) {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    const settled = () => {
      clearTimeout(timer);
      resolve(true);
    };
    promise.then(settled, settled);
  });
}
export function cancelRead(reader) {
  reader.cancel().catch(() => {});
}
export function setPageUrl(address) {
  const query = address == null ? "" : "?url=" + encodeURIComponent(address);
  history.replaceState(null, "", location.pathname + query);
}
export function showLoader(root, source, loading, error) {
  const show = (selector, slot, text) => {
    const element = root.querySelector(selector);
    if (!element) return;
    (slot ? element.querySelector(slot) : element).textContent = text ?? "";
    element.hidden = text == null;
  };
  show("[data-testid=document-source]", "[data-slot=source]", source);
  show("[data-testid=document-status]", null, loading);
  show("[data-testid=document-error]", "[data-testid=document-error-message]", error);
}
// js-yaml's minified build (13 KB gzip, half its ES module) defines the global `jsyaml`.
// index.html's first script makes its script element for an address ending in .yaml or .yml
// (`__playgroundYaml`, loaded once `__playgroundYamlStart` is called: after the first screen);
// if that load failed, it is tried once more here.
function loadYaml() {
  if (globalThis.jsyaml) return Promise.resolve(globalThis.jsyaml);
  const early = globalThis.__playgroundYaml;
  if (early) {
    globalThis.__playgroundYaml = undefined;
    globalThis.__playgroundYamlStart?.();
    return early.catch(() => loadYaml());
  }
  return new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = new URL("vendor/js-yaml.min.js", document.baseURI).href;
    script.onload = () => (globalThis.jsyaml ? resolve(globalThis.jsyaml) : reject(new Error(`${script.src} did not define jsyaml`)));
    script.onerror = () => reject(new Error(`${script.src} did not load`));
    document.head.append(script);
  });
}
// Bundles the description at `address` whose root file reads as `bytes` (JSON): fetches the
// files its references name, 8 at a time, YAML read by js-yaml, and hands them to the
// converter module's DocumentBundle; gives { bytes } (the one document's JSON), or { error }.
export async function bundleDocument(module, address, bytes) {
  let bundle;
  try {
    bundle = new module.DocumentBundle(address, bytes);
  } catch (e) {
    return { error: String((e && e.message) || e) };
  }
  const one = async (url) => {
    let response;
    try {
      response = await fetch(url);
    } catch (e) {
      return bundle.provide(url, undefined, "could not be fetched (the network failed, or the server does not allow this page to read it)", 0);
    }
    if (!response.ok) return bundle.provide(url, undefined, `could not be fetched: the server answered ${response.status} ${response.statusText}`.trimEnd(), 0);
    let body;
    try {
      body = new Uint8Array(await response.arrayBuffer());
    } catch (e) {
      return bundle.provide(url, undefined, "stopped arriving before its end", 0);
    }
    const first = body.find((b) => b !== 0x20 && b !== 0x0a && b !== 0x0d && b !== 0x09 && b !== 0xef && b !== 0xbb && b !== 0xbf);
    let json = body;
    if (first !== 0x7b && first !== 0x5b) {
      const read = await yamlToJson(body);
      if (!read.bytes) {
        const where = read.line ? ` (line ${read.line}, column ${read.column})` : "";
        return bundle.provide(url, undefined, `is neither JSON nor YAML: ${read.reason || read.unavailable}${where}`, body.length);
      }
      json = read.bytes;
    }
    bundle.provide(url, json, undefined, body.length);
  };
  for (;;) {
    const wanted = bundle.wanted();
    if (!wanted.length) break;
    let next = 0;
    const worker = async () => {
      while (next < wanted.length) await one(wanted[next++]);
    };
    await Promise.all(Array.from({ length: Math.min(8, wanted.length) }, worker));
  }
  const { json, problems } = bundle.finish();
  // The views say why where a reference is used; the console lists them all.
  for (const problem of problems) console.warn(`${address}: ${problem}`);
  return { bytes: json };
}
export async function yamlToJson(bytes) {
  let yaml;
  try {
    yaml = await loadYaml();
  } catch (e) {
    return { unavailable: String((e && e.message) || e) };
  }
  try {
    const value = yaml.load(new TextDecoder().decode(bytes), { schema: yaml.CORE_SCHEMA });
    return { bytes: new TextEncoder().encode(JSON.stringify(value === undefined ? null : value)) };
  } catch (e) {
    const mark = e && e.mark;
    return {
      reason: String((e && (e.reason || e.message)) || e),
      line: mark ? mark.line + 1 : 0,
      column: mark ? mark.column + 1 : 0,
    };
  }
}
"#)]
extern "C" {
    #[wasm_bindgen(js_name = readDocument)]
    pub(super) fn read_document_js(kind: &str, input: &JsValue) -> js_sys::Promise;
    #[wasm_bindgen(js_name = openDocument)]
    pub(super) fn open_document_js(kind: &str, input: &JsValue) -> js_sys::Promise;
    #[wasm_bindgen(js_name = nextChunk)]
    pub(super) fn next_chunk_js(reader: &JsValue) -> js_sys::Promise;
    #[wasm_bindgen(js_name = settledWithin)]
    pub(super) fn settled_within_js(promise: &js_sys::Promise, ms: f64) -> js_sys::Promise;
    #[wasm_bindgen(js_name = cancelRead)]
    pub(super) fn cancel_read_js(reader: &JsValue);
    #[wasm_bindgen(js_name = setPageUrl)]
    pub(super) fn set_page_url_js(address: Option<&str>);
    /// Fills the loader's source line, status and error (`None` hides each).
    #[wasm_bindgen(js_name = showLoader)]
    pub(crate) fn show_loader(
        root: &web_sys::Element,
        source: Option<&str>,
        loading: Option<&str>,
        error: Option<&str>,
    );
    #[wasm_bindgen(js_name = yamlToJson)]
    pub(super) fn yaml_to_json_js(bytes: js_sys::Uint8Array) -> js_sys::Promise;
    #[wasm_bindgen(js_name = bundleDocument)]
    pub(super) fn bundle_document_js(
        module: &JsValue,
        address: &str,
        bytes: js_sys::Uint8Array,
    ) -> js_sys::Promise;
}

/// A field of a plain object JavaScript returned.
pub(super) fn field(object: &JsValue, name: &str) -> JsValue {
    js_sys::Reflect::get(object, &JsValue::from_str(name)).unwrap_or(JsValue::UNDEFINED)
}

pub(super) fn text(object: &JsValue, name: &str) -> String {
    field(object, name).as_string().unwrap_or_default()
}

pub(super) fn number(object: &JsValue, name: &str) -> usize {
    // Statuses, lines and columns are small non-negative integers.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let n = field(object, name).as_f64().unwrap_or(0.0).max(0.0) as usize;
    n
}

pub(super) fn bytes(object: &JsValue) -> Option<Vec<u8>> {
    field(object, "bytes").dyn_ref::<js_sys::Uint8Array>().map(js_sys::Uint8Array::to_vec)
}
