// The first screen of a document opened by `?url=`, drawn from the early request's answer
// before the app's WebAssembly is fetched: the header and the first rows of the operation list,
// in the markup the app renders (the rows as `playground_reference::html::row_html` writes them,
// the header as src/ui/reference.rs, src/ui/document_loader.rs, src/ui/mock_panel.rs and
// src/ui/theme.rs first show it), in `#prerendered`, which the app removes when its own page
// appears (src/lib.rs), as on a published site's page.
//
// Why: the app's start (its WebAssembly fetched, compiled and run, then its first render) took
// most of the time to a `?url=` document's list; drawn here, the list shows in about half that
// time (bench/NOTES.md, "A `?url=` document's first screen before the WebAssembly").
//
// Only what is drawn exactly as the app will is drawn: an OpenAPI 3 document (not Swagger 2.0,
// whose header says it was converted) of at most MAX_BYTES, without `x-tagGroups`, `x-parent`
// or a path item's `$ref`, and whose first rows' values are of the types the app reads. For any
// other (and any document that does not read), nothing is drawn and the app shows the document
// as before. `window.__playgroundFirstScreen(response, address, yaml)` (the head script calls it
// with a copy of the early request's answer) resolves when the app may start: after the frame
// that shows the first screen, or at once when nothing is drawn.
(function () {
  // Larger documents are read as they arrive by the app, sooner than read whole here (GitHub's
  // 13 MB: 467 ms against 372 ms, bench/NOTES.md).
  var MAX_BYTES = 6 << 20;
  // How long the app waits for the rest of the body once the answer's headers are in (Kubernetes'
  // 4.4 MB arrives whole within it on loopback; a slower download is the app's to read).
  var WAIT_MS = 150;
  // The app starts a document's mock at once up to this size (src/mock.rs, START_AT_ONCE_BYTES),
  // and its Mock block says so, as here.
  var MOCK_AT_ONCE_BYTES = 2 << 20;
  // As `playground_reference::html::FIRST_SCREEN_ROWS`.
  var ROWS = 40;
  var METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace", "query"];
  var STABILITY = { experimental: "Experimental", beta: "Beta" };
  // The bytes `href` encodes besides controls and non-ASCII: space, `"`, `<`, `>`, backquote,
  // `#` and `%`. (The page's minifier doubles the backslash of an escape in a string, so the
  // script has none: characters are written as they are, or as numbers.)
  var ENCODED = [0x20, 0x22, 0x3c, 0x3e, 0x60, 0x23, 0x25];

  var escape = function (text) {
    return String(text).replace(/[&<>"']/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c];
    });
  };
  // `playground_openapi::outline::href`: controls, non-ASCII and ENCODED percent-encoded.
  var href = function (anchor) {
    return "#" + Array.prototype.map.call(new TextEncoder().encode(anchor), function (b) {
      return b < 0x20 || b >= 0x7f || ENCODED.indexOf(b) >= 0
        ? "%" + (b < 16 ? "0" : "") + b.toString(16).toUpperCase()
        : String.fromCharCode(b);
    }).join("");
  };
  var isObject = function (value) {
    return value !== null && typeof value === "object" && !Array.isArray(value);
  };
  // A value the app reads leniently (absent, or of another type: as absent) is drawn only when
  // it is absent or of its type; anything else stops the drawing (`null`).
  var optional = function (value, type) {
    if (value === undefined || typeof value === type) return value;
    throw null;
  };

  // The rows of `doc`'s list up to ROWS (as `playground_openapi::outline::rows` of its groups:
  // without `x-tagGroups` and `x-parent`, each tag is a group of its own: the declared tags in
  // document order, then those only operations name in first-use order, "default" for the
  // operations with none), and how many operations and webhooks it has.
  var list = function (doc) {
    var tags = [], byName = {};
    var tag = function (name, title) {
      if (!Object.prototype.hasOwnProperty.call(byName, name)) {
        byName[name] = { name: name, title: title || name, operations: [] };
        tags.push(byName[name]);
      }
      return byName[name];
    };
    var declared = optional(doc.tags, "object") || [];
    if (!Array.isArray(declared)) throw null;
    declared.forEach(function (t) {
      if (!isObject(t) || typeof t.name !== "string" || t["x-parent"] !== undefined) throw null;
      var shown = optional(t["x-displayName"], "string");
      tag(t.name, shown && shown.trim() ? shown : t.name);
    });
    var count = 0;
    var operations = function (items, each) {
      if (items === undefined) return;
      if (!isObject(items)) throw null;
      Object.keys(items).forEach(function (name) {
        var item = items[name];
        if (!isObject(item) || item.$ref !== undefined) throw null;
        METHODS.forEach(function (method) {
          if (item[method] === undefined) return;
          if (!isObject(item[method])) throw null;
          each(method, name, item[method]);
        });
      });
    };
    operations(doc.paths, function (method, path, op) {
      count++;
      var named = optional(op.tags, "object") || [];
      if (!Array.isArray(named) || named.some(function (t) { return typeof t !== "string"; })) throw null;
      var row = {
        method: method,
        path: path,
        anchor: optional(op.operationId, "string"),
        summary: optional(op.summary, "string") || "",
        deprecated: optional(op.deprecated, "boolean") === true,
        stability: optional(op["x-stability"], "string"),
      };
      if (!row.anchor || !row.anchor.trim()) row.anchor = method + "-" + path;
      (named.length ? named : ["default"]).forEach(function (name) {
        tag(name).operations.push(row);
      });
    });
    var webhooks = 0;
    operations(doc.webhooks, function () { webhooks++; });
    var rows = [];
    tags.forEach(function (t) {
      if (!t.operations.length || rows.length >= ROWS) return;
      rows.push('<div class="list-row group-name" role="heading" aria-level="2" data-testid="group" data-group="'
        + escape(t.title) + '"><a href="' + escape(href("tag/" + t.name)) + '" class="heading-link">'
        + escape(t.title) + "</a></div>");
      t.operations.slice(0, ROWS - rows.length).forEach(function (op) {
        var upper = op.method.toUpperCase(), path = escape(op.path);
        var badges = op.deprecated
          ? '<span class="badge badge-deprecated" data-testid="badge-deprecated">Deprecated</span>' : "";
        if (STABILITY.hasOwnProperty(op.stability)) {
          badges += '<span class="badge badge-' + op.stability + '" data-testid="badge-stability">'
            + STABILITY[op.stability] + "</span>";
        }
        rows.push('<div class="list-row operation" data-testid="operation" data-operation-id="'
          + escape(op.anchor) + '"><a href="' + escape(href(op.anchor)) + '" class="operation-link" title="'
          + upper + " " + path + '"><span class="operation-line"><span class="method method-' + op.method
          + '">' + upper + '</span><code class="path' + (op.deprecated ? " deprecated" : "") + '">' + path
          + "</code>" + badges + '</span><span class="summary">' + escape(op.summary) + "</span></a></div>");
      });
    });
    // Webhooks are listed after every tag: a first screen that would reach them is not drawn.
    if (webhooks && rows.length < ROWS) throw null;
    return { rows: rows, count: count, webhooks: webhooks };
  };

  var plural = function (n, noun) {
    return n + " " + noun + (n === 1 ? "" : "s");
  };

  // The header and the sidebar as the app first shows them for a document opened by address.
  var page = function (doc, address, bytes) {
    var info = optional(doc.info, "object");
    if (!isObject(info) || typeof info.title !== "string" || !info.title.trim() || typeof info.version !== "string") {
      throw null;
    }
    var listed = list(doc);
    var version = info.version;
    // `playground_reference::html::version_label`.
    var date = version.length >= 10 && version[4] === "-" && version[7] === "-";
    if (/^[0-9]/.test(version) && !date) version = "v" + version;
    var schemes = isObject(doc.components) && isObject(doc.components.securitySchemes)
      ? Object.keys(doc.components.securitySchemes).length : 0;
    return '<header class="doc-header"><div class="doc-heading"><h1 data-testid="doc-title"><a href="#" class="title-link">'
      + escape(info.title) + '</a></h1><p class="doc-meta"><span class="version">' + escape(version)
      + '</span><span class="op-count">' + plural(listed.count, "operation") + "</span>"
      + (listed.webhooks ? '<span class="op-count">' + plural(listed.webhooks, "webhook") + "</span>" : "")
      + '<a href="#schemas">Schemas</a></p>'
      + (schemes
        ? '<div class="authorize"><button type="button" class="button authorize-button" aria-haspopup="dialog" title="Credentials for '
          + plural(schemes, "security scheme") + '"><svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" focusable="false">'
          + '<path d="M5 7V5a3 3 0 0 1 6 0v2" fill="none" stroke="currentColor" stroke-width="1.6"/>'
          + '<rect x="3" y="7" width="10" height="7.5" rx="1.5" fill="currentColor"/></svg>Authorize</button></div>'
        : "")
      + '</div><div class="document-loader" role="region" aria-label="OpenAPI document"><p class="document-source"><span>Showing <strong>'
      + escape(address) + '</strong>.</span> <button type="button" class="button">Back to the Petstore document</button></p>'
      + '<details class="loader"><summary>Load another API description</summary></details></div>'
      + '<section class="mock-panel" aria-labelledby="mock-panel-title"><h2 id="mock-panel-title" class="mock-panel-title">Mock</h2>'
      + '<p class="mock-panel-note">In this browser, shared by its tabs</p>' + (bytes <= MOCK_AT_ONCE_BYTES
        ? "<p class='mock-counts hint' role='status'>Starting this document's mock…</p><div class='mock-actions' aria-hidden='true'>"
          + '<button type="button" class="button" disabled>Reset…</button><button type="button" class="button" disabled>Export</button>'
          + '<button type="button" class="button" disabled>Import…</button></div>'
        : "<p class='mock-counts hint'>This document's mock starts when a try-it panel sends to it, or here.</p>"
          + '<div class="mock-actions"><button type="button" class="button" disabled>Start the mock</button></div>')
      + "</section>"
      + '<nav class="header-nav" aria-label="Project"><a href="domains.html">Project settings › Domains</a>'
      + '<div class="theme-toggle"><label for="theme-choice">Theme</label><select id="theme-choice"><option value="system" selected>System</option>'
      + '<option value="light">Light</option><option value="dark">Dark</option></select></div></nav></header>'
      + '<div class="layout"><aside class="sidebar"><div class="search" role="search"><label for="operation-search" class="search-label">Search operations</label>'
      + '<input id="operation-search" type="search" placeholder="Path, summary or operationId" autocomplete="off"><kbd class="search-hint" aria-hidden="true">/</kbd></div>'
      + "<style>#prerendered .list-row{content-visibility:auto;contain-intrinsic-size:auto 3.25rem}</style>"
      + '<nav class="operation-list" aria-label="Operations"><div class="list-scroller"><div class="list-spacer">'
      + listed.rows.join("") + '</div></div></nav></aside><main id="content"></main></div>';
  };

  // The body's text and size in bytes, or null past MAX_BYTES or when it is not all in within
  // WAIT_MS (then the rest is not read here: the app, waiting for this, reads a document that is
  // still arriving as it arrives, and shows its list before the end). Each chunk is decoded as it
  // arrives: a `Blob` of the chunks read back as text took 28 ms for Stripe's 2.5 MB and 32-41 ms
  // for Kubernetes' 4.4 MB, decoding the chunks 6-10 ms (bench/NOTES.md).
  var text = function (response) {
    var reader = response.body.getReader(), decoder = new TextDecoder(), parts = [], size = 0, late = false;
    if (Number(response.headers.get("content-length")) > MAX_BYTES) {
      reader.cancel();
      return reader.closed.then(function () { return null; });
    }
    var timer = setTimeout(function () {
      late = true;
      reader.cancel();
    }, WAIT_MS);
    var next = function () {
      return reader.read().then(function (r) {
        if (late) return null;
        if (r.done) {
          clearTimeout(timer);
          parts.push(decoder.decode());
          return [parts.join(""), size];
        }
        size += r.value.length;
        if (size > MAX_BYTES) {
          clearTimeout(timer);
          reader.cancel();
          return null;
        }
        parts.push(decoder.decode(r.value, { stream: true }));
        return next();
      });
    };
    return next();
  };

  // Puts the first screen of `doc` in the page; resolves after the frame that shows it.
  var draw = function (doc, address, bytes) {
    if (!isObject(doc) || typeof doc.openapi !== "string" || !/^3\./.test(doc.openapi)) return;
    if (doc["x-tagGroups"] !== undefined) return;
    var html = page(doc, address, bytes);
    return new Promise(function (drawn) {
      var put = function () {
        var first = document.createElement("div");
        first.id = "prerendered";
        first.innerHTML = html;
        document.body.prepend(first);
        requestAnimationFrame(function () { setTimeout(drawn); });
      };
      if (document.body) put();
      else document.addEventListener("DOMContentLoaded", put);
    });
  };

  // (No `Promise.resolve`: the page's minifier calls it unbound.)
  window.__playgroundFirstScreen = function (response, address, yaml) {
    return text(response).then(function (read) {
      if (read === null) return;
      if (!yaml) return draw(JSON.parse(read[0]), address, read[1]);
      return window.__playgroundYaml.then(function (reader) { return draw(reader.load(read[0]), address, read[1]); });
    }).catch(function () {});
  };
})();
