// The exactodds calculator: exact odds computed in the browser by exactodds itself,
// running in Pyodide. Every form is generated from manifest.json (written at build
// time from the parameter specs by exactodds.webform.form_spec), so a new command
// appears here with no change to this file. Nothing is sent anywhere: the runtime,
// the wheels and the example files are served beside this page, and the questions
// are answered in this tab.
(function () {
  "use strict";

  const root = document.getElementById("exactodds-calculator");
  if (!root) return;
  const base = new URL(root.dataset.base || "./", document.baseURI);
  const DEFAULT_QUESTION = { id: "pool", values: { n: "3", hit: "4+" }, files: {} };

  const api = {
    ready: null, // a Promise resolved when Python answers
    timings: { start: performance.now(), ready: null, firstAnswer: null, answers: [] },
    panels: [],
  };
  window.exactoddsCalculator = api;

  let manifest = null;
  let commands = {}; // id -> command spec
  let runJson = null; // the Python function exactodds.webform.run_json
  let queue = Promise.resolve();

  // ---------------------------------------------------------------- helpers
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

  function b64encode(text) {
    const bytes = new TextEncoder().encode(text);
    let bin = "";
    for (const b of bytes) bin += String.fromCharCode(b);
    return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  function b64decode(text) {
    const bin = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
    return new TextDecoder().decode(Uint8Array.from(bin, (c) => c.charCodeAt(0)));
  }

  function setStatus(text, busy) {
    status.textContent = text;
    status.classList.toggle("busy", !!busy);
  }

  function firstParagraph(doc) {
    return (doc || "").split(/\n\s*\n/)[0].replace(/\s+/g, " ").trim();
  }

  // -------------------------------------------------------------- the page
  const status = el("div", { class: "eo-status busy", role: "status", "aria-live": "polite" }, "Loading…");
  const panelsBox = el("div", { class: "eo-panels" });
  const compareBox = el("input", { type: "checkbox", id: "eo-compare" });
  const limitBox = el("input", { type: "number", id: "eo-max-states", min: "1", placeholder: "2000000", class: "eo-limit" });
  const shareOut = el("textarea", { class: "eo-share-out", readonly: true, rows: "3", hidden: true, "aria-label": "Copied text" });
  const toolbar = el("div", { class: "eo-toolbar" },
    el("label", {}, compareBox, " Compare with a second question"),
    el("label", {}, "Work limit (states) ", limitBox),
    el("button", { type: "button", class: "eo-copy-link", onclick: copyLink }, "Copy link"));
  root.replaceChildren(status, toolbar, panelsBox, shareOut);
  compareBox.addEventListener("change", () => {
    if (compareBox.checked && api.panels.length < 2) {
      const q = api.panels[0].question();
      addPanel(q).answer();
    } else if (!compareBox.checked && api.panels.length > 1) {
      api.panels.pop().box.remove();
    }
    updateHash();
  });
  limitBox.addEventListener("change", () => api.panels.forEach((p) => p.answer()));

  function showCopied(text) {
    shareOut.value = text;
    shareOut.hidden = false;
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).catch(() => {});
  }

  // ------------------------------------------------------- share by link
  function shareState() {
    return { v: 1, q: api.panels.map((p) => p.question()) };
  }

  function updateHash() {
    const hash = "#q=" + b64encode(JSON.stringify(shareState()));
    if (location.hash !== hash) history.replaceState(null, "", hash);
  }

  function copyLink() {
    updateHash();
    showCopied(location.href);
  }

  function fromHash() {
    const m = /^#q=([A-Za-z0-9_-]+)$/.exec(location.hash);
    if (!m) return null;
    try {
      const state = JSON.parse(b64decode(m[1]));
      if (!state || !Array.isArray(state.q) || !state.q.length) return null;
      return state.q.filter((q) => q && commands[q.id]).slice(0, 2);
    } catch (e) {
      return null;
    }
  }

  // ------------------------------------------------------------- a panel
  function addPanel(question) {
    const panel = new Panel(question);
    api.panels.push(panel);
    panelsBox.append(panel.box);
    return panel;
  }

  class Panel {
    constructor(question) {
      this.index = api.panels.length;
      this.box = el("section", { class: "eo-panel", "data-panel": String(this.index) });
      this.select = el("select", { class: "eo-command", "aria-label": "Question" });
      const groups = {};
      for (const c of manifest.forms.commands) {
        if (!groups[c.system]) {
          groups[c.system] = el("optgroup", { label: c.system });
          this.select.append(groups[c.system]);
        }
        groups[c.system].append(el("option", { value: c.id }, c.title.replace(/^exactodds /, "")));
      }
      this.select.addEventListener("change", () => {
        // a new question starts from its command's documented example, when it has one
        this.setQuestion({ id: this.select.value, values: commands[this.select.value].example || {}, files: {} });
        this.answer();
      });
      this.doc = el("p", { class: "eo-doc" });
      this.form = el("form", { class: "eo-form", onsubmit: (e) => { e.preventDefault(); this.answer(); } });
      this.message = el("div", { class: "eo-message", role: "alert" });
      this.result = el("div", { class: "eo-result" });
      this.cumulative = false;
      this.allRows = false;
      this.last = null;
      this.box.append(el("div", { class: "eo-head" }, this.select), this.doc, this.form, this.message, this.result);
      this.setQuestion(question);
    }

    get command() {
      return commands[this.select.value];
    }

    setQuestion(q) {
      const command = commands[q.id] || commands[DEFAULT_QUESTION.id];
      this.select.value = command.id;
      this.doc.textContent = firstParagraph(command.doc);
      this.fields = {};
      this.form.replaceChildren();
      for (const f of command.fields) {
        const field = new Field(this, f, (q.values || {})[f.name], (q.files || {})[f.name]);
        this.fields[f.name] = field;
        this.form.append(field.box);
      }
      this.form.append(el("div", { class: "eo-actions" },
        el("button", { type: "submit", class: "eo-answer" }, "Answer"),
        el("button", { type: "button", class: "eo-copy-cli", onclick: () => this.copyCli() }, "Copy as CLI command"),
        el("button", { type: "button", class: "eo-download", onclick: () => this.downloadToml() }, "Download query TOML")));
      this.result.replaceChildren();
      this.message.textContent = "";
      this.last = null;
    }

    question() {
      const values = {}, files = {};
      for (const [name, field] of Object.entries(this.fields)) {
        const v = field.shared();
        if (v.file) files[name] = v.file;
        else if (v.value !== undefined) values[name] = v.value;
      }
      return { id: this.command.id, values, files };
    }

    request() {
      const params = {}, files = {};
      for (const [name, field] of Object.entries(this.fields)) {
        const r = field.request();
        if (r.file) files[r.file.path] = r.file.text;
        if (r.value !== undefined) params[name] = r.value;
      }
      const c = this.command;
      const req = { system: c.system, command: c.command, params, files };
      if (limitBox.value.trim()) req.max_states = limitBox.value.trim();
      return req;
    }

    answer() {
      updateHash();
      if (!runJson) return Promise.resolve(null);
      const req = this.request();
      this.box.classList.add("eo-busy");
      queue = queue.then(async () => {
        setStatus("Computing…", true);
        await new Promise((r) => setTimeout(r, 10)); // let the page paint
        const t0 = performance.now();
        let res;
        try {
          res = JSON.parse(runJson(JSON.stringify(req)));
        } catch (e) {
          res = { ok: false, error: "internal", message: "internal error: " + (e && e.message ? e.message.split("\n").slice(-2).join(" ") : e), fields: [] };
        }
        const ms = performance.now() - t0;
        api.timings.answers.push(ms);
        if (api.timings.firstAnswer === null) api.timings.firstAnswer = performance.now() - api.timings.start;
        this.box.classList.remove("eo-busy");
        this.show(res, ms);
        setStatus(`Ready (answered in ${ms < 1000 ? Math.round(ms) + " ms" : (ms / 1000).toFixed(1) + " s"}).`, false);
        return res;
      });
      return queue;
    }

    show(res, ms) {
      for (const f of Object.values(this.fields)) f.setError(null);
      this.message.textContent = "";
      this.message.className = "eo-message";
      if (!res.ok) {
        this.last = null;
        this.result.replaceChildren();
        this.message.textContent = res.message;
        this.message.classList.add("eo-error", "eo-" + res.error);
        for (const name of res.fields || []) {
          if (this.fields[name]) this.fields[name].setError(name === res.field ? (res.reason || res.message) : res.message);
        }
        return;
      }
      this.last = res;
      this.render();
    }

    render() {
      const res = this.last;
      if (!res) return;
      const parts = [el("div", { class: "eo-cli" }, el("code", {}, res.command_line))];
      const figs = el("dl", { class: "eo-figures" });
      if (res.mean_text !== null) figs.append(el("dt", {}, "mean"), el("dd", { class: "eo-mean", "data-exact": res.mean }, res.mean_text));
      for (const [name, text] of res.extras) figs.append(el("dt", {}, name), el("dd", { "data-name": name }, text));
      parts.push(figs);
      if (res.numeric) {
        const kValue = this.k !== undefined && this.k !== "" ? this.k : String(Math.round(res.mean_float || 0));
        const k = el("input", { type: "number", class: "eo-k", "aria-label": "k", value: kValue });
        const out = el("span", { class: "eo-at-least" });
        const upd = () => {
          if (k.value !== kValue) this.k = k.value;
          const v = atLeast(res.rows, Number(k.value));
          out.textContent = v.text;
          out.dataset.exact = v.exact;
        };
        k.addEventListener("input", upd);
        upd();
        parts.push(el("div", { class: "eo-pk" }, "P(≥ ", k, ") = ", out));
      }
      const toggle = el("label", { class: "eo-cum-toggle" },
        el("input", { type: "checkbox", class: "eo-cumulative", checked: this.cumulative || null,
          onchange: (e) => { this.cumulative = e.target.checked; this.render(); } }), " cumulative P(≥)");
      parts.push(el("div", { class: "eo-chart-head" }, res.numeric ? toggle : null), chart(res, this.cumulative && res.numeric));
      parts.push(table(res, this.allRows, () => { this.allRows = !this.allRows; this.render(); }));
      this.result.replaceChildren(...parts);
    }

    copyCli() {
      if (!this.last) return;
      let text = this.last.command_line;
      const pasted = Object.values(this.fields).filter((f) => f.pasted());
      if (pasted.length) text += "\n# save the pasted unit file(s) as " + pasted.map((f) => "pasted/" + f.spec.name + ".toml").join(", ");
      showCopied(text);
    }

    downloadToml() {
      if (!this.last) return;
      showCopied(this.last.toml);
      const blob = new Blob([this.last.toml], { type: "application/toml" });
      const a = el("a", { href: URL.createObjectURL(blob), download: "query.toml" });
      document.body.append(a);
      a.click();
      a.remove();
    }
  }

  function atLeast(rows, k) {
    if (!Number.isFinite(k)) return { text: "", exact: "" };
    for (const r of rows) {
      if (r.outcome >= k) return { text: figure(r.at_least, r.at_least_decimal), exact: r.at_least };
    }
    return { text: "0", exact: "0" };
  }

  function figure(exact, dec) {
    if (exact === "1/1") return "1";
    if (exact === "0/1") return "0";
    if (exact.startsWith("(")) return "≈ " + dec + " (exact: " + exact.slice(1, -1) + ")";
    return exact + "  ≈ " + dec;
  }

  // --------------------------------------------------------------- fields
  class Field {
    constructor(panel, spec, value, file) {
      this.panel = panel;
      this.spec = spec;
      this.box = el("div", { class: "eo-field", "data-name": spec.name });
      this.error = el("div", { class: "eo-field-error", role: "alert" });
      const id = `eo-${panel.index}-${spec.name}`;
      const lab = el("label", { for: id, title: spec.flag }, spec.label, spec.required ? el("span", { class: "eo-req" }, " *") : null);
      this.control = el("div", { class: "eo-control" });
      this.help = el("div", { class: "eo-help" }, spec.help, " ", el("code", {}, spec.flag));
      this.id = id;
      this.items = [];
      if (spec.input === "file") this.buildFile(value, file);
      else if (spec.multiple) {
        const list = Array.isArray(value) ? value : value === undefined ? [] : [value];
        this.list = el("div", { class: "eo-list" });
        this.control.append(this.list, el("button", { type: "button", class: "eo-add", onclick: () => { this.addItem(""); } }, "+ add"));
        list.forEach((v) => this.addItem(v));
      } else {
        this.single = this.input(value, id);
        this.control.append(this.single);
      }
      this.box.append(lab, this.control, this.error, this.help);
    }

    input(value, id) {
      const s = this.spec;
      let node;
      const changed = () => this.panel.answer();
      if (s.input === "checkbox") {
        node = el("input", { type: "checkbox", id, checked: value === true || null });
      } else if (s.input === "select") {
        node = el("select", { id });
        if (!s.required && (s.default === null || s.multiple)) node.append(el("option", { value: "" }, s.multiple ? "" : "(none)"));
        for (const c of s.choices) node.append(el("option", { value: c }, c));
        node.value = value !== undefined && value !== null ? String(value) : s.default !== null && !s.multiple ? String(s.default) : "";
      } else {
        const attrs = { id, type: s.input === "number" ? "number" : "text", placeholder: s.default !== null && s.default !== undefined ? String(s.default) + " (default)" : s.placeholder || "" };
        if (s.input === "number") { attrs.step = "1"; attrs.min = s.min; attrs.max = s.max; }
        if (s.suggest) attrs.list = "eo-suggest-" + s.name;
        node = el("input", attrs);
        if (value !== undefined && value !== null) node.value = String(value);
        if (s.suggest && !document.getElementById(attrs.list)) {
          root.append(el("datalist", { id: attrs.list }, s.suggest.map((x) => el("option", { value: x }))));
        }
      }
      node.addEventListener("change", changed);
      return node;
    }

    addItem(value) {
      const row = el("div", { class: "eo-item" });
      const inp = this.input(value, this.items.length ? null : this.id);
      const remove = el("button", { type: "button", class: "eo-remove", "aria-label": "remove", onclick: () => {
        this.items = this.items.filter((x) => x !== inp);
        row.remove();
        this.panel.answer();
      } }, "×");
      row.append(inp, remove);
      this.items.push(inp);
      this.list.append(row);
    }

    buildFile(value, file) {
      const system = this.panel.command.system;
      const examples = (manifest.examples[system] || []).slice();
      this.fileSelect = el("select", { id: this.id, class: "eo-file" });
      for (const p of examples) this.fileSelect.append(el("option", { value: p }, p.split("/").pop()));
      this.fileSelect.append(el("option", { value: "__paste__" }, "Paste or edit TOML…"));
      this.text = el("textarea", { class: "eo-toml", rows: "10", spellcheck: "false", hidden: true, "aria-label": this.spec.label + " TOML" });
      if (file && typeof file.text === "string") {
        this.fileSelect.value = "__paste__";
        this.text.value = file.text;
        this.text.hidden = false;
      } else {
        const pick = (file && file.example) || value;
        // no file named: an example named after the field (target_*.toml for --target), else
        // the n-th example for the n-th file field (an attacker and a defender differ)
        const fileFields = this.panel.command.fields.filter((f) => f.input === "file").map((f) => f.name);
        const named = examples.find((p) => p.split("/").pop().startsWith(this.spec.name));
        const nth = examples[Math.max(fileFields.indexOf(this.spec.name), 0) % Math.max(examples.length, 1)];
        this.fileSelect.value = examples.includes(pick) ? pick : named || nth || "__paste__";
        if (this.fileSelect.value === "__paste__") this.text.hidden = false;
      }
      // "Paste or edit" starts from the text of the example chosen last
      const remember = (path) => {
        if (path) fetch(new URL(path, base)).then((r) => r.text()).then((t) => { this.lastExampleText = t; });
      };
      remember(this.fileSelect.value !== "__paste__" ? this.fileSelect.value : null);
      this.fileSelect.addEventListener("change", () => {
        if (this.fileSelect.value === "__paste__") {
          if (!this.text.value) this.text.value = this.lastExampleText || "";
          this.text.hidden = false;
        } else {
          this.text.hidden = true;
          remember(this.fileSelect.value);
          this.panel.answer();
        }
      });
      this.text.addEventListener("change", () => this.panel.answer());
      this.control.append(this.fileSelect, this.text);
    }

    pasted() {
      return this.spec.input === "file" && this.fileSelect.value === "__paste__";
    }

    raw(node) {
      if (this.spec.input === "checkbox") return node.checked;
      return node.value;
    }

    // the value as a shared link keeps it
    shared() {
      if (this.spec.input === "file") {
        if (this.pasted()) return { file: { text: this.text.value } };
        return { value: this.fileSelect.value };
      }
      if (this.spec.multiple) {
        const vs = this.items.map((n) => this.raw(n)).filter((v) => v !== "");
        return { value: vs.length ? vs : undefined };
      }
      const v = this.raw(this.single);
      return { value: v === "" || v === false ? undefined : v };
    }

    // the value as the request to Python takes it
    request() {
      if (this.spec.input === "file" && this.pasted()) {
        const path = "pasted/" + this.spec.name + ".toml";
        return { value: path, file: { path, text: this.text.value } };
      }
      return this.shared();
    }

    setError(text) {
      this.error.textContent = text || "";
      this.box.classList.toggle("eo-has-error", !!text);
    }
  }

  // ---------------------------------------------------------------- output
  function chart(res, cumulative) {
    const NS = "http://www.w3.org/2000/svg";
    let rows = res.rows;
    if (rows.length > 60) rows = res.window.map((i) => res.rows[i]);
    const W = 560, H = 200, pad = 28, n = rows.length;
    const svg = document.createElementNS(NS, "svg");
    svg.setAttribute("viewBox", `0 0 ${W} ${H + 40}`);
    svg.setAttribute("class", "eo-chart" + (cumulative ? " eo-cum" : ""));
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", cumulative ? "P(at least) by outcome" : "Probability by outcome");
    const vals = rows.map((r) => (cumulative ? r.at_least_float : r.p_float));
    const top = cumulative ? 1 : Math.max(...vals, 1e-12);
    const bw = (W - pad) / Math.max(n, 1);
    const add = (tag, attrs, text) => {
      const node = document.createElementNS(NS, tag);
      for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
      if (text !== undefined) node.textContent = text;
      svg.append(node);
      return node;
    };
    add("line", { x1: pad, y1: H, x2: W, y2: H, class: "eo-axis" });
    add("text", { x: pad - 4, y: 10, "text-anchor": "end", class: "eo-tick" }, (top * 100).toPrecision(2) + "%");
    add("text", { x: pad - 4, y: H, "text-anchor": "end", class: "eo-tick" }, "0");
    const every = Math.ceil(n / 20);
    rows.forEach((r, i) => {
      const h = (vals[i] / top) * (H - 14);
      const bar = add("rect", { x: pad + i * bw + bw * 0.1, y: H - h, width: Math.max(bw * 0.8, 1), height: Math.max(h, 0), class: "eo-bar" });
      const t = document.createElementNS(NS, "title");
      t.textContent = `${r.label}: ${cumulative ? "P(≥) " + figure(r.at_least, r.at_least_decimal) : figure(r.p, r.decimal)}`;
      bar.append(t);
      if (i % every === 0) {
        const label = r.label.length > 14 ? r.label.slice(0, 13) + "…" : r.label;
        add("text", { x: pad + i * bw + bw / 2, y: H + 14, "text-anchor": "middle", class: "eo-tick" }, label);
      }
    });
    return svg;
  }

  function table(res, all, toggle) {
    const numeric = res.numeric;
    const t = el("table", { class: "eo-table" });
    t.append(el("thead", {}, el("tr", {}, el("th", {}, "outcome"), el("th", {}, "probability"), el("th", {}, "decimal"), numeric ? el("th", {}, "P(≥)") : null)));
    const body = el("tbody");
    const row = (r) => el("tr", { "data-outcome": r.label },
      el("td", {}, r.label), el("td", { class: "eo-p" }, r.p === "1/1" ? "1" : r.p), el("td", {}, r.decimal),
      numeric ? el("td", { class: "eo-ge", "data-exact": r.at_least }, r.at_least === "1/1" ? "1" : r.at_least_decimal) : null);
    const gapRow = (g) => el("tr", { class: "eo-gap" }, el("td", { colspan: numeric ? "4" : "3" }, g.text));
    if (all || res.window.length === res.rows.length) {
      res.rows.forEach((r) => body.append(row(r)));
    } else {
      const below = res.gaps.filter((g) => g.where === "below");
      const rest = res.gaps.filter((g) => g.where !== "below");
      below.forEach((g) => body.append(gapRow(g)));
      res.window.forEach((i) => body.append(row(res.rows[i])));
      rest.forEach((g) => body.append(gapRow(g)));
    }
    t.append(body);
    const box = el("div", { class: "eo-table-box" }, t);
    if (res.window.length < res.rows.length) {
      box.append(el("button", { type: "button", class: "eo-all", onclick: toggle },
        all ? "Show the most probable rows" : `Show all ${res.rows.length} rows`));
    }
    return box;
  }

  // ------------------------------------------------------------- start up
  async function start() {
    setStatus("Loading the forms…", true);
    manifest = await (await fetch(new URL("manifest.json", base))).json();
    for (const c of manifest.forms.commands) commands[c.id] = c;
    const shared = fromHash();
    (shared && shared.length ? shared : [DEFAULT_QUESTION]).forEach((q) => addPanel(q));
    compareBox.checked = api.panels.length > 1;
    setStatus(`Starting Python (Pyodide ${manifest.pyodide}, about 12 MB the first time)…`, true);
    const pyodide = await loadPyodide({ indexURL: new URL("pyodide/", base).href });
    setStatus("Loading exactodds…", true);
    const fetchBytes = async (url) => new Uint8Array(await (await fetch(url)).arrayBuffer());
    const put = async (rel, url) => {
      const path = "/home/pyodide/" + rel;
      pyodide.FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
      pyodide.FS.writeFile(path, await fetchBytes(url));
      return path;
    };
    const eager = manifest.wheels.filter((w) => w.eager);
    const lazy = manifest.wheels.filter((w) => !w.eager);
    const examples = Object.values(manifest.examples).flat();
    await Promise.all([
      ...eager.map((w) => put("wheels/" + w.file, new URL("wheels/" + w.file, base))),
      ...examples.map((p) => put(p, new URL(p, base))),
    ]);
    pyodide.FS.chdir("/home/pyodide");
    const addPath = (files) => pyodide.runPython(
      "import sys\nfor w in " + JSON.stringify(files.map((w) => "/home/pyodide/wheels/" + w.file)) +
      ":\n    sys.path.append(w) if w not in sys.path else None\n");
    addPath(eager);
    runJson = pyodide.runPython("from exactodds.webform import run_json\nrun_json");
    api.timings.ready = performance.now() - api.timings.start;
    setStatus("Ready.", false);
    await Promise.all(api.panels.map((p) => p.answer()));
    // the other wheels (sympy, mpmath, click): for exactodds.symbolic, after the first answer
    Promise.all(lazy.map((w) => put("wheels/" + w.file, new URL("wheels/" + w.file, base))))
      .then(() => addPath(lazy)).catch(() => {});
    window.addEventListener("hashchange", () => {
      const qs = fromHash();
      if (!qs) return;
      while (api.panels.length) api.panels.pop().box.remove();
      qs.forEach((q) => addPanel(q));
      compareBox.checked = api.panels.length > 1;
      api.panels.forEach((p) => p.answer());
    });
    return api;
  }

  api.ready = start().catch((e) => {
    setStatus("The calculator could not start: " + (e && e.message ? e.message : e), false);
    status.classList.add("eo-failed");
    throw e;
  });
})();
