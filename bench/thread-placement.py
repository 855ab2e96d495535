#!/usr/bin/env python3
"""Where the threads of a `--jobs` scan run: from perf's scheduler events (`sched_wakeup_new`,
`sched_switch`), for each run, the CPU the kernel first queued each new thread on (a thread
started with an affinity is moved from there before it runs) and the milliseconds each thread
of the scan spent ready to run but waiting for its CPU, whoever held it (the machine's other work
shows too). Two workers put on one CPU take turns there while the other CPU idles;
`CPUPlacement` starts each on a CPU of its own.

    bench/thread-placement [--binary B] [--jobs 2] [--runs 7] [FILE]

FILE defaults to the 100 MB bench HAR (bench-data/har-100mb.har, generated when missing). Prints
each run's threads and waits, then the median of the runs' total waits.
"""
import collections
import os
import re
import statistics
import subprocess
import tempfile

import uprobes

EVENT = re.compile(r"\s*(\S+)\s+(\d+)\s+\[(\d+)\]\s+([\d.]+):\s+(\S+):\s*(.*)")


def run_once(binary, jobs, path, directory):
    data = os.path.join(directory, "perf.data")
    # The scan's exit status is its gate's (findings exit non-zero): not checked.
    subprocess.run(["perf", "record", "-q", "-a", "-o", data, "-e", "sched:sched_process_exec", "-e", "sched:sched_wakeup_new",
                    "-e", "sched:sched_switch", "--", *uprobes.scan_argv(binary, jobs, os.path.join(directory, "report.json"), path)],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    script = subprocess.run(["perf", "script", "-i", data], capture_output=True, text=True, check=True).stdout
    threads, woken, ready, waits = set(), [], {}, collections.Counter()
    for line in script.splitlines():
        match = EVENT.match(line)
        if not match:
            continue
        _, pid, cpu, time, event, rest = match.groups()
        time, pid = float(time), int(pid)
        if event == "sched:sched_process_exec" and rest.startswith(f"filename={binary} "):
            threads.add(pid)
        elif event == "sched:sched_wakeup_new" and pid in threads:
            new = re.search(r"pid=(\d+) .*target_cpu=(\d+)", rest)
            threads.add(int(new.group(1)))
            ready[int(new.group(1))] = time
            woken.append((int(new.group(1)), int(new.group(2)), int(cpu)))
        elif event == "sched:sched_switch":
            switch = re.search(r"prev_pid=(\d+) .*prev_state=(\S+) ==> .*next_pid=(\d+)", rest)
            previous, state, following = int(switch.group(1)), switch.group(2), int(switch.group(3))
            if previous in threads and state.startswith("R"):
                ready[previous] = time
            if following in threads and following in ready:
                waits[following] += time - ready.pop(following)
    return woken, {thread: waits[thread] * 1e3 for thread in sorted(threads)}


def main():
    parser = uprobes.parser()
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    path = uprobes.har_input(args.file, 100)
    totals = []
    with tempfile.TemporaryDirectory() as directory:
        for run in range(args.runs):
            woken, waits = run_once(os.path.abspath(args.binary), args.jobs, path, directory)
            starts = ", ".join(f"thread {thread} queued on CPU {cpu} (by CPU {parent})" for thread, cpu, parent in woken)
            print(f"run {run + 1}: {starts or 'no thread started'}; waiting, ms: "
                  + ", ".join(f"{wait:.1f}" for wait in waits.values()))
            totals.append(sum(waits.values()))
    print(f"{os.path.basename(path)}, --jobs {args.jobs}: the threads' waits together, median of {args.runs} runs: "
          f"{statistics.median(totals):.1f} ms (from {min(totals):.1f} to {max(totals):.1f})")


if __name__ == "__main__":
    main()
