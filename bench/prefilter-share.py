#!/usr/bin/env python3
"""How many values the literal prefilter decides before any regex runs (issue 21).

Usage: bench/prefilter-share.py [--binary PATH]   (bench/prefilter-share builds the release binary first)

Runs one release `habiter-audit scan` of each of bench/generate.py's json, ndjson, har and prefs
inputs (2 MB, as bench/guard) under valgrind's callgrind and counts calls:

  values        calls of PatternEngine.scan: values (and keys) long enough for some rule, from
                every call site (shorter ones are decided by their length before the call)
  regex runs    calls of RegexMatcher.allMatches: one per (value, rule) the prefilter let through

A value that the prefilter passes on runs at least one regex, so "values without a regex" is at
least 1 - regex runs / values: the table gives that lower bound. The counts come from the
optimised binary itself, so the measure costs the scan nothing; if the compiler inlines one of the
three functions, the script says so rather than guess.
"""
import argparse
import collections
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import generate as generator  # noqa: E402

KINDS = ("json", "ndjson", "har", "prefs")
SIZE_MB = 2
COUNTED = {
    "values": re.compile(r"^\$s14AuditDetection13PatternEngineC4scan_"),
    "regex runs": re.compile(r"^\$s10AuditRules12RegexMatcherC10allMatches_"),
}
# A closure inside one of them has a mangled name that begins the same way, with a closure
# marker before any embedded name (a specialisation for a closure argument embeds the argument's).
CLOSURE = re.compile(r"f[Uu]\d*_")


def is_closure(name):
    return bool(CLOSURE.search(name.split("$s")[1] if name.startswith("$s") else name))


def call_counts(profile):
    """Calls per counted function, summed over all call sites in a callgrind output file."""
    names, counts, callee = {}, collections.Counter(), None
    with open(profile, encoding="utf-8", errors="replace") as f:
        for line in f:
            named = re.match(r"(c?fn)=\((\d+)\)(?: (.*))?", line)
            if named:
                kind, index, name = named.groups()
                if name:
                    names[index] = name
                callee = index if kind == "cfn" else None
                continue
            calls = re.match(r"calls=(\d+)", line)
            if calls and callee is not None:
                counts[callee] += int(calls.group(1))
    out = {}
    for label, pattern in COUNTED.items():
        matching = [index for index, name in names.items()
                    if pattern.search(name) and not is_closure(name) and counts[index]]
        out[label] = sum(counts[index] for index in matching) if matching else None
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "habiter-audit"))
    args = parser.parse_args()
    if not shutil.which("valgrind"):
        sys.exit("bench/prefilter-share: needs valgrind (apt-get install -y valgrind)")
    print("| input | values | regex runs | values without a regex (at least) |")
    print("|---|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as workdir:
        for kind in KINDS:
            path = os.path.join(workdir, f"{kind}.{generator.extension(kind)}")
            generator.generate(kind, SIZE_MB, path)
            profile = os.path.join(workdir, f"{kind}.callgrind")
            command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={profile}", args.binary, "scan",
                       "--quiet", "--no-config", "--format", "json", "--output", "/dev/null", path]
            result = subprocess.run(command, capture_output=True, text=True)
            if result.returncode not in (0, 1):
                sys.exit(f"bench/prefilter-share: {' '.join(command)} failed ({result.returncode}):\n{result.stderr[-2000:]}")
            counts = call_counts(profile)
            missing = [label for label, count in counts.items() if count is None]
            if missing:
                sys.exit(f"bench/prefilter-share: no calls of {', '.join(missing)} in the profile of {kind} "
                         "(inlined, or renamed): update COUNTED")
            values, runs = counts["values"], counts["regex runs"]
            share = 1 - runs / values if values else 0
            print(f"| {kind} | {values} | {runs} | {share:.2%} |")
    print(f"\nInputs: bench/generate.py KIND {SIZE_MB} (default seed). Command: `bench/prefilter-share`.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
