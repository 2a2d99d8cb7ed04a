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
// as before. A YAML document is read by `readYaml` below, or by js-yaml where it leaves the text.
// `window.__playgroundFirstScreen(response, address, yaml)` (the head script calls it with a copy
// of the early request's answer) resolves when the app may start: after the frame that shows the
// first screen, or at once when nothing is drawn.
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

  // A YAML document read here, without js-yaml, when it keeps to the block style OpenAPI
  // documents are mostly written in: block mappings and sequences, plain scalars and quoted ones
  // on one line, literal and folded block scalars, flow sequences of plain scalars on one line,
  // comments. Gives the value js-yaml's `load` gives with the core schema, as the app reads a
  // YAML document (src/document/js.rs, yamlToJson), or `undefined` for any text outside that
  // subset (anchors, aliases, tags, multi-line plain or quoted scalars, tabs, more than one
  // document, a duplicated key, text js-yaml rejects...), which js-yaml then reads as before.
  // Why: js-yaml's script and its first, cold `load` took 30-43 ms of petstore3's 23 KB after
  // its last byte (bench/NOTES.md). Ported from js-yaml 4.1.0's loader (readBlockScalar, the
  // scalars of the core schema); tests/e2e/first-screen-yaml.test.mjs holds the two together.
  // (No backslash anywhere: the page's minifier doubles it in a string, so characters are made
  // from their numbers and regular expressions use classes.)
  var readYaml = function (source) {
    var chr = String.fromCharCode, LF = chr(10), BS = chr(92), NOT = {};
    var fail = function () {
      throw NOT;
    };
    // js-yaml's PATTERN_NON_PRINTABLE, with the tab (which this reader leaves to js-yaml).
    var UNREADABLE = new RegExp("[" + chr(0) + "-" + chr(9) + chr(11) + chr(12) + chr(14) + "-" + chr(31)
      + chr(127) + "-" + chr(132) + chr(134) + "-" + chr(159) + chr(0xfffe) + chr(0xffff) + "]");
    var BLANK = /^ *(#.*)?$/;
    var FLOAT = /^(?:[-+]?[0-9][0-9_]*(?:[.][0-9_]*)?(?:[eE][-+]?[0-9]+)?|[.][0-9_]+(?:[eE][-+]?[0-9]+)?|[-+]?[.](?:inf|Inf|INF)|[.](?:nan|NaN|NAN))$/;
    // js-yaml's simple escapes in a double-quoted scalar, and what each stands for.
    var ESCAPES = "0abtnvfre " + '"' + "/" + BS + "N_LP";
    var ESCAPED = [chr(0), chr(7), chr(8), chr(9), chr(10), chr(11), chr(12), chr(13), chr(27), " ", '"', "/", BS,
      chr(0x85), chr(0xa0), chr(0x2028), chr(0x2029)];
    // What ends a plain scalar in a flow collection.
    var FLOW_STOP = ",[]{}";
    // What a plain scalar may not start with (js-yaml's readPlainScalar).
    var PLAIN_OUT = " #&*!|>'" + '"' + "%@,[]{}:" + chr(96);

    var lines, at = 0;
    var indent = function (line) {
      var n = 0;
      while (line.charCodeAt(n) === 32) n++;
      return n;
    };
    var skip = function () {
      while (at < lines.length && BLANK.test(lines[at])) at++;
    };
    var repeat = function (n) {
      return n > 0 ? Array(n + 1).join(LF) : "";
    };
    var plainStarts = function (text, i) {
      var c = text[i];
      if (c === undefined || PLAIN_OUT.indexOf(c) >= 0) return false;
      return !((c === "-" || c === "?") && (text[i + 1] === undefined || text[i + 1] === " "));
    };
    // A plain scalar as the core schema reads it: null, a boolean, an integer, a float or text.
    var scalar = function (s) {
      if (s === "~" || s === "null" || s === "Null" || s === "NULL") return null;
      if (s === "true" || s === "True" || s === "TRUE") return true;
      if (s === "false" || s === "False" || s === "FALSE") return false;
      // Anything else that is not text starts with a digit, a sign or a dot.
      var c = s.charCodeAt(0);
      if (!(c >= 48 && c <= 57) && c !== 45 && c !== 43 && c !== 46) return s;
      var sign = s[0] === "-" ? -1 : 1, v = s.split("_").join(""), digits = v.replace(/^[-+]/, "");
      if (/^[-+]?(?:0b[01_]*[01]|0x[0-9a-fA-F_]*[0-9a-fA-F]|0o[0-7_]*[0-7])$/.test(s)) {
        return sign * parseInt(digits.slice(2), { b: 2, x: 16, o: 8 }[digits[1]]);
      }
      if (/^[-+]?[0-9]$|^[-+]?[0-9][0-9_]*[0-9]$/.test(s) && !/^[-+]?0_/.test(s)) {
        return digits === "0" ? 0 : sign * parseInt(digits, 10);
      }
      if (FLOAT.test(s) && s[s.length - 1] !== "_") {
        digits = digits.toLowerCase();
        if (digits === ".inf") return sign * Infinity;
        if (digits === ".nan") return NaN;
        return sign * parseFloat(digits);
      }
      return s;
    };
    // Where the quoted scalar at text[i] ends (after its closing quote), or -1 past the line.
    var quotedEnd = function (text, i) {
      var q = text[i], from = i + 1;
      for (;;) {
        var k = text.indexOf(q, from);
        if (k < 0) return -1;
        if (q === "'") {
          if (text[k + 1] !== "'") return k + 1;
          from = k + 2;
          continue;
        }
        var b = k;
        while (b > i + 1 && text.charCodeAt(b - 1) === 92) b--;
        if ((k - b) % 2 === 0) return k + 1;
        from = k + 1;
      }
    };
    var quoted = function (raw) {
      var body = raw.slice(1, -1);
      if (raw[0] === "'") return body.split("''").join("'");
      if (body.indexOf(BS) < 0) return body;
      var out = "", i = 0;
      while (i < body.length) {
        if (body[i] !== BS) {
          out += body[i++];
          continue;
        }
        var e = body[i + 1], size = { x: 2, u: 4, U: 8 }[e];
        if (size) {
          var hex = body.substr(i + 2, size);
          if (hex.length !== size || !/^[0-9a-fA-F]+$/.test(hex) || parseInt(hex, 16) > 0x10ffff) fail();
          out += String.fromCodePoint(parseInt(hex, 16));
          i += 2 + size;
          continue;
        }
        if (e === undefined || ESCAPES.indexOf(e) < 0) fail();
        out += ESCAPED[ESCAPES.indexOf(e)];
        i += 2;
      }
      return out;
    };
    // The key of a mapping entry at line[n] and where its value starts, or null when the line
    // is not one.
    var keyAt = function (line, n) {
      var name, end;
      if (line[n] === '"' || line[n] === "'") {
        end = quotedEnd(line, n);
        if (end < 0) return null;
        name = quoted(line.slice(n, end));
        while (line[end] === " ") end++;
        if (line[end] !== ":" || (line[end + 1] !== undefined && line[end + 1] !== " ")) return null;
      } else {
        if (!plainStarts(line, n)) return null;
        end = line.indexOf(":", n);
        while (end >= 0 && end + 1 < line.length && line.charCodeAt(end + 1) !== 32) end = line.indexOf(":", end + 1);
        if (end < 0) return null;
        name = line.slice(n, end);
        if (name.indexOf(" #") >= 0) return null;
        if (name.charCodeAt(name.length - 1) === 32) name = name.replace(/ +$/, "");
        name = String(scalar(name));
      }
      return { name: name, value: end + 1 };
    };
    var dash = function (line, n) {
      return line[n] === "-" && (line[n + 1] === undefined || line[n + 1] === " ");
    };
    // Nothing more indented than `n` may follow a scalar on its line (a multi-line scalar, or
    // text js-yaml rejects).
    var ends = function (n) {
      at++;
      skip();
      if (at < lines.length && indent(lines[at]) > n) fail();
    };
    // js-yaml's readBlockScalar, a line at a time; `n` is its parent's indentation.
    var block = function (header, n) {
      if (!/^[|>][-+]?(?: +(?:#.*)?)?$/.test(header)) fail();
      var folding = header[0] === ">", keep = header[1] === "+", strip = header[1] === "-";
      var result = "", textIndent = n + 1, detected = false, empty = 0, content = false, more = false;
      for (at++; at < lines.length; at++) {
        var line = lines[at], sp = 0;
        while ((!detected || sp < textIndent) && line.charCodeAt(sp) === 32) sp++;
        if (!detected && sp > textIndent) textIndent = sp;
        if (sp === line.length) {
          empty++;
          continue;
        }
        if (sp < textIndent) break;
        if (!folding) result += repeat(content ? 1 + empty : empty);
        else if (line[sp] === " ") {
          more = true;
          result += repeat(content ? 1 + empty : empty);
        } else if (more) {
          more = false;
          result += repeat(empty + 1);
        } else if (empty === 0) {
          if (content) result += " ";
        } else result += repeat(empty);
        content = detected = true;
        empty = 0;
        result += line.slice(sp);
      }
      if (keep) result += repeat(content ? 1 + empty : empty);
      else if (!strip && content) result += LF;
      return result;
    };
    // A flow collection that starts at text[i] and ends on its line, and where it ends: plain
    // and quoted scalars, nested collections, a mapping's `key: value` entries.
    var flow = function (text, i) {
      var close = text[i] === "[" ? "]" : "}", list = close === "]" ? [] : {}, map = !Array.isArray(list);
      var space = function () {
        while (text[i] === " ") i++;
      };
      // A scalar or a collection at text[i]; i is then past it.
      var item = function () {
        space();
        var c = text[i], end;
        if (c === "[" || c === "{") {
          var inner = flow(text, i);
          i = inner[1];
          return inner[0];
        }
        if (c === '"' || c === "'") {
          end = quotedEnd(text, i);
          if (end < 0) fail();
          var s = quoted(text.slice(i, end));
          i = end;
          return s;
        }
        if (!plainStarts(text, i) || ((c === "-" || c === "?") && FLOW_STOP.indexOf(text[i + 1]) >= 0)) fail();
        end = i;
        while (end < text.length && FLOW_STOP.indexOf(text[end]) < 0 && !(text[end] === ":" && (text[end + 1] === undefined
          || text[end + 1] === " " || FLOW_STOP.indexOf(text[end + 1]) >= 0)) && !(text[end] === "#" && text[end - 1] === " ")) end++;
        s = text.slice(i, end).replace(/ +$/, "");
        i = end;
        return scalar(s);
      };
      for (i++; ; ) {
        space();
        if (text[i] === close) return [list, i + 1];
        var key = item();
        space();
        if (map) {
          if (text[i] !== ":" || text[i + 1] !== " " || (key !== null && typeof key === "object")) fail();
          i++;
          key = String(key);
          if (key === "__proto__" || key === "<<" || Object.prototype.hasOwnProperty.call(list, key)) fail();
          list[key] = item();
          space();
        } else {
          if (text[i] === ":") fail();
          list.push(key);
        }
        if (text[i] === ",") {
          i++;
          space();
          if (text[i] === close) fail();
        } else if (text[i] !== close) fail();
      }
    };
    // The value that starts at `text` on line `at`, of an entry at indentation `n` (a mapping's
    // key, or a sequence's dash).
    var value = function (text, n, inMapping) {
      text = text.replace(/^ +/, "");
      if (text === "" || text[0] === "#") {
        at++;
        skip();
        if (at >= lines.length) return null;
        var m = indent(lines[at]);
        if (m > n) return node(n + 1);
        if (inMapping && m === n && dash(lines[at], n)) return sequence(n);
        return null;
      }
      var c = text[0];
      if (c === "|" || c === ">") return block(text, n);
      if (c === "[" || c === "{") {
        var read = flow(text, 0);
        if (!/^(?: +#.*)? *$/.test(text.slice(read[1]))) fail();
        ends(n);
        return read[0];
      }
      if (c === '"' || c === "'") {
        var end = quotedEnd(text, 0);
        if (end < 0 || !/^(?: +#.*)? *$/.test(text.slice(end))) fail();
        var s = quoted(text.slice(0, end));
        ends(n);
        return s;
      }
      return plain(text, n);
    };
    // A plain scalar that starts at `text` on line `at`, and goes on over the lines after it
    // indented more than `n`, folded (js-yaml's readPlainScalar).
    var plain = function (text, n) {
      if (!plainStarts(text, 0)) fail();
      var cut = text.indexOf(" #"), result = (cut < 0 ? text : text.slice(0, cut)).replace(/ +$/, ""), empty = 0;
      if (/: |:$/.test(result)) fail();
      for (at++; cut < 0 && at < lines.length; at++) {
        var line = lines[at], sp = indent(line);
        if (sp === line.length) {
          empty++;
          continue;
        }
        if (sp <= n || line[sp] === "#") break;
        var part = line.slice(sp).replace(/ +$/, "");
        if (/: |:$| #/.test(part)) fail();
        result += empty ? repeat(empty) : " ";
        result += part;
        empty = 0;
      }
      at--;
      ends(n);
      return scalar(result);
    };
    var mapping = function (n) {
      var map = {};
      for (;;) {
        skip();
        if (at >= lines.length) break;
        var line = lines[at], m = indent(line);
        if (m < n) break;
        if (m > n) fail();
        var key = keyAt(line, n);
        if (!key) {
          if (dash(line, n)) break;
          fail();
        }
        if (key.name === "__proto__" || key.name === "<<" || Object.prototype.hasOwnProperty.call(map, key.name)) fail();
        map[key.name] = value(line.slice(key.value), n, true);
      }
      return map;
    };
    var sequence = function (n) {
      var list = [];
      for (;;) {
        skip();
        if (at >= lines.length) break;
        var line = lines[at], m = indent(line);
        if (m < n) break;
        if (m > n) fail();
        if (!dash(line, n)) break;
        // The item's own column; a mapping or sequence that starts on the dash's line is read
        // as if the dash were a space.
        var r = n + 1;
        while (line[r] === " ") r++;
        if (r < line.length && line[r] !== "#" && (dash(line, r) || keyAt(line, r))) {
          lines[at] = line.slice(0, n) + " " + line.slice(n + 1);
          list.push(node(r));
        } else list.push(value(line.slice(n + 1), n, false));
      }
      return list;
    };
    // The block collection whose first line is the next one, indented `min` or more.
    var node = function (min) {
      skip();
      var line = lines[at], n = indent(line);
      if (n < min) fail();
      if (dash(line, n)) return sequence(n);
      if (keyAt(line, n)) return mapping(n);
      if (min === 0) fail();
      return plain(line.slice(n), min - 1);
    };

    try {
      if (UNREADABLE.test(source) || (source.isWellFormed && !source.isWellFormed())) fail();
      var text = source.split(chr(13) + LF).join(LF);
      if (text.indexOf(chr(13)) >= 0) fail();
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      lines = text.split(LF);
      if (lines[lines.length - 1] === "") lines.pop();
      skip();
      if (at < lines.length && /^---(?: +(?:#.*)?)?$/.test(lines[at])) {
        at++;
        skip();
      }
      for (var i = at; i < lines.length; i++) if (/^(?:---|[.][.][.])/.test(lines[i])) fail();
      if (at >= lines.length) return null;
      if (indent(lines[at]) !== 0) fail();
      var doc = node(0);
      skip();
      if (at < lines.length) fail();
      return doc;
    } catch (e) {
      return undefined;
    }
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
      var doc = readYaml(read[0]);
      if (doc !== undefined) return draw(doc, address, read[1]);
      window.__playgroundYamlStart();
      return window.__playgroundYaml.then(function (reader) {
        return draw(reader.load(read[0], { schema: reader.CORE_SCHEMA }), address, read[1]);
      });
    }).catch(function () {});
  };
  // For tests/e2e/first-screen-yaml.test.mjs, which holds it to js-yaml.
  window.__playgroundFirstScreen.readYaml = readYaml;
})();
