// The exactodds calculator: exact odds computed in the browser by exactodds itself.
// Python (Pyodide and exactodds) runs in a Web Worker (worker.js), started as the page
// loads; this thread only draws the forms and the answers (view.js), so the page never
// freezes while Python starts or computes, and a long question can be cancelled (the
// worker is ended and a fresh one started). Every form is generated from manifest.json
// (written at build time from the parameter specs by exactodds.webform.form_spec), so a
// new command appears here with no change to this file. Nothing is sent anywhere: the
// runtime, the wheels and the example files are served beside this page.
(function () {
  "use strict";

  const root = document.getElementById("exactodds-calculator");
  if (!root) return;
  const base = new URL(root.dataset.base || "./", document.baseURI);
  const V = window.exactoddsView;
  const DEFAULT_QUESTION = { id: "pool", values: { n: "3", hit: "4+" }, files: {} };

  const api = {
    ready: null, // a Promise resolved when Python answers
    timings: { start: performance.now(), ready: null, firstAnswer: null, answers: [], drawn: [], worker: null },
    panels: [],
  };
  window.exactoddsCalculator = api;

  let manifest = null;
  let commands = {}; // id -> command spec
  let showExact = false;

  // ------------------------------------------------------- Python, in a worker
  const py = { worker: null, ready: null, pending: new Map(), next: 1, starts: 0 };

  function startPython() {
    py.starts += 1;
    const worker = new Worker(new URL("worker.js", base));
    py.worker = worker;
    let onReady, onFail;
    py.ready = new Promise((resolve, reject) => { onReady = resolve; onFail = reject; });
    py.ready.catch(() => {});
    worker.onmessage = (event) => {
      const msg = event.data;
      if (msg.type === "status") setStatus(msg.text, true);
      else if (msg.type === "ready") {
        api.timings.worker = msg.timings;
        if (api.timings.ready === null) api.timings.ready = performance.now() - api.timings.start;
        onReady();
      } else if (msg.type === "failed") {
        onFail(new Error(msg.message));
      } else if (msg.type === "answer") {
        const job = py.pending.get(msg.id);
        py.pending.delete(msg.id);
        const t = performance.now();
        const res = JSON.parse(msg.text);
        if (job) job.resolve({ res, ms: msg.ms, parse: performance.now() - t, text: msg.text });
      }
    };
    worker.onerror = (e) => onFail(new Error(e.message || "the worker failed"));
    worker.postMessage({ type: "start", base: base.href });
  }

  // one request to Python (entry "roster": a roster to import); answered in order
  function ask(request, entry) {
    return new Promise((resolve) => {
      const id = py.next++;
      py.pending.set(id, { resolve });
      updateBusy();
      py.ready.then(() => py.worker.postMessage({ type: "run", id, request, entry }),
        (e) => { py.pending.delete(id); resolve({ res: { ok: false, error: "internal", message: String(e.message), fields: [] }, ms: 0 }); });
    }).finally(updateBusy);
  }
  // a request as a form sends it, answered as {text, ms}: the JSON text Python answered and
  // the ms its call took in the worker (for scripts and the page's browser test)
  api.ask = (request) => ask(request).then(({ text, ms }) => ({ text, ms }));

  // end the running question (and the ones waiting): a fresh Python starts at once
  function cancel() {
    py.worker.terminate();
    const jobs = [...py.pending.values()];
    py.pending.clear();
    startPython();
    setStatus("Cancelled; Python restarts…", true);
    jobs.forEach((job) => job.resolve({ res: { ok: false, error: "cancelled", message: "Cancelled.", fields: [] }, ms: 0 }));
    py.ready.then(() => setStatus("Ready.", false));
  }

  startPython(); // first of all: Python starts while the page builds its forms

  // ---------------------------------------------------------------- helpers
  const el = V.el;
  // ---------------------------------------------------------------- helpers
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

  function updateBusy() {
    if (cancelButton) cancelButton.hidden = py.pending.size === 0;
    if (py.pending.size && status) setStatus(api.timings.ready === null ? status.textContent : "Computing…", true);
  }

  // compare mode: both answers on one chart, and their differences
  function drawCompare() {
    const [a, b] = api.panels.map((p) => p.last);
    compareView.replaceChildren(api.panels.length > 1 && a && b ? V.compare(a, b, showExact) : "");
  }

  function firstParagraph(doc) {
    return (doc || "").split(/\n\s*\n/)[0].replace(/\s+/g, " ").trim();
  }

  // -------------------------------------------------------------- the page
  const status = el("div", { class: "eo-status busy", role: "status", "aria-live": "polite" }, "Loading…");
  const panelsBox = el("div", { class: "eo-panels" });
  const compareView = el("div", { class: "eo-compare-box" });
  const cancelButton = el("button", { type: "button", class: "eo-cancel", hidden: true, onclick: () => cancel() }, "Cancel");
  const exactBox = el("input", { type: "checkbox", id: "eo-exact" });
  const compareBox = el("input", { type: "checkbox", id: "eo-compare" });
  const limitBox = el("input", { type: "number", id: "eo-max-states", min: "1", placeholder: "2000000", class: "eo-limit" });
  const shareOut = el("textarea", { class: "eo-share-out", readonly: true, rows: "3", hidden: true, "aria-label": "Copied text" });
  const toolbar = el("div", { class: "eo-toolbar" },
    el("label", {}, compareBox, " Compare with a second question"),
    el("label", {}, "Work limit (states) ", limitBox),
    el("label", {}, exactBox, " Show exact fractions"),
    el("button", { type: "button", class: "eo-copy-link", onclick: copyLink }, "Copy link"));

  // a roster (BattleScribe / New Recruit): imported by Python as `exactodds import` does;
  // its units are offered in the unit pickers of its system's forms, as pasted unit files
  const imported = []; // {uid, system, name, file, points, text, roster}
  let importedCount = 0;
  const rosterFile = el("input", { type: "file", accept: ".ros,.rosz", class: "eo-roster-file", "aria-label": "Roster file" });
  const rosterText = el("textarea", { class: "eo-roster-text", rows: "3", spellcheck: "false", "aria-label": "Roster text",
    placeholder: "…or paste a roster's text (.ros: XML) here" });
  const rosterDrop = el("div", { class: "eo-drop" }, "Drop a .ros or .rosz file here, or choose one: ", rosterFile);
  const rosterOut = el("div", { class: "eo-roster-out", role: "status" });
  const rosterBox = el("details", { class: "eo-roster" },
    el("summary", {}, "Import a roster (.ros, .rosz)"), rosterDrop, rosterText,
    el("button", { type: "button", class: "eo-roster-import", onclick: () => importRoster({ name: "pasted.ros", text: rosterText.value }) },
      "Import the pasted roster"), rosterOut);
  rosterFile.addEventListener("change", () => { if (rosterFile.files[0]) readRoster(rosterFile.files[0]); });
  rosterDrop.addEventListener("dragover", (e) => { e.preventDefault(); rosterDrop.classList.add("eo-over"); });
  rosterDrop.addEventListener("dragleave", () => rosterDrop.classList.remove("eo-over"));
  rosterDrop.addEventListener("drop", (e) => {
    e.preventDefault();
    rosterDrop.classList.remove("eo-over");
    if (e.dataTransfer.files[0]) readRoster(e.dataTransfer.files[0]);
  });
  toolbar.append(rosterBox); // one line of the toolbar until opened
  root.replaceChildren(el("div", { class: "eo-status-line" }, status, cancelButton), toolbar, panelsBox, compareView, shareOut);
  exactBox.addEventListener("change", () => {
    showExact = exactBox.checked;
    api.panels.forEach((p) => p.render());
    drawCompare();
  });
  compareBox.addEventListener("change", () => {
    if (compareBox.checked && api.panels.length < 2) {
      const q = api.panels[0].question();
      addPanel(q).answer();
    } else if (!compareBox.checked && api.panels.length > 1) {
      api.panels.pop().box.remove();
    }
    drawCompare();
    updateHash();
  });
  limitBox.addEventListener("change", () => api.panels.forEach((p) => p.answer()));

  function readRoster(file) {
    file.arrayBuffer().then((buffer) => {
      const bytes = new Uint8Array(buffer);
      let bin = "";
      for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
      importRoster({ name: file.name, base64: btoa(bin) });
    });
  }

  function importRoster(request) {
    rosterOut.replaceChildren("Importing " + request.name + "…");
    return ask(request, "roster").then(({ res }) => {
      showRoster(res);
      if (!py.pending.size) setStatus("Ready.", false);
      return res;
    });
  }

  function showRoster(res) {
    if (!res.ok) {
      rosterOut.replaceChildren(el("div", { class: "eo-message eo-error eo-roster-error", role: "alert" }, res.message));
      return;
    }
    for (let i = imported.length - 1; i >= 0; i--) if (imported[i].roster === res.roster) imported.splice(i, 1);
    for (const u of res.units) imported.push({ ...u, uid: "r" + (++importedCount), roster: res.roster });
    const mine = imported.filter((u) => u.roster === res.roster);
    rosterOut.replaceChildren(
      el("p", {}, `${res.roster}: ${mine.length} unit${mine.length === 1 ? "" : "s"} imported, offered in the unit pickers of the ${res.system} forms:`),
      el("ul", { class: "eo-roster-units" }, mine.map((u) => el("li", { "data-uid": u.uid }, `${u.name} (${u.points} points)`))),
      el("p", { class: "eo-help" }, "A scenario pasted on the scenario form names them by their file: ",
        el("code", {}, `file = "${mine.length ? mine[0].file : "UNIT.toml"}"`), "."),
      res.warnings.length ? el("details", { class: "eo-roster-warnings" },
        el("summary", {}, `${res.warnings.length} warning${res.warnings.length === 1 ? "" : "s"}: what could not be mapped (kept as comments in the unit files)`),
        el("ul", {}, res.warnings.map((w) => el("li", {}, w)))) : "");
    api.panels.forEach((p) => Object.values(p.fields).forEach((f) => { if (f.spec.input === "file") f.refreshImported(); }));
  }
  api.importRoster = importRoster;

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
      this.atLeastView = false;
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
      this.allRows = false; // a new question starts with its most probable rows
      this.updateConditions();
    }

    // fields that only matter with a rule, or with a kind of target, show only then (a
    // hidden field is not asked)
    updateConditions() {
      const rules = this.fields.rules ? this.fields.rules.items.map((n) => n.value) : null;
      const has = (...names) => rules === null || names.some((r) => rules.includes(r));
      const target = this.fields.target, defender = this.fields.defender;
      for (const [name, field] of Object.entries(this.fields)) {
        let show = true;
        if (name === "firers" || name.startsWith("firer_")) show = has("gets-hot");
        else if (name === "moved" && rules !== null) show = has("heavy", "salvo");
        else if (name === "facing" && target && target.spec.input === "file") show = target.isVehicle();
        else if (name === "vehicle_moved" && defender && defender.spec.input === "file") show = defender.isVehicle();
        field.box.hidden = !show;
      }
    }

    question() {
      this.updateConditions();
      const values = {}, files = {};
      for (const [name, field] of Object.entries(this.fields)) {
        if (field.box.hidden) continue;
        const v = field.shared();
        if (v.file) files[name] = v.file;
        else if (v.value !== undefined) values[name] = v.value;
      }
      return { id: this.command.id, values, files };
    }

    request() {
      this.updateConditions();
      const params = {}, files = {};
      for (const [name, field] of Object.entries(this.fields)) {
        if (field.box.hidden) continue;
        const r = field.request();
        if (r.file) files[r.file.path] = r.file.text;
        if (r.value !== undefined) params[name] = r.value;
      }
      const c = this.command;
      // a pasted scenario may name the units of imported rosters: they are written beside it
      if (c.id === "scenario" && Object.keys(files).length) for (const u of imported) files["pasted/" + u.file] = u.text;
      const req = { system: c.system, command: c.command, params, files };
      if (limitBox.value.trim()) req.max_states = limitBox.value.trim();
      return req;
    }

    answer() {
      updateHash();
      const req = this.request();
      const token = (this.token = (this.token || 0) + 1);
      this.box.classList.add("eo-busy");
      return ask(req).then(({ res, ms, parse }) => {
        if (token !== this.token) return res; // a newer question on this form was asked meanwhile
        api.timings.answers.push(ms);
        if (api.timings.firstAnswer === null) api.timings.firstAnswer = performance.now() - api.timings.start;
        this.box.classList.remove("eo-busy");
        const t = performance.now();
        this.show(res, ms);
        drawCompare();
        api.timings.drawn.push({ id: res.id || null, python: Math.round(ms), parse: Math.round(parse || 0), draw: Math.round(performance.now() - t) });
        if (!py.pending.size) {
          setStatus(res.error === "cancelled" ? "Cancelled." :
            `Ready (answered in ${ms < 1000 ? Math.round(ms) + " ms" : (ms / 1000).toFixed(1) + " s"}).`, false);
        }
        return res;
      });
    }

    show(res, ms) {
      for (const f of Object.values(this.fields)) f.setError(null);
      this.message.textContent = "";
      this.message.className = "eo-message";
      if (!res.ok) {
        this.last = null;
        this.result.replaceChildren();
        // the work limit is this page's box (the command line's advice names its option)
        this.message.textContent = res.error === "too_large"
          ? res.message.replace(/;\s*raise it with .*$/, "; raise the Work limit box above if your device has the memory and time") : res.message;
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
      if (res.mean_text !== null) {
        const mean = V.figureNode(res.mean_text, showExact);
        mean.classList.add("eo-mean");
        mean.dataset.exact = res.mean;
        figs.append(el("dt", {}, "mean"), el("dd", {}, mean));
      }
      const covered = new Set(res.units && res.units.length ? res.covered : []); // shown in the unit blocks
      for (const [name, text] of res.extras.filter(([n]) => !covered.has(n))) figs.append(el("dt", {}, name.replace(/_/g, " ")), el("dd", { "data-name": name }, V.figureNode(text, showExact)));
      parts.push(figs);
      if (res.numeric) {
        const kValue = this.k !== undefined && this.k !== "" ? this.k : String(Math.round(res.mean_float || 0));
        const k = el("input", { type: "number", class: "eo-k", "aria-label": "k", value: kValue });
        const out = el("span", { class: "eo-at-least" });
        const upd = () => {
          if (k.value !== kValue) this.k = k.value;
          const v = atLeast(res.rows, Number(k.value));
          out.replaceChildren(V.num(v.exact, v.dec, showExact));
          out.dataset.exact = v.exact;
        };
        k.addEventListener("input", upd);
        upd();
        parts.push(el("div", { class: "eo-pk" }, "P(X ≥ ", k, ") = ", out));
      }
      if (res.units && res.units.length) { // each unit's block, as the command line prints it
        parts.push(el("div", { class: "eo-units" }, res.units.map((b) =>
          el("pre", { class: "eo-unit-block", "data-unit": b.unit }, b.lines.join("\n")))));
      }
      if (res.marginals && res.marginals.length) {
        // drawn in a task of their own, after the figures: no single task draws it all
        const later = el("div", { class: "eo-composite" });
        parts.push(later);
        setTimeout(() => {
          if (this.last !== res) return;
          later.append(el("h4", { class: "eo-sub" }, "Each part of the outcome"), V.marginals(res, showExact),
            el("h4", { class: "eo-sub" }, "The most probable outcomes"),
            V.table(res, { all: this.allRows, top: 10, showExact, toggle: () => { this.allRows = !this.allRows; this.render(); } }));
        }, 0);
      } else {
        const toggle = el("label", { class: "eo-cum-toggle" },
          el("input", { type: "checkbox", class: "eo-at-least-view", checked: this.atLeastView || null,
            onchange: (e) => { this.atLeastView = e.target.checked; this.render(); } }), " at least (P(X ≥ x))");
        let rows = res.rows;
        if (rows.length > 60) rows = res.window.map((i) => res.rows[i]);
        parts.push(el("div", { class: "eo-chart-head" }, res.numeric ? toggle : null),
          V.chart(rows, { atLeast: this.atLeastView && res.numeric, numeric: res.numeric }));
        parts.push(V.table(res, { all: this.allRows, showExact, toggle: () => { this.allRows = !this.allRows; this.render(); } }));
      }
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
    if (!Number.isFinite(k)) return { dec: "", exact: "" };
    for (const r of rows) {
      if (r.outcome >= k) return { dec: r.at_least_decimal, exact: r.at_least };
    }
    return { dec: "0", exact: "0" };
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
      this.rosterGroup = null;
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
        if (path) {
          fetch(new URL(path, base)).then((r) => r.text()).then((t) => {
            this.lastExampleText = t;
            if (this.panel.fields) this.panel.updateConditions();
          });
        }
      };
      remember(this.fileSelect.value !== "__paste__" ? this.fileSelect.value : null);
      this.refreshImported();
      this.fileSelect.addEventListener("change", () => {
        const unit = this.importedUnit();
        if (unit) { // a unit of an imported roster: as if its unit file were pasted
          this.text.value = unit.text;
          this.text.hidden = true;
          this.lastExampleText = unit.text;
          this.panel.updateConditions();
          this.panel.answer();
        } else if (this.fileSelect.value === "__paste__") {
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
      return this.spec.input === "file" && (this.fileSelect.value === "__paste__" || !!this.importedUnit());
    }

    importedUnit() {
      const m = /^__roster__:(.+)$/.exec(this.fileSelect.value);
      return m ? imported.find((u) => u.uid === m[1]) || null : null;
    }

    // the units of imported rosters for this form's system, before "Paste or edit TOML…"
    refreshImported() {
      const keep = this.fileSelect.value;
      const units = imported.filter((u) => u.system === this.panel.command.system);
      if (this.rosterGroup) this.rosterGroup.remove();
      this.rosterGroup = null;
      if (units.length) {
        this.rosterGroup = el("optgroup", { label: "Imported from a roster" },
          units.map((u) => el("option", { value: "__roster__:" + u.uid }, `${u.name} (${u.points} pts, ${u.roster})`)));
        this.fileSelect.insertBefore(this.rosterGroup, this.fileSelect.lastElementChild);
      }
      if ([...this.fileSelect.options].some((o) => o.value === keep)) this.fileSelect.value = keep;
      else { // its roster was imported again: keep the unit file it gave, as pasted
        this.fileSelect.value = "__paste__";
        this.text.hidden = false;
      }
    }

    // a vehicle's unit file (Armour Values and Hull Points), pasted or chosen
    isVehicle() {
      const text = this.pasted() ? this.text.value : this.lastExampleText || "";
      return /^\s*hull_points\s*=/m.test(text);
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

  // ------------------------------------------------------------- start up
  async function start() {
    setStatus("Loading the forms…", true);
    manifest = await (await fetch(new URL("manifest.json", base))).json();
    for (const c of manifest.forms.commands) commands[c.id] = c;
    const shared = fromHash();
    (shared && shared.length ? shared : [DEFAULT_QUESTION]).forEach((q) => addPanel(q));
    compareBox.checked = api.panels.length > 1;
    setStatus(`Starting Python (Pyodide ${manifest.pyodide}, about 18 MB the first time)…`, true);
    await py.ready;
    setStatus("Ready.", false);
    await Promise.all(api.panels.map((p) => p.answer()));
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
