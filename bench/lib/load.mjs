// What the page loads of bench/bench.mjs and bench/growth.mjs share: the scripts injected at
// the start of each page (WebAssembly memory tracker, the watcher of a DOM condition), the
// memory measure, and the main thread's longest task from a Chromium performance trace.

/** Records every WebAssembly memory a page creates, to add it to the JS heap. */
export const WASM_TRACKER = `(() => {
  const memories = (globalThis.__benchWasmMemories = new Set());
  const track = (instance) => {
    for (const value of Object.values(instance?.exports ?? {})) if (value instanceof WebAssembly.Memory) memories.add(value);
  };
  const instantiate = WebAssembly.instantiate;
  WebAssembly.instantiate = async function (...args) {
    const result = await instantiate.apply(this, args);
    track(result instanceof WebAssembly.Instance ? result : result.instance);
    return result;
  };
  const streaming = WebAssembly.instantiateStreaming;
  if (streaming) {
    WebAssembly.instantiateStreaming = async function (...args) {
      const result = await streaming.apply(this, args);
      track(result.instance);
      return result;
    };
  }
  const Instance = WebAssembly.Instance;
  WebAssembly.Instance = function (module, imports) {
    const instance = new Instance(module, imports);
    track(instance);
    return instance;
  };
  WebAssembly.Instance.prototype = Instance.prototype;
})();`;

/**
 * Run in the page from its start: sets `globalThis[name]` to the first animation frame's
 * performance.now() at which `condition` holds, with the resources loaded by then, and marks
 * that moment in a performance trace (`console.timeStamp(name)`, a `TimeStamp` event).
 */
export const watcher = (firstFrame, condition, name = "__benchListed") => `if (window === window.top) {
  console.timeStamp(${JSON.stringify(`${name}:start`)});
  ${firstFrame(condition)}.then((t) => {
    console.timeStamp(${JSON.stringify(name)});
    globalThis[${JSON.stringify(name)}] = { t, resources: performance.getEntriesByType("resource").map((e) => e.name) };
  });
}`;

/** After a forced garbage collection: the page's used JS heap and its WebAssembly memories, in bytes. */
export async function memory(page) {
  await page.send("HeapProfiler.collectGarbage");
  const { usedSize } = await page.send("Runtime.getHeapUsage");
  const wasm = await page.evaluate("[...(globalThis.__benchWasmMemories ?? [])].reduce((sum, m) => sum + m.buffer.byteLength, 0)");
  return { heap: usedSize, wasm };
}

/**
 * Starts a Chromium trace of every process (the browser session of lib/cdp.mjs): top-level
 * tasks (`RunTask`) and the DevTools timeline's events (among them `console.timeStamp`).
 * Resolves to `stop()`, which ends the trace and resolves to its events.
 */
export async function startTrace(browser) {
  await browser.send("Tracing.start", {
    transferMode: "ReturnAsStream",
    traceConfig: {
      recordMode: "recordUntilFull",
      traceBufferSizeInKb: 400 * 1024,
      includedCategories: ["toplevel", "devtools.timeline", "__metadata"],
      excludedCategories: ["*"],
    },
  });
  return async function stop() {
    const complete = new Promise((resolve) => {
      const off = browser.on(({ method, params }) => {
        if (method === "Tracing.tracingComplete") {
          off();
          resolve(params);
        }
      });
    });
    await browser.send("Tracing.end");
    const { stream } = await complete;
    const chunks = [];
    for (;;) {
      const { data, eof, base64Encoded } = await browser.send("IO.read", { handle: stream, size: 8 << 20 });
      chunks.push(base64Encoded ? Buffer.from(data, "base64").toString("utf8") : data);
      if (eof) break;
    }
    await browser.send("IO.close", { handle: stream });
    const text = chunks.join("");
    const parsed = JSON.parse(text);
    return { events: Array.isArray(parsed) ? parsed : parsed.traceEvents, bytes: text.length };
  };
}

/**
 * The page's main thread in a trace: the thread that logged `console.timeStamp(startMark)`.
 * Returns the longest top-level task on it that started before `endMark` was logged (or
 * before the trace's end when the mark is missing), in ms; `open` is how long the thread had
 * been in a task still running when the trace ended (a page that never answered), in ms.
 */
export function longestTask(events, startMark, endMark) {
  const stamp = (name) => events.find((e) => e.name === "TimeStamp" && (e.args?.data?.message === name));
  const start = stamp(startMark);
  if (!start) return null;
  const end = stamp(endMark);
  const mine = (e) => e.pid === start.pid && e.tid === start.tid;
  const tasks = events.filter((e) => mine(e) && e.ph === "X" && (e.name === "RunTask" || e.name === "ThreadControllerImpl::RunTask"));
  const until = end ? end.ts : Math.max(...events.filter((e) => e.ts).map((e) => e.ts + (e.dur ?? 0)));
  let longest = 0;
  let lastEnd = start.ts;
  let count = 0;
  for (const task of tasks) {
    if (task.ts > until) continue;
    count += 1;
    longest = Math.max(longest, task.dur ?? 0);
    lastEnd = Math.max(lastEnd, task.ts + (task.dur ?? 0));
  }
  return {
    longest: longest / 1000,
    open: end ? 0 : Math.max(0, until - lastEnd) / 1000,
    tasks: count,
  };
}
