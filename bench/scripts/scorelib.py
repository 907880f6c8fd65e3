"""What bench/scripts/aside-score and report-verdict-score share: their
options, and generated runs written as records (docs/records.md) that
wis reads as it reads a sweep's."""
import json
import os
import sys
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def options(doc, seeds):
    """--wis PATH (the host's wis, out/bin/wis) and --seeds N (seeds):
    (wis, seeds); else the usage, doc's last paragraph, and exit 2."""
    wis, args = os.path.join(ROOT, 'out/bin/wis'), sys.argv[1:]
    while args:
        opt = args.pop(0)
        if opt == '--wis' and args:
            wis = args.pop(0)
        elif opt == '--seeds' and args and args[0].isdigit():
            seeds = int(args.pop(0))
        else:
            print(doc.split('\n\n')[-1].strip(), file=sys.stderr)
            sys.exit(2)
    return wis, seeds


def frame(payload):
    p = json.dumps(payload, separators=(',', ':'))
    return 'WIS1 %08x %s\n' % (zlib.crc32(p.encode()), p)


def point(test, mode, tasks, repeat, rate, status='ok', **extra):
    """A point record of three 100 ms samples at rate."""
    return dict({'type': 'point', 'test': test, 'mode': mode, 'tasks': tasks,
                 'repeat': repeat, 'status': status, 'average': rate, 'per_task': rate / tasks,
                 'idle_pct': 0, 'elapsed_ns': [100000000] * 3, 'total': [round(rate / 10)] * 3},
                **extra)


def write_run(path, run, points):
    """Run run's records into path: its run record, points, its end."""
    recs = [{'type': 'run', 'id': run, 'kernel': run, 'hostname': 'gen',
             'cpu_model': 'generated', 'cpus_used': '0-1', 'date': '2026-01-01T00:00:00Z'}]
    recs += points
    recs.append({'type': 'end', 'status': 'ok'})
    with open(path, 'w') as f:
        f.writelines(frame(dict({'run': run, 'seq': seq}, **r)) for seq, r in enumerate(recs))
