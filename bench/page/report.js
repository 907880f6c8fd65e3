/* ---- wis report --html: a chart per test, a curve per run, mode and repeat ---- */

/* The task counts x with a margin either side. */
function taskRange(x) {
	const pad = 0.05 * (x[x.length - 1] - x[0]) + 0.3;
	return [x[0] - pad, x[x.length - 1] + pad];
}

function kernelColors(runs) {
	const kernels = [...new Set(runs.map(r => r.kernel ?? '?'))];
	return r => palette[kernels.indexOf(r.kernel ?? '?') % palette.length];
}

/* The keys a curve is filtered by (filters.js). */
function curveKeys(c) {
	return { mode: c.mode, kernel: data.runs[c.run].kernel ?? '?' };
}

function reportChart(div, t) {
	const runs = data.runs, few = t.curves.length <= 12;
	const byKernel = kernelColors(runs);
	const color = (c, k) => few ? palette[(runs.length > 1 ? c.run : k) %
		palette.length] : byKernel(runs[c.run]);
	const series = [], asides = [];
	let top = 0;

	t.curves.forEach((c, k) => {
		const r = runs[c.run];
		const label = (runs.length > 1 ? r.id + ' ' : '') + c.mode +
			(c.repeat ? ' #' + (c.repeat + 1) : '');
		const where = i => [runName(r), c.mode + ', ' + t.x[i] + ' tasks' +
			(c.repeat ? ', repeat ' + (c.repeat + 1) : '')];
		series.push({
			keys: curveKeys(c), label: label, stroke: color(c, k), values: c.y,
			dash: few && c.mode === 'threads' && runs.length > 1 ? [6, 3] : undefined,
			info: i => where(i).concat(['ops/s: ' + rate(c.y[i]),
				'efficiency: ' + (c.eff[i] === null ? '-' : c.eff[i].toFixed(2)),
				'idle: ' + (c.idle[i] === null ? '-' : c.idle[i].toFixed(1) + ' %')]),
		});
		const aside = asideSeries(color(c, k), t.x.length, c.aside,
			i => where(i).concat(['recorded ops/s: ' + rate(c.aside.y[c.aside.at.indexOf(i)])]));
		if (aside)
			asides.push(Object.assign(aside, { keys: curveKeys(c) }));
		top = Math.max(top, ...c.y.filter(v => v !== null));
	});
	/* Linear from each curve's 1-task rate, or each mode's median (C's). */
	const at1 = t.x.indexOf(1);
	const refs = few ? t.curves.map((c, k) => [series[k].label, series[k].stroke,
		at1 < 0 ? null : c.y[at1], curveKeys(c)]) :
		items(t.linear).map(l => [l.mode, '#777', l.rate, { mode: l.mode }]);
	for (const [label, stroke, base, keys] of refs) {
		if (base === null)
			continue;
		/* Cut where it leaves the frame that holds it at the first step. */
		const cap = Math.max(top, at1 + 1 < t.x.length ? base * t.x[at1 + 1] : 0) * 1.05;
		series.push({ keys: keys, label: 'linear ' + label + (few ? '' : ' (median 1-task rate)'),
			stroke: stroke, dash: [2, 4], width: 1, ref: true,
			values: t.x.map(x => base * x <= cap ? base * x : null) });
	}
	const marks = items(t.marks);
	chart(div, {
		kind: 'report', title: t.test, x: t.x, xLabel: 'tasks', yLabel: 'ops/s',
		xSplits: t.x.length <= 24 ? () => t.x : undefined,
		xValues: (u, v) => v.map(x => String(x)),
		xRange: taskRange(t.x), zero: true,
		series: series, asides: asides,
		/* A fleet's hundreds of marks would hide the curves: its list tells them. */
		annotate: u => marks.length <= 60 && marks.forEach(m => {
			const wall = m.wall === 1, at = wall ? m.to : m.from;
			const c = t.curves[m.curve], i = t.x.indexOf(at);
			if (i < 0 || c.y[i] === null || (marks.length > 24 && !wall))
				return;
			/* With few marks, the symbol that grew there names itself. */
			const grew = marks.length <= 8 && m.growth >= 0 ?
				' ' + data.strings[m.growth].trim().split(' ')[0] : '';
			marker(u, at, c.y[i], 'y', wall ? '#b00020' : '#e67e00',
				marks.length > 24 ? null : (wall ? 'wall ' + pct(1 - m.size, 0) : 'knee') + grew,
				wall ? 'circle' : 'diamond', !wall);
		}),
	});
}

function markGrowth(m) {
	return m.growth < 0 ? null : data.strings[m.growth];
}

function markText(t, m) {
	const c = t.curves[m.curve], r = data.runs[c.run];
	const what = m.wall ?
		'wall: ' + m.from + ' \u2192 ' + m.to + ' tasks falls ' + (100 * m.size).toFixed(0) + ' %' :
		'knee at ' + m.from + ' tasks (' + m.size.toFixed(2) + ' of linear per task added after it)';
	return (data.runs.length > 1 ? r.id + ' ' : '') + c.mode + ': ' + what +
		(markGrowth(m) ? ';' + markGrowth(m).replace(/;$/, '') : '');
}

/* Many marks: one line per kind, step and mode, with how many curves. */
function markLines(t) {
	const marks = items(t.marks);
	if (marks.length <= 10)
		return el('ul', 'marks', ...marks.map(m => filtered(el('li', null, markText(t, m)),
			curveKeys(t.curves[m.curve]))));
	const groups = new Map();
	for (const m of marks) {
		const key = [m.wall, t.curves[m.curve].mode, m.from, m.to].join(' ');
		const g = groups.get(key) || { m: m, n: 0, lo: Infinity, hi: -Infinity, growth: new Map() };
		g.n++;
		g.lo = Math.min(g.lo, m.size);
		g.hi = Math.max(g.hi, m.size);
		if (markGrowth(m))
			g.growth.set(markGrowth(m), (g.growth.get(markGrowth(m)) || 0) + 1);
		groups.set(key, g);
	}
	const lines = [...groups.values()].sort((x, y) => y.n - x.n).map(g => {
		const m = g.m, mode = t.curves[m.curve].mode;
		const top = [...g.growth].sort((x, y) => y[1] - x[1])[0];
		return filtered(el('li', null, mode + ', ' + g.n + ' curves: ' + (m.wall ?
			'wall: ' + m.from + ' \u2192 ' + m.to + ' tasks falls ' + (100 * g.lo).toFixed(0) +
			'-' + (100 * g.hi).toFixed(0) + ' %' : 'knee at ' + m.from + ' tasks (' +
			g.lo.toFixed(2) + ' to ' + g.hi.toFixed(2) + ' of linear per task added after it)') +
			(top ? '; in ' + top[1] + ' of them' + top[0].replace(/;$/, '') : '')), { mode: mode });
	});
	return folded(marks.length + ' knees and walls, in ' + lines.length + ' kinds',
		el('ul', 'marks', ...lines));
}

function reportPage() {
	const walls = data.tests.filter(t => t.marks.wall.includes(1));

	page.appendChild(el('h1', null, 'wis report'));
	page.appendChild(el('p', 'lead', data.runs.length + (data.runs.length === 1 ?
		' run, ' : ' runs, ') + data.tests.length + ' tests; ' + walls.length +
		' with a wall (the rate falls as tasks are added), shown first. ' +
		'Per test: ops/s against tasks, a curve per run and mode; a dotted line is ' +
		'linear scaling from the 1-task rate, cut a little above the frame the curves and ' +
		'its first step need; ' +
		'\u25c7 marks the knee, \u25cb a wall. Hover a point for its efficiency and idle time; ' +
		'drag across a chart to zoom, double-click to zoom out.'));
	add(page, asideNote());
	add(page, filterBar([['test', data.tests.map(t => t.test)],
		['mode', distinct(data.tests.flatMap(t => t.curves), c => c.mode)],
		['kernel', distinct(data.runs, r => r.kernel ?? '?')]]));
	page.appendChild(runsTable(data.runs));
	page.appendChild(auditSection(data.runs));
	if (data.tests.some(t => t.curves.length > 12)) {
		const color = kernelColors(data.runs);
		const kernels = new Map();
		data.runs.forEach(r => kernels.set(r.kernel ?? '?', (kernels.get(r.kernel ?? '?') || 0) + 1));
		page.appendChild(el('p', 'note', 'Where a test has more than 12 curves, each is ' +
			'drawn in its kernel\'s colour: ', ...[...kernels].map(([k, n], i) => {
			const s = el('span', null, (i ? ', ' : '') + k + ' (' + n + ' runs)');
			s.style.color = color({ kernel: k });
			return s;
		})));
	}
	data.tests.forEach((t, k) => {
		const h = el('h2', null, t.test);
		if (t.marks.wall.includes(1))
			h.appendChild(el('span', 'badge', 'wall'));
		else if (t.marks.wall.length)
			h.appendChild(el('span', 'badge knee', 'knee'));
		const div = chartBox('test-' + k);
		page.appendChild(filtered(el('section', null, h, div, markLines(t)), { test: t.test,
			mode: distinct(t.curves, c => c.mode),
			kernel: distinct(t.curves, c => curveKeys(c).kernel) }));
		later(div, () => reportChart(div, t));
	});
}
