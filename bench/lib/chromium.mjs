// What the Chromium loads of bench/bench.mjs and bench/site.mjs share: the browser, its flags
// and window, where GitHub's description is, and how the figures are summed up.
import { join } from "node:path";

export const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
export const ARGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-extensions",
];
export const VIEWPORT = { width: 1280, height: 900 };

/** GitHub's REST description (13 MB of JSON) in the bench's npm packages. */
export const githubDescription = (nodeModules) => join(nodeModules, "@octokit/openapi/generated/api.github.com.json");

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
export const ms = (v) => (v >= 10_000 ? `${(v / 1000).toFixed(1)} s` : `${Math.round(v)} ms`);
