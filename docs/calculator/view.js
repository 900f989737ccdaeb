// The calculator's drawings: numbers (decimals first, the exact fraction on request),
// bar charts, the answer's table, one small chart per unit for composite answers, and
// the comparison of two answers. Plain functions of the answers' data (exactodds.webform
// answer_data), used by calculator.js; nothing here talks to Python.
(function () {
  "use strict";
  const NS = "http://www.w3.org/2000/svg";

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") node.className = v;
      else if (k === "text") node.textContent = v;
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children.flat()) {
      if (c === null || c === undefined) continue;
      node.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return node;
  }

  // ------------------------------------------------------------ numbers
  // Exact fractions as text "num/den" (or "(N digits)" when too long to send), with BigInt.
  function parseFrac(text) {
    const m = /^(-?\d+)(?:\/(\d+))?$/.exec(String(text || "").trim());
    return m ? { n: BigInt(m[1]), d: BigInt(m[2] || "1") } : null;
  }
  function gcd(a, b) {
    a = a < 0n ? -a : a;
    while (b) [a, b] = [b, a % b];
    return a;
  }
  function sub(a, b) {
    const n = a.n * b.d - b.n * a.d, d = a.d * b.d, g = gcd(n, d) || 1n;
    return { n: n / g, d: d / g };
  }
  function fracText(f) {
    return f.d === 1n ? String(f.n) : `${f.n}/${f.d}`;
  }
  // 4 significant digits, as the command line's tables (0.4167, 6.393e-08)
  function sig4(x) {
    if (x === 0) return "0";
    const a = Math.abs(x);
    if (a >= 1e-4 && a < 1e5) return x.toPrecision(4);
    return x.toExponential(3).replace(/e([+-])(\d)$/, "e$10$2");
  }
  function fracFloat(f) {
    if (!f) return NaN;
    const k = 10n ** BigInt(Math.max(0, f.d.toString().length - 300)); // both within a double's range
    return Number(f.n / k) / Number(f.d / k);
  }
  // a probability's cell: its decimal, the exact fraction as a tooltip and data-exact
  function num(exact, dec, showExact, cls) {
    const whole = exact === "1/1" ? "1" : exact === "0/1" ? "0" : exact;
    const isLong = whole.startsWith("(");
    const text = whole === "1" || whole === "0" || (showExact && !isLong) ? whole : dec;
    return el("span", { class: "eo-num" + (showExact && !isLong ? " eo-exact" : "") + (cls ? " " + cls : ""),
      "data-exact": exact, title: isLong ? "exact: " + whole.slice(1, -1) + " (see the CLI's --exact)" : whole }, text);
  }
  // a figure of the command line ("5/12  ≈ 0.4167", "≈ 0.06800 (exact: 497 digits, --exact)", "3")
  function figureParts(text) {
    const m = /^(.*?)\s*≈\s*([^\s(]+)\s*(?:\((.*)\))?$/.exec(text);
    if (!m) return { dec: text, exact: text };
    return { dec: m[2], exact: m[1] || (m[3] ? "(" + m[3].replace(/^exact:\s*/, "").replace(/, --exact$/, "") + ")" : m[2]) };
  }
  // one extra figure: a plain figure, or a dict of exact fractions by unit (JSON text)
  function figureNode(text, showExact) {
    if (text.startsWith("{")) {
      try {
        const obj = JSON.parse(text);
        return el("span", { class: "eo-by-unit" }, Object.entries(obj).map(([k, v]) => {
          const f = parseFrac(v);
          const dec = f ? sig4(fracFloat(f)) : String(v);
          return el("span", { class: "eo-unit-figure" }, k + ": ", f ? num(String(v), dec, showExact) : String(v));
        }));
      } catch (e) { /* shown as text below */ }
    }
    const p = figureParts(text);
    return num(p.exact, p.dec, showExact);
  }

  // ------------------------------------------------------------- charts
  // vertical bars for ordered outcomes (labels thinned so that they never overlap),
  // horizontal bars for named outcomes (one line each: labels never overlap)
  function chart(rows, opts) {
    const o = Object.assign({ atLeast: false, numeric: true, width: 560, height: 200, series: null }, opts);
    if (!o.numeric) return hbars(rows, o);
    const series = o.series || [rows.map((r) => (o.atLeast ? r.at_least_float : r.p_float))];
    const labels = rows.map((r) => r.label);
    const W = o.width, H = o.height, pad = 50, n = labels.length;
    const svg = document.createElementNS(NS, "svg");
    svg.setAttribute("viewBox", `0 0 ${W} ${H + 24}`);
    svg.setAttribute("class", "eo-chart" + (o.atLeast ? " eo-cum" : ""));
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", o.atLeast ? "P(X ≥ x) by outcome" : "Probability by outcome");
    const add = (tag, attrs, text, parent) => {
      const node = document.createElementNS(NS, tag);
      for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
      if (text !== undefined) node.textContent = text;
      (parent || svg).append(node);
      return node;
    };
    const top = o.atLeast ? 1 : Math.max(...series.flat(), 1e-12);
    const bw = (W - pad) / Math.max(n, 1);
    add("line", { x1: pad, y1: H, x2: W, y2: H, class: "eo-axis" });
    add("text", { x: pad - 4, y: 10, "text-anchor": "end", class: "eo-tick" }, sig4(top));
    add("text", { x: pad - 4, y: H, "text-anchor": "end", class: "eo-tick" }, "0");
    const longest = Math.max(...labels.map((l) => l.length), 1);
    const every = Math.max(1, Math.ceil((longest * 7 + 8) / bw)); // a label is about 7 units a character wide
    const k = series.length;
    labels.forEach((label, i) => {
      series.forEach((vals, s) => {
        const h = (vals[i] / top) * (H - 14);
        const x = pad + i * bw + bw * 0.1 + (s * bw * 0.8) / k;
        const bar = add("rect", { x, y: H - h, width: Math.max((bw * 0.8) / k, 1), height: Math.max(h, 0),
          class: "eo-bar eo-s" + s });
        add("title", {}, `${o.names ? o.names[s] + ", " : ""}${label}: ${sig4(vals[i])}`, bar);
      });
      if (i % every === 0) add("text", { x: pad + i * bw + bw / 2, y: H + 14, "text-anchor": "middle", class: "eo-tick" }, label);
    });
    return svg;
  }

  function hbars(rows, o) {
    const series = o.series || [rows.map((r) => r.p_float)];
    const top = Math.max(...series.flat(), 1e-12);
    return el("div", { class: "eo-hbars", role: "img", "aria-label": "Probability by outcome" },
      rows.map((r, i) => el("div", { class: "eo-hrow" },
        el("span", { class: "eo-hlabel", title: r.label }, r.label),
        el("span", { class: "eo-htrack" }, series.map((vals, s) =>
          el("span", { class: "eo-bar eo-hbar eo-s" + s, style: `width:${(100 * vals[i]) / top}%`,
            title: `${o.names ? o.names[s] + ", " : ""}${r.label}: ${sig4(vals[i])}` }))),
        el("span", { class: "eo-hvalue" }, series.map((vals) => sig4(vals[i])).join(" / ")))));
  }

  // one small panel per field of a composite outcome (each unit's survivors, its status)
  function marginals(res, showExact) {
    return el("div", { class: "eo-marginals" }, res.marginals.map((m) =>
      el("figure", { class: "eo-marginal", "data-field": m.field },
        el("figcaption", {}, m.field.replace(/_/g, " ")),
        chart(m.rows, { numeric: m.numeric, width: 300, height: 110 }))));
  }

  // ------------------------------------------------------------- tables
  function table(res, opts) {
    const { all, toggle, showExact, top } = opts;
    const numeric = res.numeric;
    // a composite outcome: one column per part (each unit's survivors, its status)
    const parts = res.marginals && res.marginals.length ? res.marginals.map((m) => m.field.replace(/_/g, " ")) : null;
    const t = el("table", { class: "eo-table" + (parts ? " eo-joint" : "") });
    t.append(el("thead", {}, el("tr", {}, parts ? parts.map((f) => el("th", {}, f)) : el("th", {}, "outcome"), el("th", {}, "probability"),
      numeric ? el("th", {}, "P(X ≥ x)") : null)));
    const body = el("tbody");
    const row = (r) => el("tr", { "data-outcome": r.label },
      parts && r.parts ? r.parts.map((x) => el("td", { class: "eo-part" }, x)) : el("td", { class: "eo-outcome" }, r.label),
      el("td", { class: "eo-p" }, num(r.p, r.decimal, showExact)),
      numeric ? el("td", { class: "eo-ge" }, num(r.at_least, r.at_least_decimal, showExact)) : null);
    const gapRow = (g) => el("tr", { class: "eo-gap" }, el("td", { colspan: String((parts ? parts.length : 1) + (numeric ? 2 : 1)) }, g.text));
    let shown = res.rows.length;
    if (all) { // drawn 50 rows at a time, so that no step keeps the page busy long
      const step = (from) => {
        const part = document.createDocumentFragment();
        res.rows.slice(from, from + 50).forEach((r) => part.append(row(r)));
        body.append(part);
        if (from + 50 < res.rows.length) setTimeout(() => step(from + 50), 0);
      };
      step(0);
    } else if (top) { // the most probable outcomes, most probable first
      const order = res.rows.map((r, i) => i).sort((a, b) => res.rows[b].p_float - res.rows[a].p_float).slice(0, top);
      order.forEach((i) => body.append(row(res.rows[i])));
      shown = order.length;
    } else if (res.window.length < res.rows.length) {
      res.gaps.filter((g) => g.where === "below").forEach((g) => body.append(gapRow(g)));
      res.window.forEach((i) => body.append(row(res.rows[i])));
      res.gaps.filter((g) => g.where !== "below").forEach((g) => body.append(gapRow(g)));
      shown = res.window.length;
    } else {
      res.rows.forEach((r) => body.append(row(r)));
    }
    t.append(body);
    const box = el("div", { class: "eo-table-box" }, t);
    if (shown < res.rows.length || all && res.rows.length > (top || res.window.length)) {
      box.append(el("button", { type: "button", class: "eo-all", onclick: toggle },
        all ? "Show the most probable rows" : `Show all ${res.rows.length} rows`));
    }
    return box;
  }

  // ------------------------------------------------------------- compare
  // both answers on one chart, and the differences, as `exactodds compare` prints them
  function compare(a, b, showExact) {
    const box = el("section", { class: "eo-compare-view" }, el("h3", {}, "Comparison (q2 − q1)"));
    if (a.numeric && b.numeric) {
      const keys = [...new Set([...a.rows, ...b.rows].map((r) => r.outcome))].sort((x, y) => x - y);
      const at = (res, k) => res.rows.find((r) => r.outcome >= k); // P(X >= k): the first row at or past k
      const pAt = (res, k) => { const r = res.rows.find((x) => x.outcome === k); return r ? r.p_float : 0; };
      const rows = keys.map((k) => ({ label: String(k) }));
      box.append(chart(rows, { series: [keys.map((k) => pAt(a, k)), keys.map((k) => pAt(b, k))], names: ["q1", "q2"] }));
      box.append(legend());
      if (a.mean !== null && b.mean !== null) {
        box.append(el("p", { class: "eo-mean-diff" }, "mean: q1 ", num(a.mean, sig4(a.mean_float), showExact),
          ", q2 ", num(b.mean, sig4(b.mean_float), showExact), ", q2 − q1 ", diff(a.mean, b.mean, b.mean_float - a.mean_float, showExact)));
      }
      const t = el("table", { class: "eo-table eo-diff-table" }, el("thead", {}, el("tr", {},
        el("th", {}, "k"), el("th", {}, "q1 P(X ≥ k)"), el("th", {}, "q2 P(X ≥ k)"), el("th", {}, "q2 − q1"))));
      const body = el("tbody");
      for (const k of keys) {
        const ra = at(a, k), rb = at(b, k);
        const ea = ra ? ra.at_least : "0/1", eb = rb ? rb.at_least : "0/1";
        const fa = ra ? ra.at_least_float : 0, fb = rb ? rb.at_least_float : 0;
        body.append(el("tr", { "data-k": String(k) }, el("td", {}, String(k)),
          el("td", {}, num(ea, sig4(fa), showExact)), el("td", {}, num(eb, sig4(fb), showExact)),
          el("td", { class: "eo-diff" }, diff(ea, eb, fb - fa, showExact))));
      }
      t.append(body);
      box.append(el("div", { class: "eo-table-box" }, t));
    } else {
      const labels = [...new Set([...a.rows, ...b.rows].map((r) => r.label))];
      const p = (res) => labels.map((l) => { const r = res.rows.find((x) => x.label === l); return r ? r.p_float : 0; });
      const pa = p(a), pb = p(b);
      const order = labels.map((l, i) => i).sort((i, j) => Math.max(pb[j], pa[j]) - Math.max(pb[i], pa[i])).slice(0, 15);
      box.append(chart(order.map((i) => ({ label: labels[i] })), { numeric: false,
        series: [order.map((i) => pa[i]), order.map((i) => pb[i])], names: ["q1", "q2"] }), legend());
    }
    return box;
  }

  function legend() {
    return el("div", { class: "eo-legend" }, el("span", { class: "eo-key eo-s0" }), " q1 (first question) ",
      el("span", { class: "eo-key eo-s1" }), " q2 (second question)");
  }

  function diff(ea, eb, approx, showExact) {
    const fa = parseFrac(ea), fb = parseFrac(eb);
    const d = fa && fb ? sub(fb, fa) : null;
    const exact = d ? fracText(d) : "(not sent: too many digits)";
    const sign = (t) => (t.startsWith("-") || t === "0" ? t : "+" + t);
    const dec = approx === 0 && d && d.n === 0n ? "0" : sign(sig4(approx));
    return el("span", { class: "eo-num" + (showExact && d ? " eo-exact" : ""), "data-exact": exact, title: exact },
      showExact && d ? sign(exact) : dec);
  }

  window.exactoddsView = { el, chart, marginals, table, compare, num, figureNode, sig4 };
})();
