#!/usr/bin/env python3
"""Compares two habiter-audit binaries on the same inputs, runs interleaved (A, B, A, B, ...) so
that the machine's noise hits both alike; prints the median wall time of each and the ratio.

    bench/compare.py --baseline OLD_BINARY [--candidate .build/release/habiter-audit] [--also BINARY]...
                     [--runs 5] [--jobs N] FILE...

With --jobs, each scan runs with that many workers (one large file is then shared by them). Each
--also adds a binary run after the candidate in every round (the steps of a series of changes
measured in one run), with its median and its ratio to the baseline.

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
    parser.add_argument("--also", action="append", default=[])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    binaries = [args.baseline, args.candidate] + args.also
    print(f"{'input':<28}{'baseline s':>12}{'candidate s':>13}{'ratio':>8}"
          + "".join(f"{'also ' + str(k + 1) + ' s':>12}{'ratio':>8}" for k in range(len(args.also))))
    for path in args.files:
        times = [[] for _ in binaries]
        for _ in range(args.runs):
            for binary, runs in zip(binaries, times):
                runs.append(run_once(binary, path, args.jobs))
        medians = [statistics.median(runs) for runs in times]
        base = medians[0]
        print(f"{os.path.basename(path):<28}{base:>12.3f}{medians[1]:>13.3f}{medians[1] / base:>8.2f}"
              + "".join(f"{m:>12.3f}{m / base:>8.2f}" for m in medians[2:]))


if __name__ == "__main__":
    main()
