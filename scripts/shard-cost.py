#!/usr/bin/env python3
"""Cost model figures of an out-of-core build from its --shard-stats file.

Usage: scripts/shard-cost.py STATS.jsonl [CPU_SECONDS ENTRIES]

STATS.jsonl is what `pdbgen build --shard-stats` appends: one JSON object per
shard Step (builder.StepStats plus seconds, disk_read, disk_written). Prints,
per level, the states expanded, the states sent between shards, the batch
bytes exchanged, the value-log bytes and the disk traffic; then the totals
and the bytes per state. With the build's CPU seconds (user + sys from
/usr/bin/time -v) and the table's entries, also the CPU per entry and per
search state. Only the standard library; docs/sharding.md, "What out of core
costs", quotes its output.
"""
import json
import sys
from collections import defaultdict


def main():
    if len(sys.argv) not in (2, 4):
        sys.exit(__doc__.strip().splitlines()[2])
    levels = defaultdict(lambda: defaultdict(int))
    with open(sys.argv[1]) as f:
        for line in f:
            r = json.loads(line)
            lv = levels[r["level"]]
            for k in ("frontier", "sent", "merged", "bytes_out", "value_log_bytes", "disk_read", "disk_written"):
                lv[k] += r[k]
            lv["seconds"] += r["seconds"]
            lv["steps"] += 1
    tot = defaultdict(float)
    print("level  steps   expanded        sent   batch MB  vlog MB  disk read MB  disk written MB   wall s")
    for l in sorted(levels):
        lv = levels[l]
        print(f"{l:5d} {lv['steps']:6d} {lv['frontier']:10d} {lv['sent']:11d} {lv['bytes_out']/2**20:10.1f} "
              f"{lv['value_log_bytes']/2**20:8.1f} {lv['disk_read']/2**20:13.1f} {lv['disk_written']/2**20:16.1f} {lv['seconds']:8.1f}")
        for k, v in lv.items():
            tot[k] += v
    states = tot["frontier"]
    print(f"total: {int(states)} states expanded, {int(tot['sent'])} sent ({tot['sent']/max(states,1):.2f} per state), "
          f"batches {tot['bytes_out']/2**30:.2f} GiB ({tot['bytes_out']/max(tot['sent'],1):.2f} B per state sent), "
          f"value logs {tot['value_log_bytes']/2**30:.2f} GiB, disk read {tot['disk_read']/2**30:.1f} GiB, "
          f"written {tot['disk_written']/2**30:.1f} GiB, wall {tot['seconds']:.0f} s over {len(levels)} levels")
    if len(sys.argv) == 4:
        cpu, entries = float(sys.argv[2]), float(sys.argv[3])
        print(f"CPU {cpu:.0f} s: {cpu/entries*1e9:.0f} ns per entry, {cpu/max(states,1)*1e9:.0f} ns per search state")


if __name__ == "__main__":
    main()
