#!/usr/bin/env python3
"""Compares habiter-audit binaries on the same inputs: prints each one's minimum and median wall
time and their ratios to the baseline's.

    bench/compare.py --baseline OLD_BINARY [--candidate .build/release/habiter-audit] [--also BINARY]...
                     [--runs 5] [--jobs N] FILE...

Runs are interleaved, and each round starts one binary later than the round before (A B, then
B A): a binary that always ran first or second would meet the machine's noise, and the caches
the other left, always in the same place. On these shared machines the minimum is the steadier
figure (the medians of one binary against itself moved by several percent from run to run,
BENCHMARKS.md); a change that a pair of runs cannot separate from the noise shows as ratios of
opposite sign. Pin it (`taskset -c 0 bench/compare.py ...`) to compare one core's work.

With --jobs, each scan runs with that many workers (one large file is then shared by them). Each
--also adds a binary to every round (the steps of a series of changes measured in one run).

Every run of a file must end as the baseline's first run of it did, with the scan's exit status
0 or 1 (findings at or above --fail-on): a binary that crashes, or answers otherwise, would time
as fast as any, so that is an error, not a number.

To compare with an earlier commit: git worktree add /tmp/old <commit>, scripts/build-release
there, and pass /tmp/old/.build/release/habiter-audit as --baseline.
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run_once(binary, path, jobs):
    """The wall time of one scan, and its exit status."""
    start = time.perf_counter()
    status = subprocess.run([binary, "scan", path, "--format", "json", "-o", os.devnull, "--jobs", str(jobs)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
    return time.perf_counter() - start, status


def rounds(binaries, count):
    """The order of each round, as indices into `binaries`: rotated by one place a round."""
    for r in range(count):
        shift = r % len(binaries)
        yield list(range(shift, len(binaries))) + list(range(shift))


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
    names = ["baseline", "candidate"] + [f"also {k + 1}" for k in range(len(args.also))]
    print(f"{'input':<28}{'baseline min / median s':>26}"
          + "".join(f"{name + ' min / median s':>28}{'ratio min / median':>21}" for name in names[1:]))
    for path in args.files:
        times = [[] for _ in binaries]
        expected = None
        for order in rounds(binaries, args.runs):
            for index in order:
                elapsed, status = run_once(binaries[index], path, args.jobs)
                if expected is None:
                    expected = status
                    if status not in (0, 1):
                        sys.exit(f"bench/compare: the baseline's scan of {path} ended with status {status}, "
                                 "not 0 or 1: nothing to time")
                if status != expected:
                    sys.exit(f"bench/compare: {names[index]} ({binaries[index]}) scanned {path} with status {status}, "
                             f"where the baseline's first run ended with {expected}: the times would not compare")
                times[index].append(elapsed)
        minima = [min(runs) for runs in times]
        medians = [statistics.median(runs) for runs in times]
        print(f"{os.path.basename(path):<28}{minima[0]:>13.3f} / {medians[0]:<10.3f}"
              + "".join(f"{low:>15.3f} / {mid:<10.3f}{low / minima[0]:>10.3f} / {mid / medians[0]:<8.3f}"
                        for low, mid in zip(minima[1:], medians[1:])))


if __name__ == "__main__":
    main()
