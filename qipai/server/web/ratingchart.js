// A rating-history chart drawn as inline SVG: one line of the rating after each rated game of one
// rating (a game and time class), with the lowest and highest ratings and the first and last
// dates on the axes; each point has a title in words ("1523 after game 12, 4 Dec 2026").

const SVG = "http://www.w3.org/2000/svg";

function node(tag, attrs = {}, text) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

/** An <svg> of `points` ([{after, at, record}], oldest first; `start`: the rating before the
 *  first). `label(p, i)`: a point's words; `dateText(iso)`: an axis date; `width`: the width it
 *  is drawn for (px; the page's width, so its text keeps its size), the height is fixed. */
export function ratingChart(points, { start, label, dateText, title, width = 640 }) {
  const W = width, H = 220, L = 48, R = 12, T = 12, B = 28;
  const values = [start, ...points.map((p) => p.after)];
  let lo = Math.min(...values), hi = Math.max(...values);
  if (hi - lo < 40) { const mid = (hi + lo) / 2; lo = mid - 20; hi = mid + 20; }
  const x = (i) => L + (W - L - R) * (values.length === 1 ? 0.5 : i / (values.length - 1));
  const y = (v) => T + (H - T - B) * (1 - (v - lo) / (hi - lo));
  const svg = node("svg", { viewBox: `0 0 ${W} ${H}`, class: "rating-chart", role: "img", "aria-label": title });
  svg.append(node("title", {}, title));
  for (const v of [lo, (lo + hi) / 2, hi]) {
    svg.append(node("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), class: "grid" }));
    svg.append(node("text", { x: L - 6, y: y(v) + 4, "text-anchor": "end", class: "axis" }, String(Math.round(v))));
  }
  const path = values.map((v, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
  svg.append(node("path", { d: path, class: "line" }));
  points.forEach((p, i) => {
    const dot = node("circle", { cx: x(i + 1), cy: y(p.after), r: points.length > 60 ? 2 : 3.5, class: "dot", "data-record": p.record });
    dot.append(node("title", {}, label(p, i)));
    svg.append(dot);
  });
  if (points.length) {
    svg.append(node("text", { x: L, y: H - 8, class: "axis" }, dateText(points[0].at)));
    svg.append(node("text", { x: W - R, y: H - 8, "text-anchor": "end", class: "axis" }, dateText(points[points.length - 1].at)));
  }
  return svg;
}
