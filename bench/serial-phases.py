#!/usr/bin/env python3
"""When each phase of a habiter-audit scan begins and ends, from perf's uprobes on the release
binary: what stays serial when `--jobs` workers share one input (start-up before the workers,
the merge, the report and the exit after them), without an instrumented build.

    bench/serial-phases [--binary B] [--jobs 2] [--runs 7] [FILE]

FILE defaults to the 100 MB bench HAR (bench-data/har-100mb.har, generated when missing). Each
run writes its JSON report to a new file, as `bench/run` does. Times are milliseconds from the
process's exec (sched_process_exec), medians of the runs:

  main            habiter_audit_main entered: the loader and the runtime are done
  rules loaded    RulePack.load returned
  workers         when the workers of the shared input began (Scanner.scanShared's closure),
                  began scanning (a worker after the first makes its copy of the rule pack
                  first) and ended, earliest first
  merged          SharedOutcomes.merged entered and returned
  scan returned   Scanner.scan(_:jobs:progress:) returned (the merge's leftovers freed)
  exit status     Triage.exitStatus entered and returned
  report          the stream that writes the JSON report entered and returned
  exit            the last thread's sched_process_exit (the kernel's teardown comes after)
"""
import collections
import os
import re
import statistics
import subprocess
import sys
import tempfile

import uprobes

GROUP = "habiter_phases"
# Probe: (symbol pattern, the ends probed: "in" its entry, "out" its return); each end is an
# event named probe_end (`worker_in`).
PROBES = {
    "main": (r"^habiter_audit_main$", ["in"]),
    "rules": (r"RulePackC4load7builtin", ["out"]),
    "worker": (r"ScannerC10scanShared.*XEfU_(TA)?$", ["in", "out"]),
    "scanning": (r"ScannerC4scan_4name5rules7matcher6caches5share", ["in"]),
    "merge": (r"SharedOutcomesC6merged", ["in", "out"]),
    "scan": (r"ScannerC4scan_4jobs8progress[^F]*F$", ["out"]),
    "status": (r"0B0O10exitStatus_6failOn", ["in", "out"]),
    # The stream that writes the report (once a report): `JSONReport.write` itself is inlined
    # into the command and never runs as such.
    "report": (r"JSONStreamWriterV6stream5chunk(?:7writers)?2to_\w*XEfU_$", ["in", "out"]),
}


def symbol(names, pattern):
    # A closure's partial-apply thunk (`TA`) when link-time optimisation left no closure apart.
    found = [n for n in names if re.search(pattern, n) and not n.endswith(("TA", "Tm"))] or \
        [n for n in names if re.search(pattern, n) and n.endswith("TA")]
    if not found:
        sys.exit(f"bench/serial-phases: no symbol matches {pattern} in the binary")
    return min(found, key=len)


def main():
    parser = uprobes.parser()
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    path = uprobes.har_input(args.file, 100)
    names = [line.split()[2] for line in subprocess.run(["nm", args.binary], capture_output=True, text=True, check=True).stdout.splitlines()
             if len(line.split()) == 3]
    points = {f"{probe}_{end}": symbol(names, pattern) + ("%return" if end == "out" else "")
              for probe, (pattern, ends) in PROBES.items() for end in ends}
    phases = collections.defaultdict(list)
    with uprobes.probes("bench/serial-phases", GROUP, args.binary, points) as probed:
        with tempfile.TemporaryDirectory() as directory:
            for run in range(args.runs):
                data = os.path.join(directory, "perf.data")
                # The scan's exit status is its gate's (findings exit non-zero): not checked.
                subprocess.run(["perf", "record", "-q", "-o", data, "-e", f"{GROUP}:*", "-e", "sched:sched_process_exec",
                                "-e", "sched:sched_process_exit", "--",
                                *uprobes.scan_argv(probed, args.jobs, os.path.join(directory, f"{run}.json"), path)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                script = subprocess.run(["perf", "script", "-i", data, "-F", "time,event"], capture_output=True, text=True).stdout
                times = collections.defaultdict(list)
                for line in script.splitlines():
                    fields = line.split()
                    if len(fields) >= 2:
                        times[fields[1].rstrip(":").split(":")[-1].replace("__return", "")].append(float(fields[0].rstrip(":")))
                start = min(times["sched_process_exec"])
                # A worker's own thread exits when it ends: the process's exit is the last.
                times["sched_process_exit"] = [max(times["sched_process_exit"])]
                for event, values in times.items():
                    if event != "sched_process_exec":
                        for order, value in enumerate(sorted(values)):
                            phases[(event, order)].append((value - start) * 1e3)

    def at(event, order=0):
        values = phases.get((event, order))
        return f"{statistics.median(values):9.2f}" if values else "        -"

    workers = max((order + 1 for event, order in phases if event == "worker_in"), default=0)
    print(f"{os.path.basename(path)}, --jobs {args.jobs}, medians of {args.runs} runs, ms from exec")
    rows = [("main", at("main_in")), ("rules loaded", at("rules_out"))]
    rows += [("workers began", " ".join(at("worker_in", w) for w in range(workers))),
             ("workers began scanning", " ".join(at("scanning_in", w) for w in range(workers))),
             ("workers ended", " ".join(at("worker_out", w) for w in range(workers)))]
    rows += [("merged", f"{at('merge_in')} {at('merge_out')}"), ("scan returned", at("scan_out")),
             ("exit status", f"{at('status_in')} {at('status_out')}"), ("report", f"{at('report_in')} {at('report_out')}"),
             ("exit", at("sched_process_exit", 0))]
    for name, value in rows:
        print(f"  {name:<34}{value}")


if __name__ == "__main__":
    main()
