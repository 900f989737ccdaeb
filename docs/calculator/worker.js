// The calculator's Python: Pyodide and exactodds run in this Web Worker, so the page
// itself only draws. Messages in: {type: "start", base, manifest} once, then
// {type: "run", id, request, entry} (entry "roster": a roster to import, answered by
// exactodds.webrosters.import_roster_json; else a question, by exactodds.webform.run_json).
// Messages out: {type: "status", text}, {type: "ready", timings}, {type: "answer", id,
// text, ms} (text: the JSON Python answered) and {type: "failed", message}.
//
// Start-up does its slow parts at the same time: the Pyodide runtime is compiled
// while the memory snapshot (Python started, exactodds.webform imported: made by
// docs/build_calculator.py), exactodds's wheel and the example files download; the
// wheels are unpacked into site-packages as files (no micropip, no package index) for
// the modules imported later; sympy, mpmath and click are left out of start-up (only
// exactodds.symbolic uses them) and are unpacked after it.
"use strict";

let runJson = null;
let instance = null; // the Pyodide instance (the page's browser test clears exactodds's caches through it)
let importRosterJson = null;
let started = null;
const t0 = performance.now();
const timings = {};

function mark(name) {
  timings[name] = Math.round(performance.now() - t0);
}

async function bytes(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

async function start(base) {
  const at = (rel) => new URL(rel, base).href;
  importScripts(at("pyodide/pyodide.js"));
  mark("script");
  const manifest = await (await fetch(at("manifest.json"))).json();
  // all at once: the runtime (from the build's snapshot of Python started with exactodds
  // imported, when there is one: no interpreter start-up), the wheel, the example files
  const config = { indexURL: at("pyodide/") };
  if (manifest.snapshot) {
    config._loadSnapshot = fetch(at(manifest.snapshot)).then((r) => {
      if (!r.ok) throw new Error(`${manifest.snapshot}: HTTP ${r.status}`);
      return new Response(r.body.pipeThrough(new DecompressionStream("gzip"))).arrayBuffer();
    }).then((buffer) => { mark("snapshot"); return new Uint8Array(buffer); });
  }
  const runtime = loadPyodide(config)
    .catch(() => loadPyodide({ indexURL: at("pyodide/") })) // no snapshot: Python starts afresh
    .then((py) => { mark("runtime"); return py; });
  const eager = manifest.wheels.filter((w) => w.eager);
  const files = Object.values(manifest.examples).flat();
  const wheels = Promise.all(eager.map((w) => bytes(at("wheels/" + w.file))));
  const examples = Promise.all(files.map(async (rel) => [rel, await bytes(at(rel))]));
  const pyodide = (instance = await runtime);
  postMessage({ type: "status", text: "Loading exactodds…" });
  const site = pyodide.runPython("import sysconfig; sysconfig.get_paths()['purelib']");
  for (const data of await wheels) pyodide.unpackArchive(data, "wheel", { extractDir: site });
  pyodide.FS.mkdirTree("/home/pyodide");
  for (const [rel, data] of await examples) {
    const path = "/home/pyodide/" + rel;
    pyodide.FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
    pyodide.FS.writeFile(path, data);
  }
  pyodide.FS.chdir("/home/pyodide");
  mark("files");
  runJson = pyodide.runPython("import importlib; importlib.invalidate_caches()\n"
    + "from exactodds.webform import run_json\nrun_json");
  importRosterJson = pyodide.runPython("from exactodds.webrosters import import_roster_json\nimport_roster_json");
  mark("imported");
  postMessage({ type: "ready", timings });
  // the other wheels (sympy, mpmath, click), for exactodds.symbolic: after start-up
  setTimeout(() => {
    const lazy = manifest.wheels.filter((w) => !w.eager);
    Promise.all(lazy.map((w) => bytes(at("wheels/" + w.file))))
      .then((all) => all.forEach((data) => pyodide.unpackArchive(data, "wheel", { extractDir: site })))
      .catch(() => {});
  }, 2000);
}

self.onmessage = async (event) => {
  const msg = event.data;
  if (msg.type === "start") {
    started = start(msg.base).catch((e) => {
      postMessage({ type: "failed", message: e && e.message ? e.message : String(e) });
      throw e;
    });
    return;
  }
  if (msg.type === "run") {
    await started;
    const begin = performance.now();
    let text;
    try {
      text = (msg.entry === "roster" ? importRosterJson : runJson)(JSON.stringify(msg.request));
    } catch (e) {
      const line = e && e.message ? e.message.split("\n").filter((x) => x.trim()).slice(-1)[0] : String(e);
      text = JSON.stringify({ ok: false, error: "internal", message: "internal error: " + line, fields: [] });
    }
    if (timings.firstAnswer === undefined && msg.entry !== "roster") mark("firstAnswer");
    postMessage({ type: "answer", id: msg.id, text, ms: performance.now() - begin });
  }
};
