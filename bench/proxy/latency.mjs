// Sequential latency of GET requests over one kept-alive connection: for each URL, a warm-up,
// then REQUESTS timed requests (from sending to the last byte of the body); prints one JSON
// object per URL: {"url", "count", "p50", "p99", "mean", "statuses"} in milliseconds.
// Usage: node latency.mjs REQUESTS WARMUP HEADER=VALUE... -- URL...
import http from "node:http";

const args = process.argv.slice(2);
const split = args.indexOf("--");
const [requests, warmup] = args.slice(0, 2).map(Number);
const headers = Object.fromEntries(
  args.slice(2, split).map((pair) => [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)]),
);
const urls = args.slice(split + 1);
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

function once(url) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const request = http.get(url, { agent, headers }, (response) => {
      response.on("data", () => {});
      response.on("end", () =>
        resolve({ ms: Number(process.hrtime.bigint() - started) / 1e6, status: response.statusCode }),
      );
      response.on("error", reject);
    });
    request.setTimeout(30_000, () => request.destroy(new Error(`no answer from ${url} within 30 s`)));
    request.on("error", reject);
  });
}

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];

for (const url of urls) {
  for (let i = 0; i < warmup; i++) await once(url);
  const times = [];
  const statuses = {};
  for (let i = 0; i < requests; i++) {
    const { ms, status } = await once(url);
    times.push(ms);
    statuses[status] = (statuses[status] ?? 0) + 1;
  }
  times.sort((a, b) => a - b);
  const mean = times.reduce((a, b) => a + b, 0) / times.length;
  console.log(JSON.stringify({ url, count: times.length, p50: quantile(times, 0.5), p99: quantile(times, 0.99), mean, statuses }));
}
agent.destroy();
