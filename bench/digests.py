"""Exact answers kept as digests: check that a change of the engine leaves
the answers of the benchmark's cases unchanged.

    python bench/digests.py --cases h            # compare with bench/answers.json
    python bench/digests.py --cases h --write    # record them (before a change)

Each case's exact answer (:func:`bench.cases.dist_answer`'s JSON, every
weight and the total, the weights sorted by outcome) is hashed with SHA-256;
the Monte Carlo cases are skipped (their answers are estimates). Exit status
1 when an answer differs from the recorded one.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.append(str(ROOT))  # after PYTHONPATH: another checkout's exactodds may answer

from bench.cases import all_cases  # noqa: E402

RECORD = ROOT / "bench" / "answers.json"


def digest(answer: dict) -> str:
    """SHA-256 of an answer's JSON (keys sorted; a distribution's weights sorted by
    outcome, so that the order in which an engine lists its outcomes, which is
    not part of the answer, does not change the digest)."""
    if isinstance(answer.get("weights"), list):
        answer = {**answer, "weights": sorted(answer["weights"], key=lambda kw: json.dumps(kw[0]))}
    return hashlib.sha256(json.dumps(answer, sort_keys=True).encode()).hexdigest()


def main(argv: list[str] | None = None) -> int:
    """Compute the digests of the chosen cases; compare with (or write) the record."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", default="h", help="comma-separated key prefixes")
    ap.add_argument("--write", action="store_true", help="record these digests")
    args = ap.parse_args(argv)
    prefixes = tuple(p.strip() for p in args.cases.split(",") if p.strip())
    record = json.loads(RECORD.read_text()) if RECORD.exists() else {}
    differ = []
    for c in all_cases():
        if not c.key.startswith(prefixes) or c.fresh or "monte_carlo" in c.key or not c.compute:
            continue
        t = time.perf_counter()
        got = digest(c.canon(c.compute()))
        seconds = time.perf_counter() - t
        same = record.get(c.key)
        print(f"{c.key:<28} {seconds:8.2f} s  {got[:16]}  "
              + ("recorded" if args.write else "same" if same == got else "NEW" if same is None else "DIFFERS"),
              flush=True)
        if args.write:
            record[c.key] = got
        elif same is not None and same != got:
            differ.append(c.key)
    if args.write:
        RECORD.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
