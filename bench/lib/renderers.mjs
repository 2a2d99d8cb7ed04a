// The reference renderers compared by `make bench`: how each is served, and the DOM conditions
// that say "the operation list is visible" and "the first operation is interactive".
//
// Every tool is opened the way its documentation says, with its online features off (see the
// pages in bench/pages/). The conditions are checked on every animation frame, so a figure is
// the first frame at which the condition held, counted from the navigation's start.
import { join } from "node:path";

/** A DOM condition, checked in the page: the first element matching `selector` has a box. */
export const visible = (selector) => `(() => {
  const element = document.querySelector(${JSON.stringify(selector)});
  if (!element) return false;
  const box = element.getBoundingClientRect();
  return box.width > 0 && box.height > 0;
})()`;

/** Checked in the page: the element with id `id`, or a heading with `text`, is in the viewport. */
const inViewport = ({ id, text, selector = "h1, h2, h3" }) => `(() => {
  const shown = (e) => { const b = e.getBoundingClientRect(); return b.height > 0 && b.bottom > 0 && b.top < innerHeight; };
  ${id ? `const byId = document.getElementById(${JSON.stringify(id)}); if (byId) return shown(byId);` : ""}
  return [...document.querySelectorAll(${JSON.stringify(selector)})]
    .some((e) => e.textContent.trim() === ${JSON.stringify(text ?? "")} && shown(e));
})()`;

/** Checked in the page: the element `find` (source of an expression) finds has a box in the viewport. */
const boxInViewport = (find) => `(() => {
  const e = ${find};
  if (!e) return false;
  const b = e.getBoundingClientRect();
  return b.width > 0 && b.height > 0 && b.bottom > 0 && b.top < innerHeight;
})()`;

/** The fragment our app writes for an anchor (playground_openapi::outline::href): a few characters percent-encoded. */
const fragment = (anchor) => anchor.replace(/[\u0000-\u001f\u007f "<>`#%]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`);

/** A tag or operationId as Redoc and Scalar write it in their links (GitHub's names are already slugs). */
const slug = (s) => s.trim().toLowerCase().replace(/\s+/g, "-");

/** Source of a function (for the page) that finds the first visible element matching `selector`. */
const firstVisible = (selector) => `() => [...document.querySelectorAll(${JSON.stringify(selector)})]
  .find((e) => { const b = e.getBoundingClientRect(); return b.width > 0 && b.height > 0 && getComputedStyle(e).visibility !== "hidden"; }) ?? null`;

/**
 * Each tool: `url(site, doc)` is the URL to open, `list` the condition for the operation list,
 * `open(page, timeout)` opens the first operation as a reader would, with mouse clicks (`page`
 * from lib/cdp.mjs), and resolves with the time (performance.now()) of the first frame showing
 * it; `describe` says both conditions.
 *
 * Deep links: `deepLink(site, doc, op)` is the address that opens operation `op` ({operationId,
 * tag, method, path}: one that each tool lists under its first tag), written the way the tool
 * itself writes it when a reader opens that operation; `shown(op)` the condition that the
 * operation is on screen; `describe.deepLink` says both.
 */
export function renderers({ dist, nodeModules, redoc3, pages }) {
  // A peer's page (bench/pages/), its package under /vendor/ and the documents under /docs/.
  const peer = (dir) => (docs) => ({ ...docs, "/vendor/": dir + "/", "/": pages + "/" });
  return {
    "Petstore Playground": {
      routes: (docs) => ({ ...docs, "/": `${dist}/` }),
      index: "index.html",
      url: (site, doc) => (doc.builtin ? site : `${site}?url=${encodeURIComponent(doc.path)}`),
      list: (doc) => `(() => {
        const title = document.querySelector("[data-testid=doc-title]")?.textContent;
        return title === ${JSON.stringify(doc.title)} && ${visible("[data-testid=operation]")};
      })()`,
      async open(page, timeout) {
        const id = await page.click(firstVisible("[data-testid=operation] a"), timeout, "(e) => e.closest('[data-testid=operation]').dataset.operationId");
        return page.waitFrame(visible(`[data-testid=operation-detail][data-operation-id="${id}"]`), timeout);
      },
      deepLink: (site, doc, op) => `${doc.builtin ? site : `${site}?url=${encodeURIComponent(doc.path)}`}#${fragment(op.operationId)}`,
      shown: (op) => boxInViewport(`document.querySelector(${JSON.stringify(`[data-testid=operation-detail][data-operation-id="${op.operationId}"]`)})`),
      describe: {
        list: "the document's title and the first row of the operation list (`[data-testid=operation]`) have a box",
        open: "click the first row; its detail (`[data-testid=operation-detail]`) has a box",
        deepLink: "`?url=<document>#<operationId>`; the operation's detail (`[data-testid=operation-detail][data-operation-id=<id>]`) has a box in the viewport",
      },
    },
    "Swagger UI": {
      version: "swagger-ui-dist",
      routes: peer(join(nodeModules, "swagger-ui-dist")),
      index: "swagger-ui.html",
      list: () => visible(".opblock .opblock-summary"),
      async open(page, timeout) {
        await page.click(firstVisible(".opblock .opblock-summary-control"), timeout);
        return page.waitFrame(visible(".opblock.is-open .opblock-body"), timeout);
      },
      // deepLinking: true (bench/pages/swagger-ui.html): `#/<tag>/<operationId>`, as Swagger UI
      // writes it when an operation is opened (createDeepLinkPath of the encoded names).
      deepLink: (site, doc, op) => `${site}?doc=${encodeURIComponent(doc.path)}#/${encodeURIComponent(op.tag)}/${encodeURIComponent(op.operationId)}`,
      // Swagger UI decodes the whole hash, then splits it at "/" (deep_linking's
      // parseDeepLinkHash), so the link it writes for an operationId with a "/" (all of
      // GitHub's) opens only the tag. Measured all the same, with a shorter wait.
      deepLinkLimit: (op) => (op.operationId.includes("/")
        ? "opens only the tag: Swagger UI decodes the whole hash before splitting it at `/`, and this operationId has a `/`"
        : null),
      shown: (op) => boxInViewport(`[...document.querySelectorAll(".opblock.is-open.opblock-${op.method}")]
        .find((e) => e.querySelector(".opblock-summary-path")?.dataset.path === ${JSON.stringify(op.path)})?.querySelector(".opblock-body")`),
      describe: {
        list: "the first operation bar (`.opblock-summary`) has a box (tags start expanded)",
        open: "click it; its body (`.opblock.is-open .opblock-body`) has a box",
        deepLink: "`?doc=<document>#/<tag>/<operationId>` (`deepLinking: true`; what Swagger UI writes when the operation is opened); the operation's open body (`.opblock.is-open .opblock-body`) has a box in the viewport",
      },
    },
    "Redoc 2": {
      version: "redoc",
      routes: peer(join(nodeModules, "redoc")),
      index: "redoc.html",
      list: () => visible("[role=menu] li[role=menuitem][data-item-id]"),
      async open(page, timeout) {
        // Operations sit under collapsed tags in the menu: expand the first operation's tag.
        const id = await page.poll(`document.querySelector("li[role=menuitem][data-item-id*='operation/']")?.dataset.itemId`, timeout, "no operation in the menu");
        const item = `li[role=menuitem][data-item-id="${id}"] > label`;
        const shown = await page.evaluate(`(${firstVisible(item)})() !== null`);
        if (!shown) await page.click(firstVisible(`li[role=menuitem]:has(> ul li[data-item-id="${id}"]) > label`), timeout);
        await page.click(firstVisible(item), timeout);
        return page.waitFrame(inViewport({ id }), timeout);
      },
      describe: {
        list: "the first menu entry (`li[role=menuitem]`) has a box (Redoc renders the whole page first)",
        open: "click the first operation's tag, then the operation; its section is in the viewport",
        deepLink: "`?doc=<document>#tag/<tag>/operation/<operationId>` (the href of the operation's menu entry); the operation's section is in the viewport",
      },
      deepLink: (site, doc, op) => `${site}?doc=${encodeURIComponent(doc.path)}#tag/${slug(op.tag)}/operation/${op.operationId}`,
      shown: (op) => inViewport({ id: `tag/${slug(op.tag)}/operation/${op.operationId}` }),
    },
    ...(redoc3
      ? {
          "Redoc 3": {
            version: "redoc@3",
            routes: peer(redoc3),
            index: "redoc3.html",
            list: () => visible("[data-component-name='Menu/MenuItem']"),
            async open(page, timeout) {
              await page.click(firstVisible(".menu-item-type-group a"), timeout);
              const text = await page.click(firstVisible(".menu-item-type-operation a"), timeout);
              return page.waitFrame(inViewport({ text: text.split("\n")[0].trim() }), timeout);
            },
            describe: {
              list: "the first menu entry (`Menu/MenuItem`) has a box",
              open: "click the first group, then its first operation; the operation's heading is in the viewport",
              deepLink: "`?doc=<document>#/<tag>/<operationId>` (the href of the operation's menu entry; Redoc 2's form is rewritten to it); the operation's heading is in the viewport",
            },
            deepLink: (site, doc, op) => `${site}?doc=${encodeURIComponent(doc.path)}#/${slug(op.tag)}/${slug(op.operationId)}`,
            shown: (op) => inViewport({ text: op.summary }),
          },
        }
      : {}),
    Scalar: {
      version: "@scalar/api-reference",
      routes: peer(join(nodeModules, "@scalar/api-reference")),
      index: "scalar.html",
      // A description without tags (Stripe's) lists its operations at the sidebar's top level:
      // `<slug>/<METHOD>/<path>`. With tags, a tag's entry comes before its operations'.
      list: () => visible(["li[data-sidebar-id*='/tag/']", ...["GET", "POST", "PUT", "DELETE", "PATCH"].map((m) => `li[data-sidebar-id*='/${m}/']`)].join(", ")),
      async open(page, timeout) {
        // Tags with operations carry a chevron; operations are `.../tag/<tag>/<METHOD>/<path>`.
        await page.click(firstVisible("li[data-sidebar-id*='/tag/']:has(svg) > a, li[data-sidebar-id*='/tag/']:has(svg) > button, li[data-sidebar-id*='/tag/']:has(svg) > div"), timeout);
        const operation = ["GET", "POST", "PUT", "DELETE", "PATCH"].map((m) => `li[data-sidebar-id]:has(> a[href*='/${m}/']) > a`).join(", ");
        const id = await page.click(firstVisible(operation), timeout, "(e) => e.parentElement.dataset.sidebarId");
        return page.waitFrame(inViewport({ id }), timeout);
      },
      describe: {
        list: "the first tag of the sidebar (`li[data-sidebar-id*='/tag/']`), or its first operation when the description has no tags, has a box",
        open: "click the first tag with operations, then its first operation; its `section` is in the viewport",
        deepLink: "`?doc=<document>#tag/<tag>/<METHOD><path>` (the href of the operation's sidebar entry); the operation's heading is in the viewport",
      },
      deepLink: (site, doc, op) => `${site}?doc=${encodeURIComponent(doc.path)}#tag/${slug(op.tag)}/${op.method.toUpperCase()}${op.path}`,
      shown: (op) => inViewport({ text: op.summary }),
    },
    Elements: {
      version: "@stoplight/elements",
      routes: peer(join(nodeModules, "@stoplight/elements")),
      index: "elements.html",
      list: () => visible("a.ElementsTableOfContentsItem, [id^='sl-toc-']"),
      async open(page, timeout) {
        // Endpoint groups are collapsed: open the first one that has a chevron.
        await page.click(firstVisible("[id^='sl-toc-']:has(svg[data-icon=chevron-right]), div:has(> svg[data-icon=chevron-right])"), timeout);
        const text = await page.click(firstVisible("a[href^='#/operations/']"), timeout);
        return page.waitFrame(inViewport({ text: text.split("\n")[0].trim(), selector: "h1" }), timeout);
      },
      describe: {
        list: "the first entry of the table of contents has a box",
        open: "click the first endpoint group, then its first operation; the operation's `h1` is in the viewport",
        deepLink: "`?doc=<document>#/operations/<operationId>` (the hash router's address of an operation); the operation's `h1` is in the viewport",
      },
      deepLink: (site, doc, op) => `${site}?doc=${encodeURIComponent(doc.path)}#/operations/${op.operationId}`,
      shown: (op) => inViewport({ text: op.summary, selector: "h1" }),
    },
  };
}
