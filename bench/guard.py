#!/usr/bin/env python3
"""The performance regression guard (issue 7): instructions per input byte of a release
`habiter-audit scan`, counted by valgrind's callgrind (repeatable where wall time is not), on fixed
generated inputs; fails when any grows by more than 25% over bench/guard-baseline.json.

Usage: bench/guard.py [--record] [--binary PATH] [--tolerance 0.25]
  --record   write the measured values as the new baseline (after a deliberate change; say why
             in the commit)
The inputs are bench/generate.py's json, ndjson, har and prefs kinds at 2 MB (deterministic).
The fixed cost of a run (start-up, rule compilation, report) is measured on `{}` and subtracted,
so the figure is the cost of the bytes. bench/guard builds the release binary first.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BASELINE = os.path.join(ROOT, "bench", "guard-baseline.json")
sys.path.insert(0, os.path.join(ROOT, "bench"))
import generate as generator  # noqa: E402

KINDS = ("json", "ndjson", "har", "prefs")
SIZE_MB = 2


def instructions(binary, path):
    """Instructions executed by one scan of `path`, as callgrind counts them."""
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
               binary, "scan", "--quiet", "--no-config", "--format", "json", "--output", "/dev/null", path]
    # Swift seeds its hashing per process; fixed, dictionary probes (and counts) repeat exactly.
    result = subprocess.run(command, capture_output=True, text=True, env={**os.environ, "SWIFT_DETERMINISTIC_HASHING": "1"})
    if result.returncode not in (0, 1):
        sys.exit(f"bench/guard: {' '.join(command)} failed with exit status {result.returncode}:\n{result.stderr[-2000:]}")
    match = re.search(r"Collected : (\d+)", result.stderr)
    if not match:
        sys.exit(f"bench/guard: no instruction count in callgrind's output:\n{result.stderr[-2000:]}")
    return int(match.group(1))


def measure(binary, workdir):
    empty = os.path.join(workdir, "empty.json")
    with open(empty, "w") as f:
        f.write("{}")
    fixed = instructions(binary, empty)
    per_byte = {}
    for kind in KINDS:
        path = os.path.join(workdir, f"{kind}.{generator.extension(kind)}")
        generator.generate(kind, SIZE_MB, path)
        per_byte[kind] = round((instructions(binary, path) - fixed) / os.path.getsize(path), 2)
    return per_byte


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--record", action="store_true")
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "habiter-audit"))
    parser.add_argument("--tolerance", type=float, default=0.25)
    args = parser.parse_args()
    if not shutil.which("valgrind"):
        sys.exit("bench/guard: needs valgrind (apt-get install -y valgrind; scripts/ensure-deps --test installs it)")
    with tempfile.TemporaryDirectory() as workdir:
        measured = measure(args.binary, workdir)
    if args.record:
        with open(BASELINE, "w") as f:
            json.dump({"inputs": f"bench/generate.py KIND {SIZE_MB} (default seed)", "instructionsPerByte": measured}, f, indent=2)
            f.write("\n")
        print(f"bench/guard: recorded {measured} in {os.path.relpath(BASELINE, ROOT)}")
        return 0
    with open(BASELINE) as f:
        baseline = json.load(f)["instructionsPerByte"]
    failed = []
    print(f"{'input':<8}{'baseline instr/B':>18}{'now instr/B':>13}{'change':>9}")
    for kind in KINDS:
        before, now = baseline[kind], measured[kind]
        change = now / before - 1
        print(f"{kind:<8}{before:>18.1f}{now:>13.1f}{change:>+9.1%}")
        if change > args.tolerance:
            failed.append(kind)
    if failed:
        print(f"bench/guard: instructions per byte grew by more than {args.tolerance:.0%} on {', '.join(failed)}. "
              "Profile the change (valgrind --tool=callgrind; callgrind_annotate); if the cost is deliberate, "
              "run bench/guard --record and say why in the commit.", file=sys.stderr)
        return 1
    print(f"bench/guard: every input within {args.tolerance:.0%} of the baseline")
    return 0


if __name__ == "__main__":
    sys.exit(main())
