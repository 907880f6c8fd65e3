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
controls, bidi overrides, right-to-left, 240 characters) must show as
text and run nothing; on each kind of page, at 400 px in the dark
scheme, the filters (set from the keyboard) narrow its rows, sections
and curves and bring them back, fit the width and read at a contrast
of 4.5 or more, and a history past --budget badges each test
undecided (time), whole and legible.  A
screenshot of each kind is kept in the test's scratch directory,
OUT/tests/73-html-page/, and its path printed."""
import csv
import json
import os
import random
import re
import shlex
import shutil
import subprocess
import sys
import time
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
    from selenium.webdriver.common.keys import Keys
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


def write_run(path, run, kernel, tests, repeats=1, host='box', cpu='test-cpu', noisy=()):
    """One run: per test (name -> rate at 1, 2, 4 tasks of each repeat),
    processes at those rates and threads at 0.9 of them, the points
    (test, mode, tasks) or (test, mode, tasks, repeat) of noisy noisy;
    returns the rates written, keyed."""
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
                    if (test, mode, tasks) in noisy or (test, mode, tasks, rep) in noisy:
                        recs[-1].update(status='noisy', others_pct=40.0, message='others took 40.0 '
                                        '+- 2.0 % of the CPUs of the point during its samples')
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


# ---- The browser: the page driven through its DOM, as a user would ----

def browser():
    o = Options()
    o.binary_location = CHROMIUM
    for a in ('--headless=new', '--no-sandbox', '--disable-gpu', '--window-size=1200,1000',
              '--disable-background-networking', '--disable-component-update', '--hide-scrollbars',
              '--no-first-run', '--disable-sync', '--disable-default-apps',
              '--user-data-dir=' + os.path.join(SCRATCH, 'profile')):
        o.add_argument(a)
    o.set_capability('goog:loggingPrefs', {'browser': 'ALL', 'performance': 'ALL'})
    d = webdriver.Chrome(service=Service(DRIVER), options=o)
    d.execute_cdp_cmd('Browser.setDownloadBehavior', {'behavior': 'allow', 'downloadPath': SCRATCH})
    return d


def scheme(d, dark):
    d.execute_cdp_cmd('Emulation.setEmulatedMedia', {'features': [
        {'name': 'prefers-color-scheme', 'value': 'dark' if dark else 'light'}]})


def load(d, path, what, in_view=True, width=1200):
    """Open a page; checks its console and its network log.  The charts
    in view are drawn as the page opens, the rest as they come into
    view, or all before printing (beforeprint)."""
    url = 'file://' + os.path.abspath(path)
    d.set_window_size(width, 1000)
    d.get('about:blank')
    d.get_log('browser')
    d.get_log('performance')
    d.get(url)
    if not ok(d.execute_script("return document.querySelector('h1') !== null"),
              '%s: the page\'s script ran' % what):
        return
    if in_view:
        # Drawn in the frames after load: on a busy machine that is a
        # moment later, so wait for the first (up to 10 s) rather than
        # read once.  A long table above it (a compare's verdicts) puts
        # the first chart below the fold: scrolled to, as a reader would.
        d.execute_script("document.querySelector('.chart').scrollIntoView()")
        shown = 0
        for _ in range(100):
            shown = d.execute_script("return document.querySelectorAll('.chart.drawn').length")
            if shown:
                break
            time.sleep(0.1)
        ok(shown >= 1, '%s: the first chart is drawn as it comes into view (%d)' % (what, shown))
    d.execute_script("window.dispatchEvent(new Event('beforeprint'))")
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


def data(d):
    """The page's data, as its wis-data block holds it."""
    return d.execute_script("return JSON.parse(document.getElementById('wis-data').textContent)")


# The drawn chart of a test (arguments[0]), found through the DOM.
FIND = '''const c = [...document.querySelectorAll('.chart.drawn')].find(c =>
    c.parentNode.querySelector('h2').firstChild.textContent === arguments[0]);
'''


def charts(d):
    """Each drawn chart: its test, the series and the points it draws."""
    return d.execute_script('''return [...document.querySelectorAll('.chart.drawn')].map(c =>
        [c.parentNode.querySelector('h2').firstChild.textContent, +c.dataset.series,
         +c.dataset.points])''')


def chart_box(d, title):
    """The plot area of the chart of a test, in the window."""
    return d.execute_script(FIND + '''c.scrollIntoView({block: 'center'});
        const b = c.querySelector('.u-over').getBoundingClientRect();
        return {left: b.left, top: b.top, width: b.width, height: b.height}''', title)


def tip_of(d, title):
    return d.execute_script(FIND + '''const t = c.querySelector('.tip');
        if (t.style.display === 'none')
            return null;
        const b = t.getBoundingClientRect();
        return {text: t.textContent, left: b.left, right: b.right}''', title)


def move(d, x, y):
    actions = ActionBuilder(d)
    actions.pointer_action.move_to_location(int(x), int(y))
    actions.perform()


def hover(d, title, frac, want):
    """The mouse at frac of the width of a test's chart, down its height
    until the hover names want: the hover (text and where it is)."""
    box = chart_box(d, title)
    x = box['left'] + frac * box['width']
    seen = None
    for k in range(0, int(box['height']) + 1, 8):
        move(d, x, box['top'] + k)
        t = tip_of(d, title)
        if t and want in t['text']:
            return t
        seen = t or seen
    return seen or {'text': '', 'left': 0, 'right': 0}


def drag(d, x0, y0, x1, y1):
    actions = ActionBuilder(d)
    p = actions.pointer_action
    p.move_to_location(int(x0), int(y0))
    p.pointer_down()
    for k in range(1, 6):
        p.move_to_location(int(x0 + (x1 - x0) * k / 5), int(y0 + (y1 - y0) * k / 5))
    p.pointer_up()
    actions.perform()


def colour_rows(d, title, rgb, x):
    """The rows (CSS px from the plot's top) of the chart's canvas at x
    (CSS px from the plot's left) whose pixel is near colour rgb."""
    return d.execute_script(FIND + '''const cv = c.querySelector('canvas'), over = c.querySelector('.u-over');
        const r = devicePixelRatio, ctx = cv.getContext('2d');
        const px = Math.round((over.offsetLeft - cv.offsetLeft + arguments[2]) * r);
        const col = ctx.getImageData(px, 0, 1, cv.height).data, rows = [];
        for (let y = 0; y < cv.height; y++) {
            const [R, G, B] = [col[4 * y], col[4 * y + 1], col[4 * y + 2]];
            if (Math.abs(R - arguments[1][0]) + Math.abs(G - arguments[1][1]) +
                Math.abs(B - arguments[1][2]) < 60)
                rows.push(y / r - (over.offsetTop - cv.offsetTop));
        }
        return rows''', title, rgb, x)


def shot(d, path, what, width=1200):
    d.execute_script('window.scrollTo(0, 0)')
    height = d.execute_script('return document.body.scrollHeight')
    d.set_window_size(width, min(height + 40, 6000))
    d.save_screenshot(path)
    d.set_window_size(width, 1000)
    diag('screenshot of the %s page: %s' % (what, path))


def page_text(d):
    return d.execute_script('return document.body.innerText')


def cells(d, selector):
    return d.execute_script('''const r = document.querySelector(arguments[0]);
        return r ? [...r.children].map(c => c.textContent) : []''', selector)


def click(d, selector):
    d.execute_script('document.querySelector(arguments[0]).click()', selector)


def panel(d):
    return d.execute_script('''const p = document.getElementById('step-compare');
        return p.style.display === 'none' ? '' : p.innerText''')


def aside_note(d):
    return d.execute_script("const p = document.querySelector('p.aside'); return p ? p.textContent : ''")


# ---- The pages ----

def main():
    shutil.rmtree(SCRATCH, ignore_errors=True)
    os.makedirs(SCRATCH)
    os.chdir(SCRATCH)
    rnd = random.Random(45)

    # Two runs: lock1 hits a wall at 4 tasks, getppid1 scales; r2's
    # getppid1 at 4 tasks is noisy.
    runs = {}
    for run, kernel, f in (('r1', '6.1.0', 1.0), ('r2', '6.2.0', 0.8)):
        runs[run] = write_run(run + '.wis', run, kernel, {
            'getppid1': [[1e6 * f], [2e6 * f], [4e6 * f]],
            'lock1': [[1.0e6 * f], [1.5e6 * f], [0.9e6 * f]],
        }, noisy={('getppid1', 'processes', 4)} if run == 'r2' else ())
    wis('import', 'runs.db', '--label', 'board=a', 'r1.wis', 'r2.wis')

    rc = subprocess.run([WIS, 'report', '--html', 'image.html', 'r1.wis'],
                        capture_output=True, text=True)
    ok(rc.returncode == 2 and 'no page library' in rc.stderr,
       'the image\'s wis, which has no page library, says so (exit %d)' % rc.returncode)
    fields()

    d = browser()
    try:
        for source, args in (('files', ['r1.wis', 'r2.wis']), ('--db', ['--db', 'runs.db'])):
            rc, _, err = wis('report', '--html', 'report.html', *args)
            is_(rc, 0, 'wis report --html from %s: exit 0 %s' % (source, err.strip()))
            load(d, 'report.html', 'report from ' + source)
            is_(charts(d), [['lock1', 4, 12], ['getppid1', 4, 11]],
                'report from %s: the test with a wall first; per test a curve per run '
                'and mode (4), every point measured drawn (12, 11: one set aside)' % source)
            tip = hover(d, 'lock1', (2 - 0.55) / 3.9, 'ops/s: ')
            want = '{:,}'.format(round(runs['r1'][('lock1', 'processes', 2, 0)]))
            ok('ops/s: ' + want in tip['text'] and 'efficiency: 0.75' in tip['text'],
               'report from %s: hovering r1\'s lock1 at 2 tasks shows %s ops/s and its '
               'efficiency (%r)' % (source, want, tip['text']))
            ok('1 point set aside, not data: 1 noisy' in aside_note(d),
               'report from %s: the page says above its charts how many points were set '
               'aside and why (%r)' % (source, aside_note(d)))
            tip = hover(d, 'getppid1', 1.0 - 0.45 / 3.9, 'set aside')
            ok('set aside, noisy' in tip['text'] and 'others took 40.0' in tip['text'] and
               d.execute_script(FIND + 'return c.dataset.aside', 'getppid1') == '1',
               'report from %s: the noisy point drawn hollow, its reason on hover (%r)'
               % (source, tip['text']))
            is_(keys_of(data(d), set()) - PAGE_KEYS, set(), 'report from %s: every key of the '
                'page\'s data is a field of the page field table' % source)
            if source == 'files':
                ok('wall: 2 \u2192 4 tasks falls 40 %' in page_text(d),
                   'report: the wall is named with its size')
                shot(d, os.path.join(SCRATCH, 'report.png'), 'report')

        # Two kernels, 5 repeats a side: lock1 30 % slower on B, one of
        # B's open1 repeats at 2 tasks noisy.
        a = {t: [jitter(rnd, v, 5) for v in c] for t, c in (
            ('getppid1', (1e6, 2e6, 4e6)), ('lock1', (1e6, 1.6e6, 2e6)), ('open1', (5e5, 9e5, 1.6e6)))}
        b = {t: [[x * (0.7 if t == 'lock1' else 1) for x in jitter(rnd, v[0], 5)] for v in c]
             for t, c in a.items()}
        write_run('a.wis', 'ra', '6.1.0', a, repeats=5)
        write_run('b.wis', 'rb', '6.2.0', b, repeats=5, noisy={('open1', 'processes', 2, 3)})
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
            first = cells(d, '.wide tbody tr')
            ok(first[0] == 'lock1' and first[7] == 'regressed',
               'compare from %s: the verdict table\'s first row is lock1, regressed (%r)'
               % (source, first))
            click(d, '.wide tbody tr a')
            is_(d.execute_script('return document.querySelector(location.hash).parentNode'
                                 '.querySelector("h2").firstChild.textContent'), 'lock1',
                'compare from %s: the row links to lock1\'s chart' % source)
            tip = hover(d, 'lock1', (1 - 0.55) / 3.9, 'A: ')
            ok(tip['text'].startswith('A: run ra, kernel 6.1.0') and 'median ops/s: ' in tip['text'],
               'compare from %s: hovering A at 1 task shows its median (%r)' % (source, tip['text']))
            marked = d.execute_script('''return [...document.querySelectorAll('.wide tbody tr')]
                .filter(r => r.textContent.includes('1 set aside'))
                .map(r => [...r.children].slice(0, 3).map(c => c.textContent).join(' '))''')
            ok('1 point set aside, not data: 1 noisy' in aside_note(d) and marked == ['open1 processes 2'],
               'compare from %s: the noisy repeat counted above the charts and in its row (%r, %r)'
               % (source, aside_note(d), marked))
            tip = hover(d, 'open1', (2 - 0.55) / 3.9, 'set aside')
            ok('set aside, noisy' in tip['text'],
               'compare from %s: the noisy repeat drawn hollow, its reason on hover (%r)'
               % (source, tip['text']))
            is_(keys_of(data(d), set()) - PAGE_KEYS, set(), 'compare from %s: every key of the '
                'page\'s data is a field of the page field table' % source)
            if source == 'files':
                shot(d, os.path.join(SCRATCH, 'compare.png'), 'compare')
                ok(choose(d, 'verdict', 'regressed'), 'compare: the verdict filter takes '
                   '"regressed" from the keyboard')
                got = d.execute_script(SHOWN)
                ok(got['rows'] == ['lock1'] * 6 and got['hidden'] == 12 and
                   got['sections'] == ['lock1'], 'compare: the verdict filter leaves the 6 '
                   'regressed rows, lock1\'s, and its chart (%r)' % got)

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
        headline = d.execute_script("return document.querySelector('p.headline').textContent")
        ok(headline.startswith('Largest step: lock1 processes') and
           'run #7 h07 (n 7, kernel 6.7.0) and run #8 h08 (n 8, kernel 6.8.0)' in headline,
           'history: the page opens on the largest step, its size and its two kernels (%r)' % headline)
        first = cells(d, '#steps tbody tr')
        ok(first[:1] == ['lock1'] and first[3:5] == ['7 \u2192 8', '#8 h08'],
           'history: the changes\' first row is the planted step, lock1 between runs 7 and 8 (%r)'
           % first)
        click(d, '#steps tbody tr td:nth-child(2)')
        text = panel(d)
        ok(text.startswith('step: lock1 processes') and 'old level: runs #1 h01 to #7 h07' in text and
           'new level: runs #8 h08 to #14 h14' in text and '\u221230' in text,
           'history: a click on the step compares its two levels, all runs of each (%r)' % text[:300])
        tip = hover(d, 'lock1', 7.5 / 14, 'h08')
        ok('#8 h08' in tip['text'] and 'n: 8, kernel 6.8.0' in tip['text'] and
           'labels: n=8' in tip['text'] and 'ops/s' in tip['text'] and
           'samples \u00b11 %' in tip['text'],
           'history: hovering run 8 names the run, its order, kernel, labels, value and spread (%r)'
           % tip['text'])
        shot(d, os.path.join(SCRATCH, 'history.png'), 'history')

        demo(d)
        drift(d)
        bisect(d)
        hostile(d)
    finally:
        d.quit()
        # The pages and screenshots stay; the browser's profile need not.
        shutil.rmtree(os.path.join(SCRATCH, 'profile'), ignore_errors=True)
    print('1..%d' % count)
    return 1 if failed else 0


# The page field table's keys (wis emit --help-page-fields).
PAGE_KEYS = set()


def fields():
    """docs/records.md's table of the page's fields is the one wis emit
    --help-page-fields prints from page_fields.def; each page's data is
    checked to hold only keys of it."""
    _, out, _ = wis('emit', '--help-page-fields')
    with open(os.path.join(ROOT, 'docs/records.md')) as f:
        doc = f.read()
    start = doc.find('| object | field | meaning |')
    table = doc[start:doc.find('\n\n', start)].strip() + '\n' if start >= 0 else ''
    is_(table, out, "docs/records.md's page field table is the one wis emit --help-page-fields prints")
    PAGE_KEYS.update(line.split('`')[3] for line in out.splitlines()[2:])


def keys_of(v, out):
    if isinstance(v, dict):
        for k, x in v.items():
            out.add(k)
            keys_of(x, out)
    elif isinstance(v, list):
        for x in v:
            keys_of(x, out)
    return out


def demo(d):
    """The demonstration series of bench/scripts/demo-series, as a user
    opens it, at 1400 px light and 400 px dark."""
    r = subprocess.run([os.path.join(ROOT, 'bench/scripts/demo-series'), '--wis', HOST, 'demo.db'],
                       capture_output=True, text=True)
    is_(r.returncode, 0, 'demo-series writes its store %s' % r.stderr.strip())
    rc, out, err = wis('history', '--db', 'demo.db', '--by', 'date', '--html', 'demo.html')
    is_(rc, 1, 'demo history --html: exit 1, the alarm up %s' % err.strip()[:200])
    for width, dark in ((1400, False), (400, True)):
        what = 'demo at %d px%s' % (width, ', dark' if dark else '')
        scheme(d, dark)
        load(d, 'demo.html', what, width == 1400, width=width)
        wide = d.execute_script('return [document.documentElement.scrollWidth, innerWidth]')
        ok(wide[0] <= wide[1], '%s: no horizontal scroll (%d px of content in %d)' % (what, *wide))
        colours = d.execute_script('''const s = getComputedStyle(document.body);
            return [s.backgroundColor, s.color]''')
        lum = [sum(int(x) for x in c[c.index('(') + 1:c.index(')')].split(',')[:3]) / 3
               for c in colours]
        ok((lum[0] < 60 and lum[1] > 180) if dark else (lum[0] > 200 and lum[1] < 80),
           '%s: the page\'s colours follow the scheme (%r)' % (what, colours))
        headline = d.execute_script("return document.querySelector('p.headline').textContent")
        ok(headline.startswith('Newest alarm, step: tcp_rr1 processes 1 tasks on demo-a') and
           'run #62 demo-a-062' in headline,
           '%s: the headline names the newest alarm, tcp_rr1 from run 62, not the largest '
           'step (%r)' % (what, headline[:200]))
        rows = d.execute_script('''return [...document.querySelectorAll('#steps tbody tr')].map(r =>
            [r.children[0].textContent, !!r.querySelector('.badge.alarm')])''')
        ok(rows[:3] == [['tcp_rr1', True], ['mmap1', True], ['mmap1', True]] and
           not any(a for _, a in rows[3:]),
           '%s: the changes that keep the alarm up first, the newest first (%r)' % (what, rows))
        ok('18 points set aside, not data: 17 noisy' in aside_note(d) and
           '1 run measured nothing clean: #34 demo-a-034' in aside_note(d),
           '%s: the points set aside counted above the charts, the empty run named (%r)'
           % (what, aside_note(d)))
        tip = hover(d, 'tcp_rr1', 1.0 - 0.5 / 76, '#64')
        ok(tip['text'] and tip['right'] <= width and tip['left'] >= 0,
           '%s: the hover of the last run stays on screen (%r)' % (what, tip))
        # Keyboard: the first change focused (as Tab would), Enter opens its two levels.
        d.execute_script("document.querySelector('#steps tbody tr').focus()")
        d.switch_to.active_element.send_keys(Keys.ENTER)
        text = panel(d)
        ok(text.startswith('step: tcp_rr1 processes 1 tasks on demo-a') and
           'old level: runs #1 demo-a-001 to #61 demo-a-061' in text and
           'new level: runs #62 demo-a-062 to #64 demo-a-064' in text and
           'commit f714d8f5' in text and 'commit f55266ac' in text,
           '%s: Enter on the first change opens its two levels, the commits of both sides (%r)'
           % (what, text[:400]))
        if width == 1400:
            command = d.execute_script("return document.querySelector('#step-compare pre.command')"
                                       ".textContent")
            r = subprocess.run([HOST] + shlex.split(command)[1:], capture_output=True, text=True)
            ok(r.returncode in (0, 1) and re.search(r'tcp_rr1 +processes +1 .*regressed', r.stdout),
               'demo: the panel\'s command compares the two levels from the store: tcp_rr1 '
               'regressed (%r, exit %d)' % (command[:80], r.returncode))
            is_(keys_of(data(d), set()) - PAGE_KEYS, set(), 'demo: every key of the page\'s '
                'data is a field of the page field table')
        shot(d, os.path.join(SCRATCH, 'demo-%d%s.png' % (width, '-dark' if dark else '')), what, width)
    scheme(d, False)
    load(d, 'demo.html', 'demo, zoomed', width=1400)
    # open1 processes/1 on A (the first colour) steps 2 % at run 21 of
    # demo-a (index 22 of 76 by date): at first a flat line, a drag
    # around it zooms in until the step shows.
    blue = (0x1f, 0x5f, 0xbf)

    def levels(box, step):
        at = [colour_rows(d, 'open1', blue, step + f * box['width']) for f in (-0.06, 0.06)]
        return [sorted(r)[len(r) // 2] if r else 0 for r in at]
    box = chart_box(d, 'open1')
    step = 22 / 76 * box['width']
    before = levels(box, step)
    drag(d, box['left'] + step - 0.2 * box['width'], box['top'] + min(before) - 8,
         box['left'] + step + 0.2 * box['width'], box['top'] + max(before) + 8)
    box = chart_box(d, 'open1')
    after = levels(box, 0.5 * box['width'])
    ok(abs(before[1] - before[0]) < 12 and after[1] - after[0] > 40,
       'demo: the 2 %% step of open1 is a few pixels at first (%.0f) and plain after a drag '
       'zooms in (%.0f px)' % (before[1] - before[0], after[1] - after[0]))
    shot(d, os.path.join(SCRATCH, 'demo-zoomed.png'), 'demo, open1 zoomed', 1400)
    # Filters: the threads series only; the CSV of what is shown.
    d.execute_script('''const s = document.querySelector('select[aria-label=mode]');
        s.value = 'threads'; s.dispatchEvent(new Event('change'))''')
    shown = d.execute_script('''return [...document.querySelectorAll('#steps tbody tr')]
        .filter(r => !r.hidden).map(r => r.children[0].textContent + ' ' + r.children[1].textContent)''')
    is_(shown, ['page_fault1 threads on demo-a'], 'demo: the mode filter leaves the threads changes')
    click(d, 'a.csv')
    for _ in range(50):
        if os.path.exists('wis-history.csv'):
            break
        time.sleep(0.1)
    rows = list(csv.reader(open('wis-history.csv'))) if os.path.exists('wis-history.csv') else []
    ok(rows and rows[0][:3] == ['#', 'run', 'date'] and len(rows) > 1 and
       {r[6] for r in rows[1:]} == {'threads'} and
       sum(r[-1] == 'noisy' for r in rows[1:]) == 3,
       'demo: the CSV download holds the shown series, threads only, noisy points marked '
       '(%d rows)' % len(rows))


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
    page = data(d)
    letter = next((page['series'][c['series']].get('machine') for c in page['changes']
                   if c['kind'] == 'drift'), None)
    machines = sorted({s.get('machine') for s in page['series']})
    ok(letter and len(machines) == 2 and letter in machines,
       'drifting history: its series are a machine\'s, named (%r of %r)' % (letter, machines))
    last = {r[7]: r for r, _ in rows}.get('drift', [])
    ok(len(rows) == 2 and last[:3] == ['dup1', 'processes on %s' % letter, '1'] and
       last[5].startswith('\u2212') and 17 <= float(last[5][1:-2]) <= 23,
       'drifting history: the drift listed, dup1 processes on %s 1 task, about 20 %% lower (%r)'
       % (letter, rows))
    ok(sorted(r[7] for r, _ in rows) == ['drift', 'step'] and all(alarm for _, alarm in rows),
       'drifting history: the step and the drift, among the latest runs, carry the alarm badge')
    click(d, '#steps tbody tr.drift td:nth-child(2)')
    text = panel(d)
    ok(text.startswith('drift: dup1 processes 1 tasks on %s' % letter) and
       'its first and last quarter' in text and 'old level: runs #' in text,
       'drifting history: a click on the drift compares its first quarter with its last (%r)'
       % text[:300])
    legend = d.execute_script(FIND + "return c.querySelector('.u-legend').textContent", 'dup1')
    ok(all('processes/1 on %s' % m in legend for m in machines),
       'drifting history: a series\' label names its machine (%r)' % legend)
    # In the plot, below the band of notes, the pixels of a decided
    # change's red (#b00020), which no curve of the palette has: the
    # drift's fitted line.
    hits = d.execute_script(FIND + '''const cv = c.querySelector('canvas'), over = c.querySelector('.u-over');
        const r = devicePixelRatio, top = Math.round((over.offsetTop - cv.offsetTop) * r);
        const p = cv.getContext('2d').getImageData(0, top, cv.width, cv.height - top).data;
        let hits = 0;
        for (let i = 0; i < p.length; i += 4)
            hits += p[i] > 140 && p[i] < 210 && p[i + 1] < 40 && p[i + 2] < 70;
        return hits''', 'dup1')
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
    is_(cells(d, '#steps tbody tr')[4:5], ['#9 series-009 (bisect #6 \u2192 #17)'],
        'loose history: the step\'s run, and the runs to bisect around it')
    headline = d.execute_script("return document.querySelector('p.headline').textContent")
    ok(headline.endswith(' 90 % sure it lies between run #6 series-006 (date 2026-01-01T00:05:00Z, '
                         'kernel 6.1.0) and run #17 series-017 (date 2026-01-01T00:16:00Z, '
                         'kernel 6.1.0): bisect there.'),
       'loose history: the headline says where the largest step may lie (%r)' % headline)
    click(d, '#steps tbody tr td:nth-child(2)')
    text = panel(d)
    ok('90 % sure it lies between run #6 series-006 (' in text and
       ') and run #17 series-017 (' in text and '): bisect there' in text,
       'loose history: a click on the step says where it may lie (%r)' % text[:400])


# Each would be markup, script or a hidden control if it reached the page as anything but text.
HOSTILE = ['x</script><script>window.__wis_ran=1</script>',
           '"><img src=x onerror="window.__wis_ran=1">',
           'y]]><!--z', 'a\u009b31mb\u009d0;c', 'b\u202ed\u2066e\u2028f',
           '\u05e9\u05dc\u05d5\u05dd-\u0645\u0631\u062d\u0628\u0627', 'long-' + 'x' * 240]


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
        scheme(d, True)
        load(d, args[args.index('--html') + 1], 'hostile strings, ' + kind, False, width=400)
        found = d.execute_script('''return {
            img: document.querySelectorAll('img').length,
            scripts: document.scripts.length,
            ran: window.__wis_ran === 1,
            wide: document.documentElement.scrollWidth <= innerWidth,
            text: document.body.innerText}''')
        ok(found['img'] == 0 and found['scripts'] == 3 and not found['ran'] and found['wide'],
           'hostile strings, %s: no element made of them, nothing ran (%d img, %d scripts), '
           'no horizontal scroll at 400 px' % (kind, found['img'], found['scripts']))
        ok('x</script><script>window.__wis_ran=1</script>' in found['text'] and
           '"><img src=x onerror="window.__wis_ran=1">' in found['text'],
           'hostile strings, %s: shown as text' % kind)
        ok(not any(c in found['text'] for c in '\u009b\u009d\u202e\u2066') and
           'a?31mb?0;c' in found['text'],
           'hostile strings, %s: C1 controls and bidi overrides shown as ?, as on a terminal' % kind)
        filters(d, kind)
    rc, _, err = wis('history', '--db', 'x.db', '--budget', '1e-9', '--html', 'x-budget.html')
    is_(rc, 0, 'hostile strings, history past --budget 1e-9 s: exit 0 %s' % err.strip()[:200])
    scheme(d, True)
    load(d, 'x-budget.html', 'hostile strings, history past --budget', False, width=400)
    badges = d.execute_script(CONTRAST + '''return [...document.querySelectorAll('h2 .badge')].map(b => {
        const r = b.getBoundingClientRect(), s = getComputedStyle(b);
        return [b.textContent + ' ' + Math.round(r.left) + '-' + Math.round(r.right), r.left >= 0 && r.right <= innerWidth && r.width > 0 &&
            b.scrollWidth <= b.clientWidth && b.scrollHeight <= b.clientHeight + 1,
            contrast(s.color, s.backgroundColor)]})''')
    ok(len(badges) == len(HOSTILE) and all(t.startswith('undecided (time) ') and whole and c >= 4.5
                                           for t, whole, c in badges),
       'hostile strings, history past --budget, 400 px dark: every test\'s badge says undecided '
       '(time), whole on screen, its text at a contrast of 4.5 or more (%r)' % badges[:2])
    shot(d, os.path.join(SCRATCH, 'budget-400-dark.png'), 'history past --budget, 400 px dark', 400)
    scheme(d, False)


# contrast(a, b): the WCAG contrast ratio of two CSS rgb() colours.
CONTRAST = '''const contrast = (a, b) => {
    const lum = c => c.match(/[\\d.]+/g).slice(0, 3).map(v => v / 255).map(v =>
        v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4)
        .reduce((s, v, i) => s + v * [0.2126, 0.7152, 0.0722][i], 0);
    const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05);
};
'''

# What the filters leave: the tests of the sections shown, the first
# and second cells of the rows shown of the filtered tables and how many
# are hidden,
# the curves shown, the status line.
SHOWN = '''const first = e => e.querySelector('h2').firstChild.textContent;
return {sections: [...document.querySelectorAll('section')].filter(s => !s.hidden).map(first),
    rows: [...document.querySelectorAll('.filtered tbody tr')].filter(r => !r.hidden)
        .map(r => r.children[0].textContent),
    modes: [...document.querySelectorAll('.filtered tbody tr')].filter(r => !r.hidden)
        .map(r => r.children[1].textContent),
    hidden: [...document.querySelectorAll('.filtered tbody tr')].filter(r => r.hidden).length,
    curves: [...document.querySelectorAll('.chart.drawn .u-legend .u-series')]
        .filter(l => !l.classList.contains('u-off')).map(l => l.textContent),
    status: document.querySelector('.filters .status').textContent}'''


def choose(d, label, value):
    """The filter label set to value from the keyboard, as a user would:
    its select focused (as Tab would), the arrow keys down its options."""
    d.execute_script("document.querySelector('select[aria-label=' + arguments[0] + ']').focus()",
                     label)
    for _ in range(12):
        if d.execute_script('return document.activeElement.value') == value:
            return True
        d.switch_to.active_element.send_keys(Keys.ARROW_DOWN)
    return False


def filters(d, kind):
    """The filters of a page of hostile strings, at 400 px dark, from the
    keyboard: the first row's test leaves its section and rows, Escape
    brings every one back, the mode filter leaves the threads curves;
    then the page at 1400 px."""
    what = 'hostile strings, %s, filters' % kind
    d.execute_script("window.dispatchEvent(new Event('beforeprint'))")
    every = d.execute_script(SHOWN)
    test = every['rows'][0] if every['rows'] else every['sections'][0]
    ok(choose(d, 'test', test), '%s: the test filter\'s select takes a test named %r from '
       'the keyboard' % (what, test[:20]))
    one = d.execute_script(SHOWN)
    ok(one['sections'] == [test] and set(one['rows']) <= {test} and
       one['hidden'] == len(every['rows']) - len(one['rows']) and
       (kind == 'report' or one['rows']) and one['status'].endswith('test ' + test),
       '%s: one test chosen, its section and rows alone are shown, the status says so (%r)'
       % (what, {k: v for k, v in one.items() if k != 'curves'}))
    colours = d.execute_script(CONTRAST + '''const b = document.querySelector('.filters');
        const body = getComputedStyle(document.body).backgroundColor;
        return [...b.querySelectorAll('label, button, select, .status')].map(e => {
            const s = getComputedStyle(e), bg = s.backgroundColor;
            return contrast(s.color, bg.endsWith(', 0)') ? body : bg)})''')
    ok(colours and min(colours) >= 4.5,
       '%s: the filters\' text at a contrast of 4.5 or more in the dark scheme (%r)' % (what, colours))
    wide = d.execute_script('''const b = document.querySelector('.filters').getBoundingClientRect();
        return [document.documentElement.scrollWidth, innerWidth, b.right]''')
    ok(wide[0] <= wide[1] and wide[2] <= wide[1],
       '%s: the filters fit 400 px, the page does not scroll sideways (%r)' % (what, wide))
    shot(d, os.path.join(SCRATCH, 'x-%s-filtered-400-dark.png' % kind), what + ', 400 px dark', 400)
    d.execute_script("document.querySelector('select[aria-label=test]').focus()")
    d.switch_to.active_element.send_keys(Keys.ESCAPE)
    back = d.execute_script(SHOWN)
    is_(back, every, '%s: Escape in a filter brings every section, row and curve back' % what)
    choose(d, 'mode', 'threads')
    threads = d.execute_script(SHOWN)
    curves = threads['curves']
    ok(curves and all('threads' in c for c in curves) and len(curves) < len(every['curves']) and
       all(m.startswith('threads') for m in threads['modes']) and
       (kind == 'report' or 0 < len(threads['rows']) < len(every['rows'])),
       '%s: the mode filter leaves the threads rows (%d of %d) and curves (%d of %d)'
       % (what, len(threads['rows']), len(every['rows']), len(curves), len(every['curves'])))
    click(d, '.filters button')
    is_(d.execute_script(SHOWN), every, '%s: "clear the filters" brings them back' % what)
    # The same page in a window made wide (the charts follow it).
    d.set_window_size(1400, 1000)
    time.sleep(0.2)
    wide = d.execute_script('''return [document.documentElement.scrollWidth, innerWidth,
        ...[...document.querySelectorAll('.filtered')].map(t => t.scrollWidth - t.clientWidth)]''')
    ok(wide[0] <= wide[1] and all(w <= 0 for w in wide[2:]),
       '%s at 1400 px dark: no horizontal scroll, of the page or of its table, the name of 240 '
       'characters broken in its cell (%r)' % (what, wide))
    shot(d, os.path.join(SCRATCH, 'x-%s-1400-dark.png' % kind), what + ', 1400 px dark', 1400)
    scheme(d, False)


sys.exit(main())
