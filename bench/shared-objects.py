#!/usr/bin/env python3
"""Lists the objects that more than one thread of a habiter-audit scan retains and releases.

Each retain or release writes the object's reference count; when the workers of one shared
input (`--jobs 2` on one large HAR or NDJSON file) do so on the same object, the two cores take
its cache line from each other on every call. perf's uprobes record the object of every
swift_retain and swift_release call with its caller; the objects touched by two threads are
listed, busiest first (by the less busy thread's count), with their callers and whether the
threads touched them during the same span of time (the merge reads a worker's findings after it
has ended: one after the other, no contention). Objects inside the
binary are statically initialised ones (empty collections, constant arrays): the runtime makes
them immortal, so their counts are read but never written, and they are listed apart.

    bench/shared-objects [--binary B] [--jobs 2] [--top 20] [--callers 3] [FILE]

FILE defaults to a 17 MB HAR, generated once into bench-data/ (a file is shared from 16 MiB).
"""
import collections
import os
import re
import subprocess
import tempfile

import uprobes

GROUP = "habiter_shared"


def sh(*args, **kw):
    return subprocess.run(list(args), check=True, text=True, **kw)


def image_span(binary):
    """The file offset of swift_release and the end of the highest loaded segment."""
    symbols = sh("nm", binary, capture_output=True).stdout
    release = next(int(line.split()[0], 16) for line in symbols.splitlines() if line.endswith(" swift_release"))
    headers = sh("readelf", "-lW", binary, capture_output=True).stdout
    end = 0
    for line in headers.splitlines():
        fields = line.split()
        if fields and fields[0] == "LOAD":
            end = max(end, int(fields[2], 16) + int(fields[5], 16))
    return release, end


def main():
    parser = uprobes.parser()
    parser.add_argument("--top", type=int, default=20)
    parser.add_argument("--callers", type=int, default=3)
    args = parser.parse_args()
    path = uprobes.har_input(args.file, 17)
    release_offset, image_end = image_span(args.binary)

    points = {name: f"{name} obj=%di" for name in ("swift_retain", "swift_release")}
    with uprobes.probes("bench/shared-objects", GROUP, args.binary, points) as probed:
        with tempfile.TemporaryDirectory() as directory:
            data = os.path.join(directory, "perf.data")
            # The scan's exit status is its gate's (findings exit non-zero): not checked.
            subprocess.run(["perf", "record", "-q", "-g", "-o", data, "-e", f"{GROUP}:swift_retain", "-e", f"{GROUP}:swift_release",
                            "--", *uprobes.scan_argv(probed, args.jobs, os.devnull, path)], stderr=subprocess.DEVNULL)
            threads = collections.defaultdict(collections.Counter)
            spans = {}  # (object, thread) -> [first, last] time
            callers = collections.defaultdict(collections.Counter)
            base = None
            script = subprocess.Popen(["perf", "script", "-i", data, "-F", "tid,time,event,trace,ip,sym", "--max-stack", "2"],
                                      stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
            header = re.compile(r"^\s*(\d+)\s+([0-9.]+):\s+\S+:(swift_retain|swift_release):\s+\(([0-9a-f]+)\)\s+obj=0x([0-9a-f]+)")
            current, frames, events = None, 0, 0
            for line in script.stdout:
                match = header.match(line)
                if match:
                    tid, time, name = match.group(1), float(match.group(2)), match.group(3)
                    probe, obj = int(match.group(4), 16), int(match.group(5), 16)
                    if base is None and name == "swift_release":
                        base = probe - release_offset
                    events += 1
                    current, frames = None, 0
                    # Null, tagged and small-string values are not objects: the runtime returns at once.
                    if 0 < obj < 1 << 63:
                        current = obj
                        threads[obj][tid] += 1
                        span = spans.setdefault((obj, tid), [time, time])
                        span[1] = time
                elif line.strip() and current is not None:
                    frames += 1
                    if frames == 2:
                        callers[current][line.split(None, 1)[1].strip()[:90] if len(line.split(None, 1)) > 1 else "?"] += 1
            script.wait()

    shared = sorted(((sorted(c.values())[-2], obj) for obj, c in threads.items() if len(c) > 1), reverse=True)
    in_image = (lambda obj: base is not None and base <= obj < base + image_end)

    def at_once(obj):
        tids = list(threads[obj])
        return max(spans[(obj, t)][0] for t in tids) < min(spans[(obj, t)][1] for t in tids)

    print(f"{os.path.basename(path)}, --jobs {args.jobs}: {events:,} retains and releases; "
          f"{len(threads):,} objects, {len(shared):,} touched by more than one thread")
    for title, rows in (("on the heap (contended when touched at once)", [r for r in shared if not in_image(r[1])]),
                        ("in the binary (immortal: counts read, not written)", [r for r in shared if in_image(r[1])])):
        print(f"\n{title}:")
        print(f"{'second thread':>14}  {'all':>9}  {'at once':>7}  callers")
        for second, obj in rows[:args.top]:
            top = ", ".join(f"{name} ({count:,})" for name, count in callers[obj].most_common(args.callers))
            print(f"{second:>14,}  {sum(threads[obj].values()):>9,}  {'yes' if at_once(obj) else 'no':>7}  {top}")


if __name__ == "__main__":
    main()
