// Headless Chromium driven over the Chrome DevTools Protocol directly (--remote-debugging-pipe),
// for the page loads `make bench` times.
//
// Why not Playwright for those: Playwright enables the protocol's Network domain on every page,
// and with it Chromium keeps a decoded copy of each response body for the inspector, on the
// page's main thread (60-150 ms when GitHub's 13 MB description arrives, measured in this
// harness), and `page.waitForFunction` evaluates Playwright's own injected script in the page
// (about 90 ms) while the page loads. Neither happens for a reader. Here the page gets only what
// the measurement needs: a script that checks a DOM condition on each animation frame, request
// interception (to refuse every request that leaves 127.0.0.1) and input events for clicks.
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Starts Chromium; resolves to a client: `send(method, params, sessionId)`, `on(listener)`, `close()`. */
export async function launch(executable, args) {
  const profile = await mkdtemp(join(tmpdir(), "bench-chromium-"));
  const child = spawn(executable, [...args, "--remote-debugging-pipe", `--user-data-dir=${profile}`, "about:blank"], {
    stdio: ["ignore", "ignore", "ignore", "pipe", "pipe"],
  });
  const [, , , toBrowser, fromBrowser] = child.stdio;
  const pending = new Map();
  const listeners = new Set();
  let nextId = 0;
  let buffered = Buffer.alloc(0);
  let exited = null;
  const gone = new Promise((ok) => child.once("exit", ok));
  child.on("exit", (code, signal) => {
    exited = new Error(`Chromium exited (${signal ?? code})`);
    for (const { reject } of pending.values()) reject(exited);
    pending.clear();
  });
  fromBrowser.on("data", (chunk) => {
    buffered = Buffer.concat([buffered, chunk]);
    let end;
    while ((end = buffered.indexOf(0)) >= 0) {
      const message = JSON.parse(buffered.subarray(0, end).toString("utf8"));
      buffered = buffered.subarray(end + 1);
      const waiting = message.id !== undefined && pending.get(message.id);
      if (waiting) {
        pending.delete(message.id);
        if (message.error) waiting.reject(new Error(`${waiting.method}: ${message.error.message}`));
        else waiting.resolve(message.result);
      } else {
        for (const listener of listeners) listener(message);
      }
    }
  });
  const send = (method, params = {}, sessionId = undefined) => {
    if (exited) return Promise.reject(exited);
    const id = ++nextId;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject, method });
      toBrowser.write(`${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`);
    });
  };
  const { product } = await send("Browser.getVersion");
  return {
    version: product.replace(/^HeadlessChrome\//, ""),
    send,
    on(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      await Promise.race([send("Browser.close").catch(() => {}), new Promise((ok) => setTimeout(ok, 5000))]);
      if (!exited) child.kill("SIGKILL");
      await gone;
      await rm(profile, { recursive: true, force: true, maxRetries: 5 });
    },
  };
}

/**
 * Source of a promise, for the page, of performance.now() at the first animation frame at
 * which `condition` (an expression) holds; rejected after `timeout` ms when given.
 */
export const firstFrame = (condition, timeout = undefined) => `new Promise((resolve, reject) => {
  const until = ${timeout === undefined ? "Infinity" : `performance.now() + ${timeout}`};
  const tick = () => {
    let ok = false;
    try { ok = ${condition}; } catch {}
    if (ok) resolve(performance.now());
    else if (performance.now() > until) reject(new Error("condition not met within ${(timeout ?? 0) / 1000} s"));
    else requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})`;

/**
 * A fresh browser context (empty cache and storage) with one page of `viewport`, where every
 * request that does not go to 127.0.0.1 fails (its origin is added to `blocked`), and `scripts`
 * run at the start of every document. Resolves to the page: `evaluate(expression)`,
 * `click(find, read)`, `waitFrame(condition)`, `navigate(url)`, `send(method, params)`, `close()`.
 */
export async function openPage(browser, { viewport, scripts = [], blocked = new Set() }) {
  const { browserContextId } = await browser.send("Target.createBrowserContext", { disposeOnDetach: true });
  const { targetId } = await browser.send("Target.createTarget", { url: "about:blank", browserContextId });
  const { sessionId } = await browser.send("Target.attachToTarget", { targetId, flatten: true });
  const send = (method, params) => browser.send(method, params, sessionId);
  const stop = browser.on(({ method, params, sessionId: from }) => {
    if (from !== sessionId || method !== "Fetch.requestPaused") return;
    const url = params.request.url;
    if (/^(http:\/\/127\.0\.0\.1[:/]|data:|blob:)/.test(url)) {
      send("Fetch.continueRequest", { requestId: params.requestId }).catch(() => {});
    } else {
      blocked.add(new URL(url).origin);
      send("Fetch.failRequest", { requestId: params.requestId, errorReason: "BlockedByClient" }).catch(() => {});
    }
  });
  await send("Emulation.setDeviceMetricsOverride", { ...viewport, deviceScaleFactor: 1, mobile: false });
  await send("Fetch.enable", { patterns: [{ urlPattern: "*" }] });
  // Scripts for new documents need the Page domain (its events are not listened to).
  await send("Page.enable");
  for (const source of scripts) await send("Page.addScriptToEvaluateOnNewDocument", { source });

  const evaluate = async (expression) => {
    const { result, exceptionDetails } = await send("Runtime.evaluate", { expression, returnByValue: true, awaitPromise: true });
    if (exceptionDetails) throw new Error(exceptionDetails.exception?.description ?? exceptionDetails.text);
    return result.value;
  };
  /** Polls `expression` every 20 ms until it is truthy; resolves to its value. */
  const poll = async (expression, timeout, what) => {
    const until = Date.now() + timeout;
    for (;;) {
      const value = await evaluate(expression).catch(() => null);
      if (value) return value;
      if (Date.now() > until) throw new Error(`${what} within ${timeout / 1000} s`);
      await new Promise((ok) => setTimeout(ok, 20));
    }
  };
  return {
    sessionId,
    send,
    evaluate,
    poll,
    navigate: (url) => send("Page.navigate", { url }),
    /**
     * Waits until `find` (the source of a function returning an element or null) finds an
     * element whose box stays the same for two animation frames (menus animate) and that is
     * the element at its centre (nothing covers it), scrolled into view, and clicks there with
     * the mouse; resolves to `read(element)` (source of a
     * function; the element's text when absent).
     */
    async click(find, timeout, read = "(e) => e.innerText.trim()") {
      const target = await evaluate(`new Promise((resolve) => {
        const until = performance.now() + ${timeout};
        let last = null;
        const tick = () => {
          const e = (${find})();
          if (e) {
            e.scrollIntoViewIfNeeded(true);
            const b = e.getBoundingClientRect();
            const box = [b.left, b.top, b.width, b.height].join();
            const x = b.left + b.width / 2;
            const y = b.top + b.height / 2;
            const hit = document.elementFromPoint(x, y);
            if (box === last && hit && (hit === e || e.contains(hit))) return resolve({ x, y, value: (${read})(e) });
            last = box;
          } else {
            last = null;
          }
          if (performance.now() > until) return resolve(null);
          requestAnimationFrame(tick);
        };
        tick();
      })`);
      if (!target) throw new Error(`nothing stable to click for ${find} within ${timeout / 1000} s`);
      for (const type of ["mouseMoved", "mousePressed", "mouseReleased"]) {
        await send("Input.dispatchMouseEvent", { type, x: target.x, y: target.y, button: "left", buttons: type === "mousePressed" ? 1 : 0, clickCount: 1 });
      }
      return target.value;
    },
    /** Resolves to performance.now() of the first animation frame at which `condition` (an expression) holds. */
    waitFrame: (condition, timeout) => evaluate(firstFrame(condition, timeout)),
    async close() {
      stop();
      await browser.send("Target.disposeBrowserContext", { browserContextId }).catch(() => {});
    },
  };
}
