// Build step of the calculator page (run by docs/build_calculator.py with Node.js):
// start Pyodide once, import exactodds's forms and answers, and write the memory of that
// started Python (a Pyodide memory snapshot) to the file named by argv[3], so that the
// page's worker starts from it instead of starting Python afresh (about 0.7 s instead of
// several seconds). argv[2]: the folder of the pyodide npm package; argv[4...]: the
// wheels to unpack into site-packages first (the page unpacks the same ones again, as
// files, before it answers: the snapshot holds memory, not files).
import fs from "fs";
import path from "path";
import { pathToFileURL } from "url";

const [pyodideDir, out, ...wheels] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(path.join(pyodideDir, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: pyodideDir + "/", _makeSnapshot: true, env: { HOME: "/home/pyodide" } });
const site = pyodide.runPython("import sysconfig; sysconfig.get_paths()['purelib']");
for (const wheel of wheels) pyodide.unpackArchive(new Uint8Array(fs.readFileSync(wheel)), "wheel", { extractDir: site });
pyodide.runPython("import exactodds.webform");
fs.writeFileSync(out, pyodide.makeMemorySnapshot());
