import json,sys
tags=sys.argv[2:]; d=sys.argv[1]
runs={t:json.load(open(f'{d}/{t}.json')) for t in tags}
names=[c['name'] for c in runs[tags[0]]['cases']]
print("%-46s"%"case", "  ".join("%-16s"%t for t in runs))
for n in names:
    row=[]
    for t,r in runs.items():
        cs=[c for c in r['cases'] if c['name']==n]
        if not cs: row.append("-"); continue
        c=cs[0]; bps=c['bytes_per_second']; th=c['throttle']; pr=max(th['probe_before_bytes_per_second'],th['probe_after_bytes_per_second'])
        row.append("%5.2f %4.0f%%%s"%(bps/1e12, 100*bps/pr if pr else 0, "*" if th['flagged'] else " "))
    print("%-46s"%n[5:], "  ".join("%-16s"%x for x in row))
