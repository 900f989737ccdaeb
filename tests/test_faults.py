"""Faults around a run: a full disk, a killed worker, a lost Dask cluster,
signals to a sweep, two sweeps on one file, a closed pipe, an over-long
message, a huge grid.

Each fault is provoked for real, on the command run in a subprocess with a
timeout (a regression fails instead of hanging). The contract
(docs/errors.md, "Faults around a run"): one line on standard error naming
what happened and exit 2 (a signal: 128 + its number), never a traceback;
a stopped sweep keeps its finished rows, and running the same command again
resumes to the file an uninterrupted sweep writes, byte for byte.
"""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

EXACTODDS = [sys.executable, "-m", "exactodds"]
HUNG = 300
"""Seconds after which a wait for an event (a first row, an exit) fails: only a hung run
takes that long. No test here depends on how fast, or how busy, the machine is: each waits
for the event itself."""

FAST_GRID = """[base]
system = "pool"
[vary]
n = {from = 1, to = 150}
hit = ["2+", "3+", "4+", "5+", "6+"]
[report]
mean = true
at_least = [5]
"""
"""750 quick rows (about 0.5 s): enough text to fill a small file limit."""

SLOW_GRID = """[base]
system = "pool"
[vary]
n = {from = 200, to = 330}
hit = ["3+", "4+"]
reroll_up_to = [50, 100]
[report]
mean = true
at_least = [5]
"""
"""524 rows of a few milliseconds to a few tens each (about 5 s on two workers): a sweep to interrupt."""

QUERY = """system = "pool"
[params]
n = 3
hit = "4+"
"""


def _file_limit(limit: int) -> Callable[[], None]:
    def limit_files() -> None:  # in the child, before exec: writes past `limit` bytes fail with EFBIG
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return limit_files


def run(args: list[str], cwd: Path, limit: int | None = None, stdout: object = subprocess.PIPE,
        timeout: float = HUNG) -> subprocess.CompletedProcess:
    return subprocess.run([*EXACTODDS, *args], cwd=cwd, stdout=stdout, stderr=subprocess.PIPE, text=True,
                          timeout=timeout, preexec_fn=None if limit is None else _file_limit(limit))


def start(args: list[str], cwd: Path) -> subprocess.Popen:
    return subprocess.Popen([*EXACTODDS, *args], cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True)


def one_line(stderr: str) -> str:
    lines = stderr.splitlines()
    assert len(lines) == 1 and "Traceback" not in stderr, stderr[-3000:]
    return lines[0]


def write(folder: Path, name: str, text: str) -> Path:
    (folder / name).write_text(text, encoding="utf-8")
    return folder / name


def children(pid: int) -> list[int]:
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except FileNotFoundError:
        return []


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (FileNotFoundError, ProcessLookupError):
        return False


def wait_for_rows(path: Path, rows: int, process: subprocess.Popen, seconds: float = HUNG) -> None:
    """Wait until ``path`` holds ``rows`` rows besides its header (the sweep is under way)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if path.exists() and path.read_bytes().count(b"\n") > rows:
            return
        assert process.poll() is None, f"the sweep ended early: {process.stderr.read() if process.stderr else ''}"
        time.sleep(0.02)
    raise AssertionError(f"no {rows} rows in {path} after {seconds} s")


@contextmanager
def sweep_under_way(folder: Path, out: Path, rows: int = 20) -> Iterator[tuple[subprocess.Popen, list[int]]]:
    """A sweep of the slow grid into ``out``, once it has written ``rows`` rows: the
    process and its two workers (killed on the way out, whatever happened)."""
    p = start(["sweep", "slow.toml", "--out", str(out)], folder)
    try:
        wait_for_rows(out, rows, p)
        workers = children(p.pid)
        assert len(workers) == 2
        yield p, workers
    finally:
        p.kill()
        p.wait(timeout=HUNG)


def gone(workers: list[int], seconds: float) -> bool:
    """Whether every one of ``workers`` has exited within ``seconds``."""
    deadline = time.monotonic() + seconds
    while any(alive(w) for w in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    return not any(alive(w) for w in workers)


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with the grids and the files an uninterrupted sweep writes."""
    d = tmp_path_factory.mktemp("faults")
    write(d, "fast.toml", FAST_GRID)
    write(d, "slow.toml", SLOW_GRID)
    write(d, "q.toml", QUERY)
    for grid, out in (("fast.toml", "fast-full.csv"), ("slow.toml", "slow-full.csv")):
        r = run(["sweep", grid, "--out", out], d)
        assert r.returncode == 0, r.stderr
    return d


def resumes_identically(folder: Path, grid: str, out: Path, full: str) -> None:
    r = run(["sweep", grid, "--out", str(out)], folder)
    assert r.returncode == 0, r.stderr
    assert "rows resumed" in r.stderr
    assert out.read_bytes() == (folder / full).read_bytes()


# ------------------------------------------------------------------ a full disk
@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_a_full_disk_stops_a_sweep_in_one_line_and_it_resumes(folder: Path, tmp_path: Path, suffix: str) -> None:
    if suffix == ".parquet":
        pytest.importorskip("pyarrow.parquet", reason="pyarrow is not installed (Parquet output is optional)")
    out = tmp_path / f"rows{suffix}"
    r = run(["sweep", "fast.toml", "--out", str(out)], folder, limit=4000)
    assert r.returncode == 2
    line = one_line(r.stderr)
    assert line.startswith(f"Error: sweep stopped: cannot write {out}: the file is too large")
    assert f"the finished rows are kept in {out}: run the same command again to resume" in line
    if suffix == ".csv":
        again = run(["sweep", "fast.toml", "--out", str(out)], folder)
        assert again.returncode == 0 and out.read_bytes() == (folder / "fast-full.csv").read_bytes()
    else:
        import pyarrow.parquet as pq

        assert not out.exists() and (tmp_path / "rows.parquet.partial.csv").stat().st_size == 4000
        again = run(["sweep", "fast.toml", "--out", str(out)], folder)
        assert again.returncode == 0, again.stderr
        full = run(["sweep", "fast.toml", "--out", str(tmp_path / "full.parquet")], folder)
        assert full.returncode == 0
        assert pq.read_table(out).to_pylist() == pq.read_table(tmp_path / "full.parquet").to_pylist()
        assert out.read_bytes() == (tmp_path / "full.parquet").read_bytes()


def test_a_full_disk_under_sample_out_is_one_line(folder: Path, tmp_path: Path) -> None:
    r = run(["sample", "q.toml", "-n", "100000", "--out", str(tmp_path / "s.csv")], folder, limit=3000)
    assert r.returncode == 2
    assert one_line(r.stderr) == f"Error: {tmp_path / 's.csv'}: cannot write the file (File too large)"


@pytest.mark.parametrize("args", [["sample", "q.toml", "-n", "100000"], ["sweep", "fast.toml"],
                                  ["pool", "300", "--hit", "4+", "--all"]], ids=["sample", "sweep", "pool"])
def test_a_full_disk_under_standard_output_is_one_line(folder: Path, tmp_path: Path, args: list[str]) -> None:
    with open(tmp_path / "out.txt", "w") as f:
        r = run(args, folder, limit=3000, stdout=f)
    assert r.returncode == 2
    line = one_line(r.stderr)
    assert "cannot write standard output: the file is too large (over the file size limit)" in line
    assert (tmp_path / "out.txt").stat().st_size == 3000


# ------------------------------------------------------------------ a lost worker, a lost cluster
def test_a_killed_worker_stops_the_sweep_in_one_line_and_it_resumes(folder: Path, tmp_path: Path) -> None:
    out = tmp_path / "rows.csv"
    with sweep_under_way(folder, out) as (p, workers):
        os.kill(workers[0], signal.SIGKILL)
        _, err = p.communicate(timeout=HUNG)
    assert p.returncode == 2
    assert one_line(err) == ("Error: sweep stopped: a worker process died (killed, or out of memory); the finished "
                             f"rows are kept in {out}: run the same command again to resume")
    resumes_identically(folder, "slow.toml", out, "slow-full.csv")


LOSE_CLUSTER = """
import sys, threading, time
from pathlib import Path
from typing import Any
import distributed
from exactodds.sweep import engines, run_sweep

grid, out, lost = sys.argv[1], Path(sys.argv[2]), sys.argv[3]
engines.NO_WORKER_SECONDS = 2.0
cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, protocol="tcp",
                                   host="127.0.0.1", dashboard_address=None)
client = distributed.Client(cluster)

def lose():
    while not (out.exists() and out.read_bytes().count(b"\\n") > 20):
        time.sleep(0.02)
    if lost == "workers":
        cluster.scale(0)
    else:
        client.loop.add_callback(cluster.scheduler.close)

threading.Thread(target=lose, daemon=True).start()
began = time.monotonic()
try:
    run_sweep(grid, out, client=client)
    print("finished")
except Exception as e:
    print(f"{type(e).__name__}: {e}")
print(f"{time.monotonic() - began:.1f}")
"""


@pytest.mark.slow  # runs in CI (CI=true); the default run stays short on two cores
@pytest.mark.parametrize("lost", ["workers", "scheduler"])
def test_a_lost_dask_cluster_stops_the_sweep_and_it_resumes(folder: Path, tmp_path: Path, lost: str) -> None:
    """An in-process LocalCluster (in a subprocess) loses its workers or its scheduler mid-sweep."""
    pytest.importorskip("distributed", reason="dask.distributed is not installed")
    out = tmp_path / "rows.csv"
    r = subprocess.run([sys.executable, "-c", LOSE_CLUSTER, str(folder / "slow.toml"), str(out), lost],
                       capture_output=True, text=True, timeout=HUNG)
    assert r.returncode == 0, r.stderr[-3000:]
    message, seconds = r.stdout.splitlines()[-2:]
    wanted = ("the Dask cluster has no worker left (no progress for 2 s)" if lost == "workers"
              else "lost the Dask scheduler or its workers (")
    assert message.startswith(f"InputError: sweep stopped: {wanted}"), r.stdout
    assert message.endswith(f"the finished rows are kept in {out}: run the same command again to resume")
    assert float(seconds) < HUNG  # stopped rather than hung; measured: 3 to 6 s (2 s waiting for a worker)
    resumes_identically(folder, "slow.toml", out, "slow-full.csv")


# ------------------------------------------------------------------ signals
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_a_signal_ends_the_sweep_and_its_workers_and_it_resumes(folder: Path, tmp_path: Path, sig: int) -> None:
    out = tmp_path / "rows.csv"
    with sweep_under_way(folder, out) as (p, workers):
        p.send_signal(sig)
        _, err = p.communicate(timeout=HUNG)
    assert p.returncode == 128 + sig
    assert one_line(err) == (f"Error: sweep stopped by {signal.Signals(sig).name}; the finished rows are kept in "
                             f"{out}: run the same command again to resume")
    assert gone(workers, HUNG)
    assert not (tmp_path / "rows.csv.lock").exists()
    resumes_identically(folder, "slow.toml", out, "slow-full.csv")


@pytest.mark.parametrize("sig", ["TERM", "KILL"])
def test_timeout_around_a_sweep_returns_once_it_fires(folder: Path, tmp_path: Path, sig: str) -> None:
    """`timeout -s TERM ... exactodds sweep ...` (or KILL) with its pipes read to the end
    returns once it fires: no worker is left holding the pipes open.

    timeout fires when the sweep has written its first row, however long that takes on a
    busy machine: SIGALRM to timeout is its own timer going off (GNU timeout treats both alike)."""
    long = write(tmp_path, "long.toml", SLOW_GRID.replace("to = 330", "to = 3000"))  # minutes of work
    out = tmp_path / "rows.csv"
    p = subprocess.Popen(["timeout", "-s", sig, str(HUNG), *EXACTODDS, "sweep", str(long), "--out", str(out)],
                         cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        wait_for_rows(out, 1, p, seconds=HUNG)
        p.send_signal(signal.SIGALRM)
        _, err = p.communicate(timeout=HUNG)  # every pipe read to its end: no worker holds one open
    finally:
        p.kill()
        p.wait(timeout=HUNG)
    # timeout signals its whole process group, itself included with KILL
    assert p.returncode in ((124,) if sig == "TERM" else (128 + 9, -9)), err
    assert out.read_bytes().count(b"\n") > 1


def _send_half_a_result(pipe: Any, parents_end: Any, parent: int) -> None:
    """A worker that takes a task, then sends a length header for 100 bytes that never come, and ends."""
    import struct

    parents_end.close()
    pipe.recv()
    os.write(pipe.fileno(), struct.pack("!i", 100))
    os._exit(1)


def test_an_aborted_pool_stops_though_a_result_was_cut_off(monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker ended while sending its result (a signal to the whole process group)
    leaves half a message in its pipe; the sweep must see a lost worker and stop
    rather than wait for the rest for ever. The cut-off message is made here by hand."""
    import threading

    from exactodds.sweep import engines

    monkeypatch.setattr(engines, "_worker_main", _send_half_a_result)
    engine = engines.ProcessEngine(workers=1)
    seen: list[BaseException] = []

    def sweep() -> None:
        try:
            with engine:
                list(engine.run([object()]))  # type: ignore[list-item]
        except BaseException as e:  # noqa: BLE001
            seen.append(e)

    running = threading.Thread(target=sweep, daemon=True)
    running.start()
    running.join(HUNG)
    assert not running.is_alive()
    assert [type(e).__name__ for e in seen] == ["EngineLost"]
    assert str(seen[0]) == "a worker process died (killed, or out of memory)"
    assert not engine._processes


# ------------------------------------------------------------------ two writers
def test_a_second_sweep_writing_the_same_file_is_refused(folder: Path, tmp_path: Path) -> None:
    out = tmp_path / "rows.csv"
    with sweep_under_way(folder, out, rows=5) as (p, _):
        second = run(["sweep", "slow.toml", "--out", str(out)], folder, timeout=HUNG)
        assert p.poll() is None
        p.send_signal(signal.SIGTERM)
        p.communicate(timeout=HUNG)
    assert second.returncode == 2
    assert one_line(second.stderr) == (f"Error: {out}: another sweep is writing this file now (it holds "
                                       f"{out}.lock); wait for it to finish, or choose another --out")
    resumes_identically(folder, "slow.toml", out, "slow-full.csv")


def test_a_killed_sweep_leaves_no_worker_and_releases_its_lock(folder: Path, tmp_path: Path) -> None:
    """SIGKILL to the sweep alone (not its process group): its orphaned workers notice and exit."""
    out = tmp_path / "rows.csv"
    with sweep_under_way(folder, out, rows=5) as (p, workers):
        p.kill()
        p.wait(timeout=HUNG)
        assert gone(workers, HUNG)  # measured: 0.5 to 2.2 s (a watchdog checks every 0.5 s)
    assert (tmp_path / "rows.csv.lock").exists()  # left behind, but no longer locked
    resumes_identically(folder, "slow.toml", out, "slow-full.csv")
    assert not (tmp_path / "rows.csv.lock").exists()


def test_a_lock_left_by_a_killed_sweep_is_taken_though_its_workers_live(folder: Path, tmp_path: Path) -> None:
    """SIGKILL to the sweep while its workers are stopped (so surely alive): the next
    sweep takes the lock at once, since the workers never held it."""
    out = tmp_path / "rows.csv"
    with sweep_under_way(folder, out, rows=5) as (p, workers):
        for w in workers:
            os.kill(w, signal.SIGSTOP)
        try:
            p.kill()
            p.wait(timeout=HUNG)
            assert all(alive(w) for w in workers) and (tmp_path / "rows.csv.lock").exists()
            taken = run(["sweep", "fast.toml", "--out", str(tmp_path / "other.csv")], folder)
            assert taken.returncode == 0, taken.stderr
            resumes_identically(folder, "slow.toml", out, "slow-full.csv")
        finally:
            for w in workers:
                os.kill(w, signal.SIGKILL)
                os.kill(w, signal.SIGCONT)
    assert not (tmp_path / "rows.csv.lock").exists()


HOLD_LOCK = """
import fcntl, os, sys
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o644)
fcntl.flock(fd, fcntl.LOCK_EX)
os.write(fd, sys.argv[2].encode())
print("ready", flush=True)
sys.stdin.read()
"""


@pytest.mark.parametrize("owner", ["live", "gone"])
def test_a_held_lock_is_refused_only_while_its_owner_lives(tmp_path: Path, owner: str) -> None:
    """A lock still held (by a worker that outlived its sweep) naming a process that is
    gone is stale and taken over; one naming a live process is refused."""
    from exactodds import InputError
    from exactodds.sweep.output import OutputLock

    out = tmp_path / "rows.csv"
    ended = subprocess.Popen(["true"])
    ended.wait()  # its process id is now gone
    named = f"{os.getpid()} -\n" if owner == "live" else f"{ended.pid} 1\n"
    holder = subprocess.Popen([sys.executable, "-c", HOLD_LOCK, f"{out}.lock", named], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "ready\n"
        if owner == "live":
            with pytest.raises(InputError) as e:
                OutputLock(out)
            assert str(e.value) == (f"{out}: another sweep is writing this file now (it holds {out}.lock); "
                                    "wait for it to finish, or choose another --out")
            assert (tmp_path / "rows.csv.lock").read_text() == named
        else:
            lock = OutputLock(out)
            assert (tmp_path / "rows.csv.lock").read_text().split()[0] == str(os.getpid())
            lock.release()
            assert not (tmp_path / "rows.csv.lock").exists()
    finally:
        holder.communicate("", timeout=HUNG)


def test_ctrl_c_stops_the_sweep_at_the_engines_poll_and_it_resumes(folder: Path, tmp_path: Path) -> None:
    out = tmp_path / "rows.csv"
    with sweep_under_way(folder, out) as (p, workers):
        p.send_signal(signal.SIGINT)
        _, err = p.communicate(timeout=HUNG)
    assert p.returncode == 128 + signal.SIGINT
    assert err.splitlines() == [f"sweep stopped; the finished rows are kept in {out}: run the same command "
                                "again to resume", "Aborted."], err
    assert gone(workers, HUNG)
    assert not (tmp_path / "rows.csv.lock").exists()
    resumes_identically(folder, "slow.toml", out, "slow-full.csv")


# ------------------------------------------------------------------ a closed pipe
@pytest.mark.parametrize("args", [["sample", "q.toml", "-n", "1000000"], ["sweep", "fast.toml"],
                                  ["pool", "400", "--hit", "4+", "--all"]], ids=["sample", "sweep", "pool"])
def test_a_closed_pipe_ends_quietly(folder: Path, args: list[str]) -> None:
    p = subprocess.Popen([*EXACTODDS, *args], cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert p.stdout is not None and p.stderr is not None
        first = [p.stdout.readline(), p.stdout.readline()]
        p.stdout.close()  # as `| head -2` does
        err = p.stderr.read()
        p.wait(timeout=HUNG)
    finally:
        p.kill()
    assert all(first) and p.returncode in (0, 141) and err == b""


# ------------------------------------------------------------------ an over-long message
def test_an_over_long_error_line_is_cut(tmp_path: Path) -> None:
    query = write(tmp_path, "long.toml", "system = [" + ", ".join(["1"] * 200_000) + "]\n")
    r = run(["run", str(query)], tmp_path)
    assert r.returncode == 2
    line = one_line(r.stderr)
    assert len(line) <= 520
    assert line.startswith(f"Error: {query}: system = [1, 1, 1")
    assert "characters cut)..." in line and line.endswith("1, 1]: expected text")


def test_cutting_keeps_the_start_and_the_end() -> None:
    from exactodds.cli.common import MAX_LINE, _one_line

    text = "start " + "ab " * 10_000 + "end"
    line = _one_line(text)
    assert len(line) <= MAX_LINE + 40 and line.startswith("start ab") and line.endswith("ab end")
    assert f"...({len(text) - (MAX_LINE - 200) - 150:,} characters cut)..." in line
    assert _one_line("short  message\n") == "short message"


# ------------------------------------------------------------------ a huge grid
def test_a_million_point_grid_writes_rows_at_once_in_bounded_memory(tmp_path: Path) -> None:
    grid = write(tmp_path, "huge.toml", """[base]
system = "pool"
[vary]
n = {from = 1, to = 1000}
sides = {from = 2, to = 1000}
hit = ["2+"]
[report]
mean = true
""")
    out = tmp_path / "rows.csv"
    p = start(["sweep", str(grid), "--out", str(out)], tmp_path)
    try:
        wait_for_rows(out, 1, p)
        first = _cpu_seconds(p.pid)  # the sweep's own work before its first row, whatever the load
        wait_for_rows(out, 2000, p)
        rss = {pid: _rss_mb(pid) for pid in [p.pid, *children(p.pid)]}
        p.send_signal(signal.SIGTERM)
        p.communicate(timeout=HUNG)
    finally:
        p.kill()
    assert first < 15  # CPU seconds; measured: under 1 s (expanding the grid first took 280 s)
    assert rss[p.pid] < 200, rss  # measured: 26 MB for the sweep, 130 MB per worker
    assert all(v < 600 for v in rss.values()), rss
    assert out.read_bytes().count(b"\n") > 1000


def _cpu_seconds(pid: int) -> float:
    """The processor time ``pid`` has used (user + system): unlike the time on the clock,
    it does not grow when other programs share the machine."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _rss_mb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) // 1024
    return 0


def test_the_answer_cache_is_bounded_by_size() -> None:
    from exactodds.commands import Query
    from exactodds.sweep import AnswerCache
    from exactodds.sweep.cache import answer_units

    def query(n: int) -> Query:
        return Query("pool", None, {"n": n, "hit": "4+"})

    big = query(2000).answer()
    # 2,001 outcomes with weights over the denominator 2^2000 (2,001 bits: two units each), plus one
    assert answer_units(big) == 2001 * 2 + 1
    cache = AnswerCache(maxsize=1000, max_units=10_000)
    for n in range(1900, 1905):
        cache.answer(query(n))
    info = cache.info()
    assert info.units <= 10_000 and info.size == 2 and info.misses == 5  # each about 3,800 units: two fit
    assert cache.answer(query(1904)) is not None and cache.info().hits == 1
    cache.answer(query(1900))  # evicted: computed again
    assert cache.info().misses == 6
    whole = AnswerCache(maxsize=1000, max_units=100)
    whole.answer(query(2000))  # larger than the whole budget: answered, not kept
    assert whole.info().size == 0 and whole.info().units == 0
    for n in range(1, 30):
        whole.answer(query(n))
    assert whole.info().units <= 100 and 0 < whole.info().size < 29
