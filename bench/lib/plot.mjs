// A hand-written SVG of the growth benchmark (bench/growth.mjs): panels side by side, each a
// log-log plot of one figure against the document's size, one line per tool through the
// generated family, the public descriptions as hollow squares of the tool's colour, loads that
// did not list within the cap as triangles on the cap's line.

const COLOURS = ["#111111", "#2f9e44", "#d6336c", "#7048e8", "#1971c2", "#f08c00", "#0ca678", "#868e96"];
const esc = (s) => String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const fmt = (v) => (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(0) : v >= 1 ? v.toFixed(v % 1 ? 1 : 0) : v.toPrecision(1));

/** Ticks 1, 2, 5 × 10^k inside [lo, hi] (or only powers of ten when there are many). */
function ticks(lo, hi) {
  const out = [];
  const steps = Math.log10(hi / lo) > 3 ? [1] : [1, 2, 5];
  for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e++) {
    for (const m of steps) {
      const v = m * 10 ** e;
      if (v >= lo * 0.999 && v <= hi * 1.001) out.push(v);
    }
  }
  return out;
}

/** Bounds padded out to the next 1, 2, 5 step. */
function bounds(values) {
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const down = (v) => { const e = 10 ** Math.floor(Math.log10(v)); return [5, 2, 1].map((m) => m * e).find((x) => x <= v) ?? e; };
  const up = (v) => { const e = 10 ** Math.floor(Math.log10(v)); return [1, 2, 5, 10].map((m) => m * e).find((x) => x >= v * 1.0001) ?? 10 * e; };
  return [down(lo), up(hi)];
}

/**
 * `tools`: names in legend order; `docs`: [{key, label, mb, family: "generated"|"public"}];
 * `panels`: [{title, unit, value(tool, doc) -> number|null, missed(tool, doc) -> bool, cap}];
 * returns the SVG text.
 */
export function growthSvg({ title, subtitle, tools, docs, panels }) {
  const W = 1000;
  const panelW = 400;
  const panelH = 330;
  const left = 70;
  const top = 78;
  const gap = 110;
  const legendTop = top + panelH + 62;
  const H = legendTop + 30 + Math.ceil(tools.length / 4) * 22 + 28 + (docs.some((d) => d.family === "public") ? 22 : 0);
  const colour = Object.fromEntries(tools.map((t, i) => [t, COLOURS[i % COLOURS.length]]));
  const xs = docs.map((d) => d.mb);
  const x0 = Math.min(...xs) / 1.3;
  const x1 = Math.max(...xs) * 1.3;
  const letter = (i) => String.fromCharCode(65 + i);
  const publicDocs = docs.filter((d) => d.family === "public");
  const parts = [];
  parts.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="system-ui, -apple-system, 'Segoe UI', sans-serif" font-size="12">`);
  parts.push(`<rect width="${W}" height="${H}" fill="#fff"/>`);
  parts.push(`<text x="${W / 2}" y="26" text-anchor="middle" font-size="17" font-weight="600">${esc(title)}</text>`);
  if (subtitle) parts.push(`<text x="${W / 2}" y="46" text-anchor="middle" fill="#555">${esc(subtitle)}</text>`);

  panels.forEach((panel, p) => {
    const ox = left + p * (panelW + gap);
    const values = [];
    for (const t of tools) for (const d of docs) { const v = panel.value(t, d); if (v > 0) values.push(v); }
    if (panel.cap) values.push(panel.cap);
    if (!values.length) values.push(1);
    const [y0, y1] = bounds(values);
    const X = (v) => ox + (Math.log(v / x0) / Math.log(x1 / x0)) * panelW;
    const Y = (v) => top + panelH - (Math.log(v / y0) / Math.log(y1 / y0)) * panelH;
    parts.push(`<g>`);
    parts.push(`<text x="${ox + panelW / 2}" y="${top - 14}" text-anchor="middle" font-size="14" font-weight="600">${esc(panel.title)}</text>`);
    // Grid and axes.
    for (const v of ticks(x0, x1)) {
      parts.push(`<line x1="${X(v).toFixed(1)}" y1="${top}" x2="${X(v).toFixed(1)}" y2="${top + panelH}" stroke="#e9ecef"/>`);
      parts.push(`<text x="${X(v).toFixed(1)}" y="${top + panelH + 16}" text-anchor="middle" fill="#333">${fmt(v)}</text>`);
    }
    for (const v of ticks(y0, y1)) {
      parts.push(`<line x1="${ox}" y1="${Y(v).toFixed(1)}" x2="${ox + panelW}" y2="${Y(v).toFixed(1)}" stroke="#e9ecef"/>`);
      parts.push(`<text x="${ox - 6}" y="${(Y(v) + 4).toFixed(1)}" text-anchor="end" fill="#333">${fmt(v)}</text>`);
    }
    parts.push(`<rect x="${ox}" y="${top}" width="${panelW}" height="${panelH}" fill="none" stroke="#495057"/>`);
    parts.push(`<text x="${ox + panelW / 2}" y="${top + panelH + 36}" text-anchor="middle" fill="#333">document size (MB, log scale)</text>`);
    parts.push(`<text transform="translate(${ox - 48} ${top + panelH / 2}) rotate(-90)" text-anchor="middle" fill="#333">${esc(panel.unit)} (log scale)</text>`);
    // The public descriptions: a dashed line each, lettered at the top (named in the legend).
    publicDocs.forEach((d, i) => {
      parts.push(`<line x1="${X(d.mb).toFixed(1)}" y1="${top}" x2="${X(d.mb).toFixed(1)}" y2="${top + panelH}" stroke="#adb5bd" stroke-dasharray="3 3"/>`);
      parts.push(`<text x="${X(d.mb).toFixed(1)}" y="${top + 12}" text-anchor="middle" fill="#868e96" font-size="11" font-weight="600">${letter(i)}</text>`);
    });
    if (panel.cap) {
      parts.push(`<line x1="${ox}" y1="${Y(panel.cap).toFixed(1)}" x2="${ox + panelW}" y2="${Y(panel.cap).toFixed(1)}" stroke="#c92a2a" stroke-dasharray="6 4"/>`);
      parts.push(`<text x="${ox + 6}" y="${(Y(panel.cap) - 5).toFixed(1)}" fill="#c92a2a" font-size="11">cap: ${fmt(panel.cap)} ${esc(panel.capUnit ?? "")}</text>`);
    }
    for (const t of tools) {
      const c = colour[t];
      const width = t === tools[0] ? 3 : 1.8;
      const line = docs.filter((d) => d.family === "generated").map((d) => [d, panel.value(t, d)]).filter(([, v]) => v > 0);
      if (line.length > 1) {
        parts.push(`<polyline fill="none" stroke="${c}" stroke-width="${width}" points="${line.map(([d, v]) => `${X(d.mb).toFixed(1)},${Y(v).toFixed(1)}`).join(" ")}"/>`);
      }
      for (const d of docs) {
        const v = panel.value(t, d);
        if (v > 0) {
          const x = X(d.mb).toFixed(1);
          const y = Y(v).toFixed(1);
          parts.push(d.family === "generated"
            ? `<circle cx="${x}" cy="${y}" r="${t === tools[0] ? 4.5 : 3.5}" fill="${c}"><title>${esc(`${t}, ${d.label}: ${fmt(v)} ${panel.unit}`)}</title></circle>`
            : `<rect x="${(X(d.mb) - 4).toFixed(1)}" y="${(Y(v) - 4).toFixed(1)}" width="8" height="8" fill="#fff" stroke="${c}" stroke-width="2"><title>${esc(`${t}, ${d.label}: ${fmt(v)} ${panel.unit}`)}</title></rect>`);
        } else if (panel.cap && panel.missed(t, d)) {
          const x = X(d.mb);
          const y = Y(panel.cap);
          parts.push(`<path d="M${(x - 5).toFixed(1)},${(y + 4).toFixed(1)} L${(x + 5).toFixed(1)},${(y + 4).toFixed(1)} L${x.toFixed(1)},${(y - 5).toFixed(1)} Z" fill="${c}"><title>${esc(`${t}, ${d.label}: did not list within the cap`)}</title></path>`);
        }
      }
    }
    parts.push(`</g>`);
  });

  // Legend: tools, then what the marks mean.
  const perRow = 4;
  tools.forEach((t, i) => {
    const x = left + (i % perRow) * 220;
    const y = legendTop + Math.floor(i / perRow) * 22;
    parts.push(`<line x1="${x}" y1="${y}" x2="${x + 26}" y2="${y}" stroke="${colour[t]}" stroke-width="${i === 0 ? 3 : 1.8}"/>`);
    parts.push(`<circle cx="${x + 13}" cy="${y}" r="3.5" fill="${colour[t]}"/>`);
    parts.push(`<text x="${x + 34}" y="${y + 4}"${i === 0 ? ` font-weight="600"` : ""}>${esc(t)}</text>`);
  });
  const ky = legendTop + Math.ceil(tools.length / perRow) * 22 + 8;
  parts.push(`<circle cx="${left + 6}" cy="${ky}" r="3.5" fill="#495057"/><text x="${left + 16}" y="${ky + 4}" fill="#333">generated documents (line)</text>`);
  parts.push(`<rect x="${left + 202}" y="${ky - 4}" width="8" height="8" fill="#fff" stroke="#495057" stroke-width="2"/><text x="${left + 216}" y="${ky + 4}" fill="#333">public descriptions (dashed lines)</text>`);
  parts.push(`<path d="M${left + 452},${ky + 4} L${left + 462},${ky + 4} L${left + 457},${ky - 5} Z" fill="#495057"/><text x="${left + 470}" y="${ky + 4}" fill="#333">did not list within the cap</text>`);
  if (publicDocs.length) {
    parts.push(`<text x="${left}" y="${ky + 26}" fill="#333">Public descriptions: ${publicDocs.map((d, i) => `${letter(i)} ${esc(d.label)}`).join(", ")}.</text>`);
  }
  parts.push(`</svg>`);
  return `${parts.join("\n")}\n`;
}
