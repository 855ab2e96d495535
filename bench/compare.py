#!/usr/bin/env python3
"""Compares two habiter-audit binaries on the same inputs, runs interleaved (A, B, A, B, ...) so
that the machine's noise hits both alike; prints the median wall time of each and the ratio.

    bench/compare.py --baseline OLD_BINARY [--candidate .build/release/habiter-audit] [--runs 5] [--jobs N] FILE...

With --jobs, each scan runs with that many workers (one large file is then shared by them).

To compare with an earlier commit: git worktree add /tmp/old <commit>, scripts/build-release
there, and pass /tmp/old/.build/release/habiter-audit as --baseline.
"""
import argparse
import os
import statistics
import subprocess
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run_once(binary, path, jobs):
    start = time.perf_counter()
    subprocess.run([binary, "scan", path, "--format", "json", "-o", os.devnull, "--jobs", str(jobs)],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--baseline", required=True)
    parser.add_argument("--candidate", default=os.path.join(ROOT, ".build", "release", "habiter-audit"))
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    print(f"{'input':<28}{'baseline s':>12}{'candidate s':>13}{'ratio':>8}")
    for path in args.files:
        times = {"baseline": [], "candidate": []}
        for _ in range(args.runs):
            times["baseline"].append(run_once(args.baseline, path, args.jobs))
            times["candidate"].append(run_once(args.candidate, path, args.jobs))
        base, cand = statistics.median(times["baseline"]), statistics.median(times["candidate"])
        print(f"{os.path.basename(path):<28}{base:>12.3f}{cand:>13.3f}{cand / base:>8.2f}")


if __name__ == "__main__":
    main()
