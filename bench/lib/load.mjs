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
    // The trace can be larger than a string may be: its events are read one at a time as the
    // stream arrives, and only the ones longestTask() reads are kept.
    const events = [];
    const scanner = eventScanner((text) => {
      if (text.includes('RunTask"') || text.includes(`"${CHECKPOINT}"`) || text.includes('"TimeStamp"')) events.push(JSON.parse(text));
    });
    let bytes = 0;
    for (;;) {
      const { data, eof, base64Encoded } = await browser.send("IO.read", { handle: stream, size: 8 << 20 });
      const chunk = base64Encoded ? Buffer.from(data, "base64").toString("utf8") : data;
      bytes += chunk.length;
      scanner(chunk);
      if (eof) break;
    }
    await browser.send("IO.close", { handle: stream });
    return { events, bytes };
  };
}

/**
 * Feeds the text of a JSON trace ({"traceEvents": [...]} or [...]) in chunks; calls `onEvent`
 * with the text of each event object (each element of the events array).
 */
function eventScanner(onEvent) {
  const stack = [];
  let inString = false;
  let escaped = false;
  let start = -1;
  let carry = "";
  return (chunk) => {
    // The carried text (an event not yet closed) is scanned already; it starts at 0 now.
    const text = carry + chunk;
    if (start >= 0) start = 0;
    for (let i = carry.length; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (inString) {
        if (escaped) escaped = false;
        else if (c === 92) escaped = true; // backslash
        else if (c === 34) inString = false;
        continue;
      }
      if (c === 34) inString = true;
      else if (c === 123 || c === 91) { // { [
        const inEvents = stack.length && stack[stack.length - 1] === 91 && (stack.length === 1 || (stack.length === 2 && stack[0] === 123));
        if (c === 123 && inEvents) start = i;
        stack.push(c);
      } else if (c === 125 || c === 93) { // } ]
        stack.pop();
        if (c === 125 && start >= 0 && stack.length && stack[stack.length - 1] === 91 && (stack.length === 1 || (stack.length === 2 && stack[0] === 123))) {
          onEvent(text.slice(start, i + 1));
          start = -1;
        }
      }
    }
    carry = start >= 0 ? text.slice(start) : "";
  };
}

const CHECKPOINT = "BlinkScheduler_PerformMicrotaskCheckpoint";
const isTask = (e) => e.name === "RunTask" || e.name === "ThreadControllerImpl::RunTask";

/**
 * The page's main thread in a trace: the thread that logged `console.timeStamp(startMark)`.
 * Returns the longest task on it that started before `endMark` was logged (or before the
 * trace's end when the mark is missing), in ms. A task is a top-level `RunTask` together with
 * the microtask checkpoint that follows it: Chromium traces the two as siblings (the promise
 * reactions a task queues run in the checkpoint), and the Long Tasks API counts them as one.
 * `open` is how long the thread had been in a task still running when the trace ended (a page
 * that never answered), in ms.
 */
export function longestTask(events, startMark, endMark) {
  const stamp = (name) => events.find((e) => e.name === "TimeStamp" && e.args?.data?.message === name);
  const start = stamp(startMark);
  if (!start) return null;
  const end = stamp(endMark);
  let until = end?.ts ?? 0;
  if (!end) for (const e of events) if (e.ts) until = Math.max(until, e.ts + (e.dur ?? 0));
  const top = events
    .filter((e) => e.pid === start.pid && e.tid === start.tid && e.ph === "X" && (isTask(e) || e.name === CHECKPOINT))
    .sort((a, b) => a.ts - b.ts);
  const tasks = [];
  let current = null;
  for (const e of top) {
    const stop = e.ts + (e.dur ?? 0);
    // Nested in the current task, or its checkpoint (starting within 0.1 ms of its end).
    if (current && (e.ts < current.end || (e.name === CHECKPOINT && e.ts - current.end <= 100))) {
      current.end = Math.max(current.end, stop);
      continue;
    }
    if (e.ts > until) break;
    current = { start: e.ts, end: stop };
    tasks.push(current);
  }
  const longest = Math.max(0, ...tasks.map((t) => t.end - t.start));
  const lastEnd = tasks.length ? tasks[tasks.length - 1].end : start.ts;
  return {
    longest: longest / 1000,
    open: end ? 0 : Math.max(0, until - lastEnd) / 1000,
    tasks: tasks.length,
  };
}
