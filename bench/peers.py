"""The peers' environment: a private virtual environment with icepool and dyce.

Peers are benchmark-only dependencies, never runtime ones: they live in
``bench/.venv-peers`` (git-ignored), created on first use with the newest
Python 3.12+ found (icepool 2.2 needs >= 3.12), falling back to the running
interpreter; ``pip install icepool dyce`` then takes the newest versions that
install on it. A library that does not install is reported and left out.
The peer cases run in a subprocess of that environment (``peer_impl.py``)
and send back times and exact answers as JSON.
"""

from __future__ import annotations

import glob
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent
VENV = BENCH / ".venv-peers"
PEER_LIBS = ("icepool", "dyce")


def _version_of(python: str) -> tuple[int, int] | None:
    try:
        out = subprocess.run([python, "-c", "import sys; print(*sys.version_info[:2])"],
                             capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if out.returncode:
        return None
    major, minor = out.stdout.split()
    return int(major), int(minor)


def candidate_pythons() -> list[str]:
    """Interpreters to try, newest first: python3.13/3.12 on PATH, pyenv's, then this one."""
    names = [shutil.which(f"python3.{m}") for m in (14, 13, 12)]
    home = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv"))
    names += sorted(glob.glob(str(home / "versions" / "3.1[2-9]*" / "bin" / "python3")), reverse=True)
    found = []
    for p in names:
        if p and p not in found and (v := _version_of(p)) and v >= (3, 12):
            found.append(p)
    return found + [sys.executable]


def venv_python() -> Path:
    """The peers' interpreter (whether or not it exists yet)."""
    return VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def installed_versions() -> dict:
    """{"python": ..., "icepool": ..., "dyce": ...} of the peers' environment ({} if none)."""
    py = venv_python()
    if not py.exists():
        return {}
    code = ("import json, sys\nout = {'python': sys.version.split()[0]}\n"
            "for m in ('icepool', 'dyce'):\n"
            "    try: out[m] = __import__(m).__version__\n"
            "    except Exception: pass\nprint(json.dumps(out))")
    res = subprocess.run([str(py), "-c", code], capture_output=True, text=True)
    return json.loads(res.stdout) if res.returncode == 0 else {}


def ensure_env(log=print) -> dict:  # noqa: ANN001
    """Create the peers' environment if needed; return its versions.

    Tries each candidate interpreter (newest first) until one gets at least
    one peer library installed. Never touches the project's environment.
    """
    have = installed_versions()
    if all(lib in have for lib in PEER_LIBS):
        return have
    for python in candidate_pythons():
        if VENV.exists():
            shutil.rmtree(VENV)
        log(f"creating the peers' environment {VENV} with {python}")
        if subprocess.run([python, "-m", "venv", str(VENV)]).returncode:
            continue
        for lib in PEER_LIBS:  # one at a time: one failing must not block the other
            res = subprocess.run([str(venv_python()), "-m", "pip", "install", "-q", "--upgrade", lib],
                                 capture_output=True, text=True)
            if res.returncode:
                log(f"  {lib} does not install on {python}: {res.stderr.strip().splitlines()[-1:]}")
        have = installed_versions()
        if any(lib in have for lib in PEER_LIBS):
            return have
    log("no peer library could be installed: exactodds runs alone")
    return {}


def run_peers(jobs: list[dict], quick: bool = False) -> dict:
    """Run the peer cases in the peers' environment; their results as a dict."""
    req = json.dumps({"jobs": jobs, "quick": quick})
    res = subprocess.run([str(venv_python()), str(BENCH / "peer_impl.py")], input=req,
                         stdout=subprocess.PIPE, stderr=None, text=True)
    if res.returncode:
        raise RuntimeError(f"the peer runner failed (exit {res.returncode})")
    return json.loads(res.stdout)


def fresh_process_times(argv: list[str], repeats: int = 7) -> dict:
    """Wall time of a whole fresh process (``argv``), ``repeats`` times: min and median."""
    import statistics
    import time

    # as a user's machine runs it: compiled modules cached (a first run writes them)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run(argv, capture_output=True, text=True, env=env)
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        res = subprocess.run(argv, capture_output=True, text=True, env=env)
        times.append(time.perf_counter() - t0)
        if res.returncode:
            return {"error": (res.stderr or res.stdout).strip().splitlines()[-1:] or ["failed"]}
    return {"min": min(times), "median": statistics.median(times), "repeats": repeats}
