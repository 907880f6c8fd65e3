#!/usr/bin/python3
"""The --html pages in a real browser: Debian's Chromium, driven by its
chromedriver through Selenium.  Each kind of page (report, compare,
history), from files and from a store, is loaded from file:// and
checked: no console error, no network request (the browser's network
log), the charts draw as many series and points as the records hold,
hovering a point shows its value, and the history's first step is the
planted one, whose comparison a click shows; a history of two machines
with a planted drift and a late step (tests/lib/series.pl) lists the
drift after the step, draws its fitted line, marks both as keeping the
alarm up and names each series' machine.  Record strings built to
break out of the page (</script>, an <img> with onerror, ]]>, C1
controls, bidi overrides) must show as text and run nothing.  A
screenshot of each kind is kept in the test's scratch directory,
OUT/tests/73-html-page/, and its path printed."""
import json
import os
import random
import shutil
import subprocess
import sys
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WIS = os.path.abspath(os.environ.get('WIS', os.path.join(ROOT, 'out/rootfs/bin/wis')))
OUT = WIS[:-len('/rootfs/bin/wis')]
HOST = os.path.join(OUT, 'bin/wis')
SCRATCH = os.path.join(OUT, 'tests', '73-html-page')
CHROMIUM, DRIVER = '/usr/bin/chromium', '/usr/bin/chromedriver'

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.actions.action_builder import ActionBuilder
except ImportError:
    print('1..0 # SKIP python3-selenium not installed')
    sys.exit(0)
if not (os.access(CHROMIUM, os.X_OK) and os.access(DRIVER, os.X_OK)):
    print('1..0 # SKIP chromium and chromium-driver not installed')
    sys.exit(0)
if not os.access(HOST, os.X_OK):
    print('Bail out! %s (the host\'s wis) not built' % HOST)
    sys.exit(1)

count = failed = 0


def ok(good, name):
    global count, failed
    count += 1
    print('%s %d - %s' % ('ok' if good else 'not ok', count, name))
    if not good:
        failed += 1
        print('# failed: %d - %s' % (count, name), file=sys.stderr)
    return good


def is_(got, want, name):
    if not ok(got == want, name):
        print('# want: %r\n# got:  %r' % (want, got))


def diag(text):
    for line in str(text).splitlines():
        print('# ' + line)


# ---- Records ----

def frame(payload):
    p = json.dumps(payload, separators=(',', ':'), ensure_ascii=False)
    return 'WIS1 %08x %s\n' % (zlib.crc32(p.encode()), p)


def write_run(path, run, kernel, tests, repeats=1, host='box', cpu='test-cpu'):
    """One run: per test (name -> rate at 1, 2, 4 tasks of each repeat),
    processes at those rates and threads at 0.9 of them; returns the
    rates written, keyed."""
    recs = [{'run': run, 'seq': 0, 'type': 'run', 'id': host, 'kernel': kernel,
             'hostname': host, 'cpu_model': cpu, 'date': '2026-01-01T00:00:00Z'}]
    rates = {}
    for rep in range(repeats):
        for test, curve in tests.items():
            for mode in ('processes', 'threads'):
                for tasks, at in zip((1, 2, 4), curve):
                    v = [x * (0.9 if mode == 'threads' else 1) for x in at]
                    # Three samples of 100 ms: 1 % apart.
                    recs.append({'run': run, 'seq': len(recs), 'type': 'point',
                                 'test': test, 'mode': mode, 'tasks': tasks,
                                 'repeat': rep, 'status': 'ok', 'average': v[rep],
                                 'per_task': v[rep] / tasks, 'idle_pct': 0,
                                 'elapsed_ns': [100000000] * 3,
                                 'total': [round(v[rep] / 10 * f) for f in (0.99, 1, 1.01)]})
                    rates[(test, mode, tasks, rep)] = v[rep]
    recs.append({'run': run, 'seq': len(recs), 'type': 'end', 'status': 'ok'})
    with open(path, 'w') as f:
        f.writelines(frame(r) for r in recs)
    return rates


def jitter(rnd, v, n):
    return [v * (1 + rnd.uniform(-0.005, 0.005)) for _ in range(n)]


def wis(*args):
    r = subprocess.run([HOST] + list(args), capture_output=True, text=True)
    return r.returncode, r.stdout, r.stderr


# ---- The browser ----

def browser():
    o = Options()
    o.binary_location = CHROMIUM
    for a in ('--headless=new', '--no-sandbox', '--disable-gpu', '--window-size=1200,1000',
              '--disable-background-networking', '--disable-component-update',
              '--no-first-run', '--disable-sync', '--disable-default-apps',
              '--user-data-dir=' + os.path.join(SCRATCH, 'profile')):
        o.add_argument(a)
    o.set_capability('goog:loggingPrefs', {'browser': 'ALL', 'performance': 'ALL'})
    return webdriver.Chrome(service=Service(DRIVER), options=o)


def load(d, path, what, in_view=True):
    """Open a page; checks its console and its network log.  The charts
    in view are drawn as the page opens, the rest as they come into
    view: drawAll() draws them."""
    url = 'file://' + os.path.abspath(path)
    d.get('about:blank')
    d.get_log('browser')
    d.get_log('performance')
    d.get(url)
    if not ok(d.execute_script('return typeof wisPage') == 'object',
              '%s: the page\'s script ran' % what):
        return
    if in_view:
        shown = d.execute_script('return wisPage.charts.length')
        ok(shown >= 1, '%s: the charts in view are drawn as the page opens (%d)' % (what, shown))
    d.execute_script('wisPage.drawAll()')
    errors = [e['message'] for e in d.get_log('browser') if e['level'] == 'SEVERE']
    is_(errors, [], '%s: no console error' % what)
    # The page's own requests, and any request leaving the machine.
    requests = []
    for e in d.get_log('performance'):
        m = json.loads(e['message'])['message']
        if m['method'] != 'Network.requestWillBeSent':
            continue
        to = m['params']['request']['url']
        if (m['params'].get('documentURL') == url and to != url) or \
                to.split(':')[0] not in ('file', 'chrome', 'data', 'about'):
            requests.append(to)
    is_(requests, [], '%s: no network request' % what)


def charts(d):
    return d.execute_script('return wisPage.charts.map(c => [c.title, c.series, c.points])')


def hover(d, chart, series, i):
    """The mouse on point i of a series of a chart: the hover's text."""
    d.execute_script('wisPage.charts[arguments[0]].u.root.scrollIntoView({block: "center"})', chart)
    at = d.execute_script('return wisPage.pointAt(arguments[0], arguments[1], arguments[2])',
                          chart, series, i)
    actions = ActionBuilder(d)
    actions.pointer_action.move_to_location(int(at['x']), int(at['y']))
    actions.perform()
    return d.execute_script('''const t = wisPage.charts[arguments[0]].u.root.parentNode
        .querySelector('.tip'); return t.style.display === 'none' ? '' : t.textContent''', chart)


def shot(d, path, what):
    d.execute_script('window.scrollTo(0, 0)')
    height = d.execute_script('return document.body.scrollHeight')
    d.set_window_size(1200, min(height + 40, 6000))
    d.save_screenshot(path)
    d.set_window_size(1200, 1000)
    diag('screenshot of the %s page: %s' % (what, path))


def page_text(d):
    return d.execute_script('return document.body.innerText')


# ---- The pages ----

def main():
    shutil.rmtree(SCRATCH, ignore_errors=True)
    os.makedirs(SCRATCH)
    os.chdir(SCRATCH)
    rnd = random.Random(45)

    # Two runs: lock1 hits a wall at 4 tasks, getppid1 scales.
    runs = {}
    for run, kernel, f in (('r1', '6.1.0', 1.0), ('r2', '6.2.0', 0.8)):
        runs[run] = write_run(run + '.wis', run, kernel, {
            'getppid1': [[1e6 * f], [2e6 * f], [4e6 * f]],
            'lock1': [[1.0e6 * f], [1.5e6 * f], [0.9e6 * f]],
        })
    wis('import', 'runs.db', '--label', 'board=a', 'r1.wis', 'r2.wis')

    rc = subprocess.run([WIS, 'report', '--html', 'image.html', 'r1.wis'],
                        capture_output=True, text=True)
    ok(rc.returncode == 2 and 'no page library' in rc.stderr,
       'the image\'s wis, which has no page library, says so (exit %d)' % rc.returncode)

    d = browser()
    try:
        for source, args in (('files', ['r1.wis', 'r2.wis']), ('--db', ['--db', 'runs.db'])):
            rc, _, err = wis('report', '--html', 'report.html', *args)
            is_(rc, 0, 'wis report --html from %s: exit 0 %s' % (source, err.strip()))
            load(d, 'report.html', 'report from ' + source)
            is_(charts(d), [['lock1', 4, 12], ['getppid1', 4, 12]],
                'report from %s: the test with a wall first; per test a curve per run '
                'and mode (4), every point drawn (12)' % source)
            tip = hover(d, 0, 0, 1)
            want = '{:,}'.format(round(runs['r1'][('lock1', 'processes', 2, 0)]))
            ok('ops/s: ' + want in tip and 'efficiency: 0.75' in tip,
               'report from %s: hovering r1\'s lock1 at 2 tasks shows %s ops/s and its '
               'efficiency (%r)' % (source, want, tip))
            if source == 'files':
                ok('wall: 2 \u2192 4 tasks falls 40 %' in page_text(d),
                   'report: the wall is named with its size')
                shot(d, os.path.join(SCRATCH, 'report.png'), 'report')

        # Two kernels, 5 repeats a side: lock1 30 % slower on B.
        a = {t: [jitter(rnd, v, 5) for v in c] for t, c in (
            ('getppid1', (1e6, 2e6, 4e6)), ('lock1', (1e6, 1.6e6, 2e6)), ('open1', (5e5, 9e5, 1.6e6)))}
        b = {t: [[x * (0.7 if t == 'lock1' else 1) for x in jitter(rnd, v[0], 5)] for v in c]
             for t, c in a.items()}
        write_run('a.wis', 'ra', '6.1.0', a, repeats=5)
        write_run('b.wis', 'rb', '6.2.0', b, repeats=5)
        wis('import', 'cmp.db', '--label', 'side=a', 'a.wis')
        wis('import', 'cmp.db', '--label', 'side=b', 'b.wis')
        for source, args in (('files', ['a.wis', '--', 'b.wis']),
                             ('--db', ['--db', 'cmp.db', 'side=a', '--', 'side=b'])):
            rc, out, err = wis('compare', '--html', 'compare.html', *args)
            is_(rc, 0, 'wis compare --html from %s: exit 0 %s' % (source, err.strip()))
            load(d, 'compare.html', 'compare from ' + source)
            drawn = charts(d)
            ok(drawn[0] == ['lock1', 6, 18] and sorted(drawn) ==
               [['getppid1', 6, 18], ['lock1', 6, 18], ['open1', 6, 18]],
               'compare from %s: a chart per test, the regressed first; each side and '
               'mode a curve and each mode its B/A (6 series, 18 points): %r' % (source, drawn))
            first = d.execute_script('''const r = document.querySelector('tbody tr');
                return [...r.children].map(c => c.textContent)''')
            ok(first[0] == 'lock1' and first[7] == 'regressed',
               'compare from %s: the verdict table\'s first row is lock1, regressed (%r)'
               % (source, first))
            d.execute_script("document.querySelector('tbody tr a').click()")
            target = d.execute_script('return location.hash')
            is_(d.execute_script('return wisPage.charts.find(c => "#" + c.u.root.parentNode.id '
                                 '=== location.hash).title'), 'lock1',
                'compare from %s: the row links to lock1\'s chart (%s)' % (source, target))
            tip = hover(d, 0, 0, 0)
            ok(tip.startswith('A: run ra, kernel 6.1.0') and 'median ops/s: ' in tip,
               'compare from %s: hovering A at 1 task shows its median (%r)' % (source, tip))
            if source == 'files':
                shot(d, os.path.join(SCRATCH, 'compare.png'), 'compare')

        # A history of 14 runs: lock1 30 % slower from run 8.
        for i in range(1, 15):
            write_run('h%02d.wis' % i, 'h%02d' % i, '6.%d.0' % i, {
                t: [[v * (0.7 if t == 'lock1' and i >= 8 else 1) * (1 + rnd.uniform(-0.005, 0.005))]
                    for v in c] for t, c in (('getppid1', (1e6, 2e6, 4e6)),
                                             ('lock1', (1e6, 1.6e6, 2e6)), ('dup1', (7e5, 1.3e6, 2.4e6)))})
            wis('import', 'hist.db', '--label', 'n=%d' % i, 'h%02d.wis' % i)
        rc, out, err = wis('history', '--db', 'hist.db', '--by', 'n', '--html', 'history.html')
        is_(rc, 0, 'wis history --html: exit 0 (no step among the latest runs) %s' % err.strip())
        load(d, 'history.html', 'history')
        drawn = charts(d)
        is_(drawn[0], ['lock1', 6, 6 * 14],
            'history: the test that moved first, a curve per mode and tasks, every run a point')
        is_(len(drawn), 3, 'history: a chart per test, the two that did not move too (folded)')
        headline = d.execute_script("return document.querySelector('p.warn').textContent")
        ok(headline.startswith('Largest step: lock1 processes') and
           '(n 7, kernel 6.7.0) and run h08 (n 8, kernel 6.8.0)' in headline,
           'history: the page opens on the largest step, its size and its two kernels (%r)' % headline)
        first = d.execute_script('''return [...document.querySelector('#steps tbody tr')
            .children].map(c => c.textContent)''')
        ok(first[0] == 'lock1' and first[3] == '7 \u2192 8 (kernel 6.7.0 \u2192 6.8.0)',
           'history: the steps table\'s first row is the planted step, lock1 between runs 7 and 8 (%r)'
           % first)
        d.execute_script("document.querySelector('#steps tbody tr td:nth-child(2)').click()")
        panel = d.execute_script('''const p = document.getElementById('step-compare');
            return p.style.display === 'none' ? '' : p.innerText''')
        ok(panel.startswith('compare: run h07 (7) \u2192 run h08 (8)') and '\u221230' in panel,
           'history: a click on the step shows the comparison of run 7 with run 8 (%r)' % panel[:200])
        tip = hover(d, 0, 0, 7)
        ok('run h08' in tip and 'n: 8, kernel 6.8.0' in tip and 'labels: n=8' in tip and
           'ops/s' in tip and 'samples \u00b11 %' in tip,
           'history: hovering run 8 names the run, its order, kernel, labels, value and spread (%r)'
           % tip)
        shot(d, os.path.join(SCRATCH, 'history.png'), 'history')

        drift(d)
        bisect(d)
        hostile(d)
    finally:
        d.quit()
        # The pages and screenshots stay; the browser's profile need not.
        shutil.rmtree(os.path.join(SCRATCH, 'profile'), ignore_errors=True)
    print('1..%d' % count)
    return 1 if failed else 0


def drift(d):
    """A history whose dup1 at 1 task drifts 20 % lower over 30 runs and
    whose getppid1 at 2 tasks steps down at run 28, both among the latest
    runs (the alarm), generated by tests/lib/series.pl with fixed seeds;
    3 runs of another CPU make it a history of two machines."""
    curves = {'getppid1': [[1e6], [2e6], [4e6]], 'dup1': [[7e5], [1.3e6], [2.4e6]]}
    write_run('template.wis', 'template', '6.1.0', curves)
    os.makedirs('drift')
    subprocess.run(['perl', os.path.join(ROOT, 'tests/lib/series.pl'), 'template.wis', 'drift', '30',
                    'dup1:1', '0.01', '17', 'ramp:1:30:-0.2', 'getppid1:2', '0.01', '5', '28:0.8'],
                   check=True)
    for i in range(1, 4):
        write_run('drift/other%d.wis' % i, 'other%d' % i, '6.1.0', curves, cpu='other-cpu')
    wis('import', 'drift.db', *sorted('drift/' + f for f in os.listdir('drift')))
    rc, _, err = wis('history', '--db', 'drift.db', '--by', 'date', '--html', 'drift.html')
    is_(rc, 1, 'drifting history --html: exit 1, the alarm up %s' % err.strip())
    load(d, 'drift.html', 'drifting history')
    rows = d.execute_script('''return [...document.querySelectorAll('#steps tbody tr')].map(r =>
        [[...r.children].map(c => c.firstChild ? c.firstChild.textContent : ''),
         !!r.querySelector('.verdict .badge.alarm')])''')
    letter = d.execute_script('''return JSON.parse(document.getElementById('wis-data').textContent)
        .series.find(s => s.drifts.length)?.machine''')
    machines = d.execute_script('''return [...new Set(JSON.parse(document.getElementById('wis-data')
        .textContent).series.map(s => s.machine))]''')
    ok(letter and len(machines) == 2 and letter in machines,
       'drifting history: its series are a machine\'s, named (%r of %r)' % (letter, machines))
    last = rows[-1][0] if rows else []
    ok(len(rows) == 2 and last[7] == 'drift' and
       last[:3] == ['dup1', 'processes on %s' % letter, '1'] and last[5].startswith('\u2212') and
       17 <= float(last[5][1:-2]) <= 23,
       'drifting history: the drift listed after the step, dup1 processes on %s 1 task, '
       'about 20 %% lower (%r)' % (letter, rows))
    ok([r[7] for r, _ in rows] == ['step', 'drift'] and all(alarm for _, alarm in rows),
       'drifting history: the step and the drift, among the latest runs, carry the alarm badge')
    d.execute_script("document.querySelector('#steps tbody tr.drift td:nth-child(2)').click()")
    panel = d.execute_script('''const p = document.getElementById('step-compare');
        return p.style.display === 'none' ? '' : p.innerText''')
    ends = d.execute_script('''const data = JSON.parse(document.getElementById('wis-data').textContent);
        const s = data.series.find(s => s.drifts.length);
        return s ? s.drifts[0].slice(0, 2).map(r => [r + 1, data.runs[r].id]) : []''')
    head = panel.split('\n')[0]
    ok(len(ends) == 2 and head.startswith('compare: run %s (' % ends[0][1]) and
       '\u2192 run %s (' % ends[1][1] in head and
       'from run %d to run %d' % (ends[0][0], ends[1][0]) in panel and
       'drift: dup1 processes' in panel and 'first run' in panel and
       d.execute_script('''return document.querySelector('#step-compare tbody tr td')
           .textContent''') == 'dup1',
       'drifting history: a click on the drift compares its first run with its last, '
       'dup1 first (%r, runs %r)' % (panel[:300], ends))
    labels = d.execute_script('''return wisPage.charts.find(c => c.title === 'dup1')
        .spec.series.map(s => s.label)''')
    ok(all('processes/1 on %s' % m in labels for m in machines),
       'drifting history: a series\' label names its machine (%r)' % labels)
    # Along the drift's fitted line, the pixels of a decided change's
    # red (#b00020), which no curve of the palette has.
    hits = d.execute_script('''const u = wisPage.charts.find(c => c.title === 'dup1').u;
        const s = JSON.parse(document.getElementById('wis-data').textContent)
            .series.find(s => s.drifts.length);
        if (!s)
            return 0;
        const [start, end, from, to] = s.drifts[0];
        let hits = 0;
        for (let t = 0.05; t < 0.95; t += 0.01) {
            const x = Math.round(u.valToPos(start + t * (end - start), 'x', true));
            const y = Math.round(u.valToPos(from + t * (to - from), 'y', true));
            const p = u.ctx.getImageData(x - 1, y - 1, 3, 3).data;
            for (let i = 0; i < p.length; i += 4)
                hits += p[i] > 140 && p[i] < 210 && p[i + 1] < 40 && p[i + 2] < 70;
        }
        return hits''')
    ok(hits > 20, 'drifting history: the drift drawn along its fitted line (%d red pixels)' % hits)
    shot(d, os.path.join(SCRATCH, 'drift.png'), 'drifting history')


def bisect(d):
    """A history whose getppid1 at 1 task rises 6 % at run 15 of 30 in
    3 % noise (tests/lib/series.pl, a fixed seed): the fit puts the step
    at run 9, and the page gives the runs to bisect, 6 to 17, which hold
    run 15."""
    write_run('template-loose.wis', 'template', '6.1.0', {'getppid1': [[1e6]]})
    os.makedirs('loose')
    subprocess.run(['perl', os.path.join(ROOT, 'tests/lib/series.pl'), 'template-loose.wis', 'loose',
                    '30', 'getppid1:1', '0.03', '2', '15:1.06'], check=True)
    wis('import', 'loose.db', *sorted('loose/' + f for f in os.listdir('loose')))
    rc, _, err = wis('history', '--db', 'loose.db', '--by', 'date', '--html', 'loose.html')
    is_(rc, 0, 'loose history --html: exit 0, the step not among the latest runs %s' % err.strip())
    load(d, 'loose.html', 'loose history')
    cell = d.execute_script("return document.querySelector('#steps tbody tr td:nth-child(5)').textContent")
    is_(cell, '#9 series-009 (bisect #6 \u2192 #17)',
        'loose history: the step\'s run, and the runs to bisect around it')
    headline = d.execute_script("return document.querySelector('p.warn').textContent")
    ok(headline.endswith(' 90 % sure it lies between run series-006 (2026-01-01T00:05:00Z) and run '
                         'series-017 (2026-01-01T00:16:00Z): bisect there.'),
       'loose history: the headline says where the largest step may lie (%r)' % headline)
    d.execute_script("document.querySelector('#steps tbody tr td:nth-child(2)').click()")
    panel = d.execute_script("return document.getElementById('step-compare').innerText")
    ok('90 % sure it lies between run series-006 (' in panel and
       ') and run series-017 (' in panel and '): bisect there;' in panel,
       'loose history: a click on the step says where it may lie (%r)' % panel[:400])


# Each would be markup, script or a hidden control if it reached the page as anything but text.
HOSTILE = ['x</script><script>window.__wis_ran=1</script>',
           '"><img src=x onerror="window.__wis_ran=1">',
           'y]]><!--z', 'a\u009b31mb\u009d0;c', 'b\u202ed\u2066e\u2028f']


def hostile(d):
    """Every string of the records hostile: test names, run id, kernel,
    host and a label."""
    tests = {name: [[1e6], [1.2e6], [9e5]] for name in HOSTILE}
    for i in range(1, 7):
        write_run('x%d.wis' % i, HOSTILE[i % len(HOSTILE)] + str(i), HOSTILE[0] + str(i),
                  {t: [[v[0] * (0.5 if i >= 4 and t == HOSTILE[1] else 1)] for v in c]
                   for t, c in tests.items()}, host=HOSTILE[1])
        wis('import', 'x.db', '--label', 'tag=' + HOSTILE[i % len(HOSTILE)], 'x%d.wis' % i)
    pages = [('report', ['report', '--html', 'x-report.html', 'x1.wis', 'x2.wis']),
             ('compare', ['compare', '--html', 'x-compare.html', 'x1.wis', 'x2.wis', '--', 'x5.wis']),
             ('history', ['history', '--db', 'x.db', '--min-step', '1', '--html', 'x-history.html'])]
    for kind, args in pages:
        rc, _, err = wis(*args)
        ok(os.path.exists(args[args.index('--html') + 1]),
           'hostile strings: wis %s --html wrote its page (exit %d) %s' % (kind, rc, err.strip()[:200]))
        load(d, args[args.index('--html') + 1], 'hostile strings, ' + kind, False)
        found = d.execute_script('''return {
            img: document.querySelectorAll('img').length,
            scripts: document.scripts.length,
            ran: window.__wis_ran === 1,
            text: document.body.innerText}''')
        ok(found['img'] == 0 and found['scripts'] == 3 and not found['ran'],
           'hostile strings, %s: no element made of them, nothing ran (%d img, %d scripts)'
           % (kind, found['img'], found['scripts']))
        ok('x</script><script>window.__wis_ran=1</script>' in found['text'] and
           '"><img src=x onerror="window.__wis_ran=1">' in found['text'],
           'hostile strings, %s: shown as text' % kind)
        ok(not any(c in found['text'] for c in '\u009b\u009d\u202e\u2066') and
           'a?31mb?0;c' in found['text'],
           'hostile strings, %s: C1 controls and bidi overrides shown as ?, as on a terminal' % kind)


sys.exit(main())
