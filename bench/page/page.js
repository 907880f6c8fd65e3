/*
 * The page of wis report, compare and history --html: it reads the JSON
 * of the page's wis-data block (bench/reader/page.c, view_html_*.c) and builds the
 * tables and the charts (uPlot, inlined before this script).  Every
 * string of the data is inserted as a text node, never as HTML.  Charts
 * are drawn as they come into view; window.wisPage lists the drawn ones
 * for the browser tests (tests/73-html-page.t).
 */
(function () {
	'use strict';

	const data = JSON.parse(document.getElementById('wis-data').textContent);
	const page = document.getElementById('page');
	const palette = ['#1f5fbf', '#d1495b', '#2a9d3f', '#8e44ad', '#e67e00',
		'#00838f', '#6d4c41', '#c2185b', '#546e7a', '#9e9d24'];

	/* ---- Elements, text only ---- */

	function add(e, kid) {
		if (kid === null || kid === undefined)
			return;
		if (typeof kid === 'string' || typeof kid === 'number')
			e.appendChild(document.createTextNode(String(kid)));
		else
			e.appendChild(kid);
	}

	function el(tag, cls, ...kids) {
		const e = document.createElement(tag);

		if (cls)
			e.className = cls;
		for (const k of kids)
			add(e, k);
		return e;
	}

	function td(text, cls) {
		return el('td', cls, text);
	}

	function table(head, rows) {
		const t = el('table');
		const tr = el('tr');

		for (const h of head)
			tr.appendChild(el('th', null, h));
		t.appendChild(el('thead', null, tr));
		const body = el('tbody');
		for (const r of rows)
			body.appendChild(r);
		t.appendChild(body);
		return t;
	}

	function folded(summary, ...kids) {
		return el('details', null, el('summary', null, summary), ...kids);
	}

	/* Folded, its content made when first opened: a fleet's long tables. */
	function foldedLater(summary, make) {
		const d = el('details', null, el('summary', null, summary));
		d.addEventListener('toggle', () => {
			if (d.open && d.children.length === 1)
				add(d, make());
		});
		return d;
	}

	/* ---- Numbers ---- */

	function rate(v) {
		return v === null || v === undefined ? '-' :
			Math.round(v).toLocaleString('en-US');
	}

	function pct(ratio, digits = 1) {
		if (ratio === null || ratio === undefined || !isFinite(ratio))
			return '-';
		const p = 100 * (ratio - 1);
		return (p >= 0 ? '+' : '\u2212') + Math.abs(p).toFixed(digits) + ' %';
	}

	/* "1 step", "2 steps". */
	function count(n, noun) {
		return n + ' ' + noun + (n === 1 ? '' : 's');
	}

	function si(v) {
		const a = Math.abs(v);
		if (a >= 1e9)
			return +(v / 1e9).toFixed(2) + 'G';
		if (a >= 1e6)
			return +(v / 1e6).toFixed(2) + 'M';
		if (a >= 1e3)
			return +(v / 1e3).toFixed(1) + 'k';
		return +v.toFixed(2) + '';
	}

	function median(v) {
		const s = v.filter(x => x !== null).sort((a, b) => a - b);
		return s.length ? s[s.length >> 1] : null;
	}

	/* ---- Runs ---- */

	function runName(r) {
		return 'run ' + r.id + ', kernel ' + (r.kernel ?? '?') +
			(r.labels ? ' (' + r.labels + ')' : '');
	}

	function runsTable(runs) {
		const make = () => table(['run', 'kernel', 'CPU', 'host', 'date', 'labels', 'status'],
			runs.map(r => el('tr', null, td(r.id), td(r.kernel ?? '-'),
				td(r.cpu ?? '-'), td(r.host ?? '-'), td(r.date ?? '-'),
				td(r.labels ?? ''), td(r.status + '; ' + r.points + ' points, ' +
				r.failed + ' failed, ' + r.unsupported + ' unsupported' +
				(r.starved ? ', ' + r.starved + ' starved (not measured)' : '')))));
		return runs.length > 12 ? foldedLater(runs.length + ' runs', make) : make();
	}

	/*
	 * The run records' fields, folded: a column per run, or with many
	 * runs each field's values and how many runs have each.
	 */
	function auditSection(runs) {
		return foldedLater('environment audit: every field of the run records',
			() => auditTable(runs));
	}

	function auditTable(runs) {
		const a = data.audit;
		const value = (k, i) => a.runs[i][k] < 0 ? '-' : data.strings[a.runs[i][k]];
		let t;

		if (runs.length <= 6) {
			t = table(['field'].concat(runs.map(r => r.id)), a.keys.map((key, k) => {
				const vals = runs.map((r, i) => value(k, i));
				const tr = el('tr', vals.some(v => v !== vals[0]) ? 'differs' : null,
					el('th', null, key));
				for (const v of vals)
					tr.appendChild(td(v));
				return tr;
			}));
		} else {
			t = table(['field', 'values (runs)'], a.keys.map((key, k) => {
				const count = new Map();
				runs.forEach((r, i) => count.set(value(k, i),
					(count.get(value(k, i)) || 0) + 1));
				const top = [...count].sort((x, y) => y[1] - x[1]);
				const text = top.slice(0, 4).map(([v, n]) => v + ' (' + n + ')')
					.join('; ') + (top.length > 4 ? '; ' + (top.length - 4) +
					' other values' : '');
				return el('tr', null, el('th', null, key), td(text));
			}));
		}
		return t;
	}

	/* ---- Charts, drawn when they come into view ---- */

	const pending = new Map();
	/* Its first call, on the first frame, draws the charts in view. */
	const seen = 'IntersectionObserver' in window ?
		new IntersectionObserver(es => {
			es.forEach(e => e.isIntersecting && draw(e.target));
			window.wisPage.ready = window.wisPage.ready || performance.now();
		}, { rootMargin: '400px' }) : null;

	function later(div, fn) {
		pending.set(div, fn);
		if (seen)
			seen.observe(div);
		else
			draw(div);
	}

	function draw(div) {
		const fn = pending.get(div);

		if (!fn)
			return;
		pending.delete(div);
		if (seen)
			seen.unobserve(div);
		fn();
		div.classList.add('drawn');
	}

	function chartWidth() {
		return Math.max(560, Math.min(1060, page.clientWidth - 8));
	}

	/*
	 * A chart into div: spec.x the axis, spec.series each {label, stroke,
	 * values, ref (a reference, not data), dash, width, scale, info(i):
	 * the hover's lines}; spec.annotate(u) draws marks over it.
	 */
	function chart(div, spec) {
		const tip = el('div', 'tip');
		const many = spec.series.filter(s => !s.ref).length > 12;
		const series = [{ label: spec.xLabel }].concat(spec.series.map(s => ({
			label: s.label,
			stroke: s.stroke,
			width: s.width ?? (many ? 1 : 2),
			dash: s.dash,
			scale: s.scale ?? 'y',
			spanGaps: true,
			paths: s.status ? () => null : undefined,
			points: { show: !s.ref, size: s.status ? 9 : many ? 3 : 6,
				fill: s.status ? '#fff' : s.stroke },
		})));
		const opts = {
			width: chartWidth(),
			height: 360,
			legend: { show: !many && spec.series.length <= 16, live: false },
			cursor: { drag: { x: false, y: false }, points: { show: false } },
			scales: {
				x: { time: false, range: spec.xRange },
				y: { range: [0, spec.yMax > 0 ? spec.yMax : 1] },
				r: { range: spec.rRange ?? [0, 2] },
			},
			axes: [
				/* uPlot takes a key given as undefined for a value. */
				Object.fromEntries(Object.entries({ label: spec.xLabel,
					splits: spec.xSplits, values: spec.xValues, space: spec.xSpace ?? 40,
					incrs: spec.xIncrs, rotate: spec.xRotate, size: spec.xSize })
					.filter(([, v]) => v !== undefined)),
				{ label: spec.yLabel, values: (u, v) => v.map(si), size: 60 },
			].concat(spec.rLabel ? [{ label: spec.rLabel, scale: 'r', side: 1,
				grid: { show: false }, values: (u, v) => v.map(x => x.toFixed(2)) }] : []),
			series: series,
			hooks: {
				setCursor: [u => hover(u, spec, tip)],
				draw: spec.annotate ? [u => spec.annotate(u)] : [],
			},
		};
		const u = new uPlot(opts, [spec.x].concat(spec.series.map(s => s.values)), div);
		div.appendChild(tip);
		const drawn = spec.series.filter(s => !s.ref && !s.status);
		window.wisPage.charts.push({
			kind: spec.kind, title: spec.title, u: u, spec: spec,
			series: drawn.length,
			points: drawn.reduce((n, s) => n + s.values.filter(v => v !== null).length, 0),
		});
		return u;
	}

	/* The hover: the data point nearest the cursor, its lines of text. */
	function hover(u, spec, tip) {
		const i = u.cursor.idx;
		let best = null, dist = 24;

		if (i === null || i === undefined || u.cursor.left < 0) {
			tip.style.display = 'none';
			return;
		}
		spec.series.forEach((s, k) => {
			if (s.ref || s.values[i] === null || s.values[i] === undefined)
				return;
			const d = Math.abs(u.valToPos(s.values[i], s.scale ?? 'y') - u.cursor.top);
			if (d < dist) {
				dist = d;
				best = k;
			}
		});
		if (best === null) {
			tip.style.display = 'none';
			return;
		}
		tip.textContent = spec.series[best].info(i).join('\n');
		tip.style.display = 'block';
		const x = u.over.offsetLeft + u.cursor.left, y = u.over.offsetTop + u.cursor.top;
		tip.style.left = (x + 14 + 260 > u.over.offsetLeft + u.over.clientWidth ?
			x - 270 : x + 14) + 'px';
		tip.style.top = (y + 10) + 'px';
	}

	/* A marker at a data point, with a label above it (below: below). */
	function marker(u, x, y, scale, color, label, shape, below) {
		const ctx = u.ctx, px = u.valToPos(x, 'x', true), py = u.valToPos(y, scale, true);
		const r = 7 * devicePixelRatio, gap = r + 5 * devicePixelRatio;

		ctx.save();
		ctx.setLineDash([]);
		ctx.strokeStyle = color;
		ctx.fillStyle = color;
		ctx.lineWidth = 2 * devicePixelRatio;
		ctx.beginPath();
		if (shape === 'diamond') {
			ctx.moveTo(px, py - r);
			ctx.lineTo(px + r, py);
			ctx.lineTo(px, py + r);
			ctx.lineTo(px - r, py);
			ctx.closePath();
		} else {
			ctx.arc(px, py, r, 0, 2 * Math.PI);
		}
		ctx.stroke();
		if (label) {
			ctx.font = (12 * devicePixelRatio) + 'px sans-serif';
			ctx.textAlign = 'center';
			ctx.textBaseline = below ? 'top' : 'bottom';
			ctx.fillText(label, px, below ? py + gap :
				Math.max(u.bbox.top + 14 * devicePixelRatio, py - gap));
		}
		ctx.restore();
	}

	function chartBox(id) {
		const div = el('div', 'chart');
		if (id)
			div.id = id;
		return div;
	}

	/* ---- Report ---- */

	/* The task counts x with a margin either side. */
	function taskRange(x) {
		const pad = 0.05 * (x[x.length - 1] - x[0]) + 0.3;
		return [x[0] - pad, x[x.length - 1] + pad];
	}

	function kernelColors(runs) {
		const kernels = [...new Set(runs.map(r => r.kernel ?? '?'))];
		return r => palette[kernels.indexOf(r.kernel ?? '?') % palette.length];
	}

	function reportChart(div, t) {
		const runs = data.runs, few = t.curves.length <= 12;
		const byKernel = kernelColors(runs);
		const color = (c, k) => few ? palette[(runs.length > 1 ? c.run : k) %
			palette.length] : byKernel(runs[c.run]);
		const series = [];
		let top = 0;

		t.curves.forEach((c, k) => {
			const r = runs[c.run];
			const label = (runs.length > 1 ? r.id + ' ' : '') + c.mode +
				(c.repeat ? ' #' + (c.repeat + 1) : '');
			c.series = series.length;
			series.push({
				label: label, stroke: color(c, k), values: c.y,
				dash: few && c.mode === 'threads' && runs.length > 1 ? [6, 3] : undefined,
				info: i => [runName(r), c.mode + ', ' + t.x[i] + ' tasks' +
					(c.repeat ? ', repeat ' + (c.repeat + 1) : ''),
					'ops/s: ' + rate(c.y[i]),
					'efficiency: ' + (c.eff[i] === null ? '-' : c.eff[i].toFixed(2)),
					'idle: ' + (c.idle[i] === null ? '-' : c.idle[i].toFixed(1) + ' %')],
			});
			top = Math.max(top, ...c.y.filter(v => v !== null));
		});
		/* Linear from each curve's 1-task rate, or each mode's median. */
		const at1 = t.x.indexOf(1);
		const refs = few ? t.curves.map((c, k) => [series[k].label, series[k].stroke,
			at1 < 0 ? null : c.y[at1]]) :
			['processes', 'threads'].map(m => [m, '#777', at1 < 0 ? null :
				median(t.curves.filter(c => c.mode === m).map(c => c.y[at1]))]);
		for (const [label, stroke, base] of refs) {
			if (base === null)
				continue;
			series.push({ label: 'linear ' + label + (few ? '' : ' (median 1-task rate)'),
				stroke: stroke, dash: [2, 4], width: 1, ref: true,
				values: t.x.map(x => base * x) });
			/* The frame holds linear at the first step, where it parts. */
			if (at1 + 1 < t.x.length)
				top = Math.max(top, base * t.x[at1 + 1]);
		}
		chart(div, {
			kind: 'report', title: t.test, x: t.x, xLabel: 'tasks', yLabel: 'ops/s',
			xSplits: t.x.length <= 24 ? () => t.x : undefined,
			xValues: (u, v) => v.map(x => String(x)),
			xRange: taskRange(t.x),
			yMax: top * 1.1, series: series,
			/* A fleet's hundreds of marks would hide the curves: its list tells them. */
			annotate: u => t.marks.length <= 60 && t.marks.forEach(m => {
				const wall = m.kind === 'wall', at = wall ? m.to : m.from;
				const c = t.curves[m.curve], i = t.x.indexOf(at);
				if (i < 0 || c.y[i] === null || (t.marks.length > 24 && !wall))
					return;
				/* With few marks, the symbol that grew there names itself. */
				const grew = t.marks.length <= 8 && m.growth ? ' ' + m.growth.trim().split(' ')[0] : '';
				marker(u, at, c.y[i], 'y', wall ? '#b00020' : '#e67e00',
					t.marks.length > 24 ? null : (wall ? 'wall ' + pct(1 - m.size, 0) : 'knee') + grew,
					wall ? 'circle' : 'diamond', !wall);
			}),
		});
	}

	function markText(t, m) {
		const c = t.curves[m.curve], r = data.runs[c.run];
		const what = m.kind === 'wall' ?
			'wall: ' + m.from + ' \u2192 ' + m.to + ' tasks falls ' + (100 * m.size).toFixed(0) + ' %' :
			'knee at ' + m.from + ' tasks (' + m.size.toFixed(2) + ' of linear per task added after it)';
		return (data.runs.length > 1 ? r.id + ' ' : '') + c.mode + ': ' + what +
			(m.growth ? ';' + m.growth.replace(/;$/, '') : '');
	}

	/* The marks of a test as objects: [curve, wall, from, to, size, growth]. */
	function readMarks(t) {
		t.marks = t.marks.map(([curve, wall, from, to, size, g]) => ({ curve: curve,
			kind: wall ? 'wall' : 'knee', from: from, to: to, size: size,
			growth: g < 0 ? null : data.strings[g] }));
	}

	/* Many marks: one line per kind, step and mode, with how many curves. */
	function markLines(t) {
		if (t.marks.length <= 10)
			return el('ul', 'marks', ...t.marks.map(m => el('li', null, markText(t, m))));
		const groups = new Map();
		for (const m of t.marks) {
			const key = [m.kind, t.curves[m.curve].mode, m.from, m.to].join(' ');
			const g = groups.get(key) || { m: m, n: 0, lo: Infinity, hi: -Infinity, growth: new Map() };
			g.n++;
			g.lo = Math.min(g.lo, m.size);
			g.hi = Math.max(g.hi, m.size);
			if (m.growth)
				g.growth.set(m.growth, (g.growth.get(m.growth) || 0) + 1);
			groups.set(key, g);
		}
		const lines = [...groups.values()].sort((x, y) => y.n - x.n).map(g => {
			const m = g.m, mode = t.curves[m.curve].mode;
			const top = [...g.growth].sort((x, y) => y[1] - x[1])[0];
			return el('li', null, mode + ', ' + g.n + ' curves: ' + (m.kind === 'wall' ?
				'wall: ' + m.from + ' \u2192 ' + m.to + ' tasks falls ' + (100 * g.lo).toFixed(0) +
				'-' + (100 * g.hi).toFixed(0) + ' %' : 'knee at ' + m.from + ' tasks (' +
				g.lo.toFixed(2) + ' to ' + g.hi.toFixed(2) + ' of linear per task added after it)') +
				(top ? '; in ' + top[1] + ' of them' + top[0].replace(/;$/, '') : ''));
		});
		return folded(t.marks.length + ' knees and walls, in ' + lines.length + ' kinds',
			el('ul', 'marks', ...lines));
	}

	function reportPage() {
		data.tests.forEach(readMarks);
		const walls = data.tests.filter(t => t.marks.some(m => m.kind === 'wall'));

		page.appendChild(el('h1', null, 'wis report'));
		page.appendChild(el('p', 'lead', data.runs.length + (data.runs.length === 1 ?
			' run, ' : ' runs, ') + data.tests.length + ' tests; ' + walls.length +
			' with a wall (the rate falls as tasks are added), shown first. ' +
			'Per test: ops/s against tasks, a curve per run and mode; a dotted line is ' +
			'linear scaling from the 1-task rate, in frame up to the first task count ' +
			'after 1 and cut at the frame\'s top past it; ' +
			'\u25c7 marks the knee, \u25cb a wall. Hover a point for its efficiency and idle time.'));
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
			const wall = t.marks.some(m => m.kind === 'wall');
			const h = el('h2', null, t.test);
			if (wall)
				h.appendChild(el('span', 'badge', 'wall'));
			else if (t.marks.length)
				h.appendChild(el('span', 'badge knee', 'knee'));
			const div = chartBox('test-' + k);
			page.appendChild(el('section', null, h, div, markLines(t)));
			later(div, () => reportChart(div, t));
		});
	}

	/* ---- Compare ---- */

	function sideText(s) {
		const runs = data.sides[s].map(i => data.runs[i]);
		if (runs.length === 1)
			return runName(runs[0]);
		const kernels = [...new Set(runs.map(r => r.kernel ?? '?'))];
		return (data.form === 'repeats' ? runs.length + ' runs' : 'the sum of ' + runs.length +
			' runs, instances that ran at once,') + ' of kernel ' + kernels.join(', ');
	}

	const severity = { regressed: 0, undecided: 1, improved: 2, 'no change': 3 };

	function ratioOf(r) {
		return data.form === 'repeats' ? r.ratio :
			(r.a > 0 && r.b !== null ? r.b / r.a : null);
	}

	function worstFirst(rows) {
		const size = r => ratioOf(r) === null ? -1 : Math.abs(Math.log(ratioOf(r)));
		return rows.slice().sort((x, y) => data.form === 'repeats' ?
			severity[x.verdict] - severity[y.verdict] || size(y) - size(x) :
			(ratioOf(x) ?? Infinity) - (ratioOf(y) ?? Infinity));
	}

	/* The control's B/A at the row's mode and tasks (the first control measured). */
	function controlMove(rows, r) {
		const c = rows.filter(x => x.control !== null && x.test !== r.test &&
			x.mode === r.mode && x.tasks === r.tasks)
			.sort((x, y) => x.control - y.control)[0];
		return c ? c.test + ' ' + pct(ratioOf(c)) : 'none measured';
	}

	function compareChart(div, test, rows) {
		const x = [...new Set(rows.map(r => r.tasks))].sort((a, b) => a - b);
		const at = (m, t) => rows.find(r => r.mode === m && r.tasks === t);
		const modes = ['processes', 'threads'].filter(m => rows.some(r => r.mode === m));
		const series = [];
		let top = 0, rmax = 1;
		const value = (r, s) => r === undefined ? null : data.form === 'repeats' ?
			(s ? r.b : r.a).median : (s ? r.b : r.a);

		modes.forEach((m, k) => {
			for (const s of [0, 1]) {
				const v = x.map(t => value(at(m, t), s));
				top = Math.max(top, ...v.filter(y => y !== null));
				series.push({
					label: 'AB'[s] + ' ' + m + ': ' + sideText(s),
					stroke: palette[(2 * k + s) % palette.length], dash: s ? [6, 3] : undefined,
					values: v,
					info: i => {
						const r = at(m, x[i]);
						const lines = ['AB'[s] + ': ' + sideText(s), m + ', ' + x[i] + ' tasks'];
						if (data.form === 'repeats') {
							const d = s ? r.b : r.a;
							lines.push('median ops/s: ' + rate(d.median) + ' \u00b1' + d.sd + ' %',
								'min-max: ' + rate(d.min) + ' - ' + rate(d.max) + ', ' + d.n + ' repeats');
						} else {
							lines.push('ops/s: ' + rate(s ? r.b : r.a));
						}
						return lines;
					},
				});
			}
			const ratio = x.map(t => at(m, t) ? ratioOf(at(m, t)) : null);
			rmax = Math.max(rmax, ...ratio.filter(y => y !== null));
			series.push({
				label: 'B/A ' + m, stroke: palette[(4 + k) % palette.length], dash: [2, 3],
				scale: 'r', values: ratio,
				info: i => {
					const r = at(m, x[i]);
					const lines = ['B/A ' + m + ', ' + x[i] + ' tasks: ' +
						(ratioOf(r) === null ? '-' : ratioOf(r).toFixed(3)) + ' (' + pct(ratioOf(r)) + ')'];
					if (data.form === 'repeats')
						lines.push('interval ' + r.lo.toFixed(3) + ' - ' + r.hi.toFixed(3),
							'verdict: ' + r.verdict + (r.why ? ' (' + r.why + ')' : ''));
					return lines;
				},
			});
		});
		chart(div, {
			kind: 'compare', title: test, x: x, xLabel: 'tasks', yLabel: 'ops/s',
			rLabel: 'B/A', rRange: [0, Math.max(1.2, rmax * 1.1)],
			xSplits: x.length <= 24 ? () => x : undefined,
			xValues: (u, v) => v.map(t => String(t)),
			xRange: taskRange(x),
			yMax: top * 1.12, series: series,
		});
	}

	function comparePage() {
		const repeats = data.form === 'repeats';
		const rows = worstFirst(data.rows);
		const tests = [...new Set(rows.map(r => r.test))];
		const anchor = t => 'test-' + tests.indexOf(t);

		page.appendChild(el('h1', null, 'wis compare'));
		page.appendChild(el('p', 'lead', 'A: ' + sideText(0)));
		page.appendChild(el('p', 'lead', 'B: ' + sideText(1)));
		if (repeats && rows.some(r => r.control_off))
			page.appendChild(el('p', 'warn', 'A control moved: every verdict is undecided.'));
		const off = rows.filter(r => r.check === 'control off' || r.check === 'no overlap');
		if (off.length)
			page.appendChild(el('p', 'warn', off.map(r => r.test + ' ' + r.mode + ' ' + r.tasks +
				' tasks: ' + (r.check === 'control off' ? 'control at B/A ' +
				ratioOf(r).toFixed(2) + ', outside 1.00 \u00b1 0.03' :
				'the instances\' windows did not overlap')).join('; ')));
		page.appendChild(el('p', 'note', repeats ?
			'Worst first: regressed, undecided, improved, no change, each by the size of the change. ' +
			'B/A is the ratio of the medians of the repeats, its interval the ' +
			(100 * data.level).toFixed(0) + ' % bootstrap interval' +
			(data.noise !== null ? '; run-to-run noise ' + data.noise + ' %' : '') + '.' :
			'Lowest B/A first. B/A of single rates: no interval and no verdict (wis compare A... -- B..., ' +
			'with repeats on each side, gives them).'));
		const head = repeats ?
			['test', 'mode', 'tasks', 'A median', 'B median', 'B/A', 'interval', 'verdict', 'control', 'symbols that moved'] :
			['test', 'mode', 'tasks', 'A ops/s', 'B ops/s', 'B/A', 'check', 'control', 'symbols that moved'];
		page.appendChild(table(head, rows.map(r => {
			const link = el('a', null, r.test);
			link.href = '#' + anchor(r.test);
			const cells = [el('td', null, link), td(r.mode), td(r.tasks, 'num')];
			if (repeats)
				cells.push(td(rate(r.a.median) + ' \u00b1' + r.a.sd + ' %', 'num'),
					td(rate(r.b.median) + ' \u00b1' + r.b.sd + ' %', 'num'),
					td(pct(r.ratio), 'num'),
					td(r.lo === null ? '-' : pct(r.lo) + ' .. ' + pct(r.hi), 'num'),
					td(r.verdict + (r.why ? ' (' + r.why + ')' : ''), 'verdict'));
			else
				cells.push(td(rate(r.a), 'num'), td(rate(r.b), 'num'), td(pct(ratioOf(r)), 'num'),
					td(r.check));
			cells.push(td(r.control !== null ? '(a control)' : controlMove(data.rows, r)),
				td(r.symbols ? r.symbols.trim() : 'not profiled on both sides'));
			return el('tr', repeats ? r.verdict.replace(' ', '-') : null, ...cells);
		})));
		page.appendChild(runsTable(data.runs));
		page.appendChild(auditSection(data.runs));
		tests.forEach(t => {
			const div = chartBox(anchor(t));
			const own = data.rows.filter(r => r.test === t);
			const syms = own.filter(r => r.symbols);
			page.appendChild(el('section', null, el('h2', null, t), div,
				syms.length ? el('ul', 'marks', ...syms.map(r => el('li', null,
					r.mode + ' ' + r.tasks + ' tasks, symbols that moved:' + r.symbols))) : null));
			later(div, () => compareChart(div, t, own));
		});
	}


	/* ---- History ---- */

	function byLabel(i) {
		return data.order[i] ?? '#' + (i + 1);
	}

	function stepSize(st) {
		return pct(st.ratio) + ' [' + pct(st.lo) + ', ' + pct(st.hi) + ']';
	}

	/* The machine of a series, when the history has a series per machine. */
	function on(s) {
		return s.machine ? ' on ' + s.machine : '';
	}

	function seriesLabel(s) {
		return s.mode + '/' + s.tasks + on(s);
	}

	/* A decided change red, an undecided one (its control moved) amber. */
	function changeColor(undecided) {
		return undecided ? '#a15c00' : '#b00020';
	}

	/*
	 * Every series' drifts, {k: its series, start, end: runs, from, to:
	 * the fitted rates there, undecided, alarm, control: the control's
	 * move over its runs, control_test, symbols: those that moved from
	 * its first run to its last}, decided first, each by the size of
	 * its change.
	 */
	function allDrifts() {
		return data.series.flatMap((s, k) => s.drifts.map(([start, end, from, to, undecided, alarm,
			control, control_test, symbols]) =>
			({ k: k, start: start, end: end, from: from, to: to, undecided: undecided, alarm: alarm,
				control: control, control_test: control_test, symbols: symbols })))
			.sort((x, y) => x.undecided - y.undecided ||
				Math.abs(Math.log(y.to / y.from)) - Math.abs(Math.log(x.to / x.from)));
	}

	/* A change's note at the top of the chart, row by row, over the curves. */
	function chartNote(u, px, row, color, text) {
		const ctx = u.ctx, dpr = devicePixelRatio;

		ctx.save();
		ctx.fillStyle = color;
		ctx.font = 'bold ' + (12 * dpr) + 'px sans-serif';
		ctx.textAlign = px > u.bbox.left + u.bbox.width * 0.7 ? 'right' : 'left';
		ctx.textBaseline = 'top';
		const w = ctx.measureText(text).width, left = ctx.textAlign === 'left';
		const tx = px + (left ? 5 : -5) * dpr, ty = u.bbox.top + (4 + 16 * row) * dpr;
		ctx.save();
		ctx.fillStyle = 'rgba(255, 255, 255, 0.85)';
		ctx.fillRect(left ? tx - 2 * dpr : tx - w - 2 * dpr, ty - 1 * dpr, w + 4 * dpr, 15 * dpr);
		ctx.restore();
		ctx.fillText(text, tx, ty);
		ctx.restore();
	}

	function historyChart(div, test, own, drifts) {
		const n = data.runs.length, x = [...Array(n).keys()];
		const series = [];
		let top = 0;
		const bad = new Map();

		own.forEach((k, j) => {
			const s = data.series[k];
			top = Math.max(top, ...s.v.filter(v => v !== null));
			for (const [r, status, message] of s.bad)
				bad.set(r, (bad.has(r) ? bad.get(r) + '; ' : '') + s.mode + '/' + s.tasks +
					': ' + status + (message ? ' (' + message + ')' : ''));
			series.push({
				label: seriesLabel(s), stroke: palette[j % palette.length], values: s.v,
				info: i => {
					const r = data.runs[i];
					return ['run ' + r.id, data.by + ': ' + byLabel(i) + ', kernel ' + (r.kernel ?? '?'),
						r.labels ? 'labels: ' + r.labels : 'no labels',
						s.mode + ', ' + s.tasks + ' tasks' + on(s) + ': ' + rate(s.v[i]) + ' ops/s',
						'samples \u00b1' + (s.sd[i] === null ? '-' : s.sd[i] + ' %')];
				},
			});
		});
		if (bad.size)
			series.push({
				label: 'not data (noisy, starved, failed)', stroke: '#888', status: true,
				values: x.map(i => bad.has(i) ? 0 : null),
				info: i => ['run ' + data.runs[i].id + ' (' + byLabel(i) + ')',
					'not data: ' + bad.get(i)],
			});
		const steps = data.steps.filter(st => own.includes(st.series));
		const its = drifts.filter(dr => own.includes(dr.k));
		const long = Math.max(...x.map(i => byLabel(i).length));
		chart(div, {
			kind: 'history', title: test, x: x, xLabel: 'runs by ' + data.by, yLabel: 'ops/s',
			xIncrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000],
			xSpace: Math.min(160, 12 + 7 * Math.min(long, 22)) * (long > 8 ? 0.45 : 1),
			xRotate: long > 8 ? -35 : 0, xSize: long > 8 ? 110 : 50,
			xValues: (u, v) => v.map(i => Number.isInteger(i) && i >= 0 && i < n ?
				(l => l.length > 22 ? l.slice(0, 21) + '\u2026' : l)(byLabel(i)) : ''),
			xRange: [-0.5, n - 0.5], yMax: top * 1.15, series: series,
			annotate: u => {
				const ctx = u.ctx, dpr = devicePixelRatio;
				own.forEach((k, j) => data.series[k].levels.forEach(([from, to, med]) => {
					if (med === null || data.series[k].levels.length < 2)
						return;
					ctx.save();
					ctx.strokeStyle = palette[j % palette.length];
					ctx.globalAlpha = 0.45;
					ctx.lineWidth = 5 * dpr;
					ctx.beginPath();
					ctx.moveTo(u.valToPos(from - 0.4, 'x', true), u.valToPos(med, 'y', true));
					ctx.lineTo(u.valToPos(to - 0.6, 'x', true), u.valToPos(med, 'y', true));
					ctx.stroke();
					ctx.restore();
				}));
				steps.forEach((st, j) => {
					const px = u.valToPos(st.run - 0.5, 'x', true);
					ctx.save();
					ctx.strokeStyle = changeColor(st.undecided);
					ctx.lineWidth = 1.5 * dpr;
					ctx.setLineDash([5 * dpr, 4 * dpr]);
					ctx.beginPath();
					ctx.moveTo(px, u.bbox.top);
					ctx.lineTo(px, u.bbox.top + u.bbox.height);
					ctx.stroke();
					ctx.restore();
					chartNote(u, px, j, changeColor(st.undecided), (st.undecided ? 'undecided ' : 'step ') +
						seriesLabel(data.series[st.series]) + ' ' + stepSize(st));
				});
				/* A drift: its fitted line, dotted, from its first run to its last. */
				its.forEach((dr, j) => {
					const x0 = u.valToPos(dr.start, 'x', true), x1 = u.valToPos(dr.end, 'x', true);
					ctx.save();
					ctx.strokeStyle = changeColor(dr.undecided);
					ctx.lineWidth = 2.5 * dpr;
					ctx.setLineDash([2 * dpr, 4 * dpr]);
					ctx.beginPath();
					ctx.moveTo(x0, u.valToPos(dr.from, 'y', true));
					ctx.lineTo(x1, u.valToPos(dr.to, 'y', true));
					ctx.stroke();
					ctx.restore();
					chartNote(u, x1, steps.length + j, changeColor(dr.undecided),
						(dr.undecided ? 'undecided drift ' : 'drift ') +
						seriesLabel(data.series[dr.k]) + ' ' + pct(dr.to / dr.from));
				});
			},
		});
	}

	/*
	 * Runs a and b compared in panel: every series, series k (the one
	 * that changed) first, then the biggest moves; sides: the two runs'
	 * column heads, what: the change in words.
	 */
	function runsCompare(panel, a, b, k, sides, what, symbols) {
		const rows = data.series.map((x, j) => ({ k: j, x: x,
			r: x.v[a] > 0 && x.v[b] !== null ? x.v[b] / x.v[a] : null }))
			.filter(e => e.r !== null)
			.sort((e, f) => (f.k === k) - (e.k === k) ||
				Math.abs(Math.log(f.r)) - Math.abs(Math.log(e.r)));
		const line = e => el('tr', e.k === k ? 'chosen' : null, td(e.x.test), td(e.x.mode + on(e.x)),
			td(e.x.tasks, 'num'), td(rate(e.x.v[a]), 'num'), td(rate(e.x.v[b]), 'num'),
			td(pct(e.r), 'num'));
		const head = ['test', 'mode', 'tasks', ...sides, 'change'];

		panel.replaceChildren(...[
			el('h3', null, 'compare: run ' + data.runs[a].id + ' (' + byLabel(a) + ') \u2192 run ' +
				data.runs[b].id + ' (' + byLabel(b) + ')'),
			el('p', null, what),
			el('p', 'symbols', symbols ? 'symbols that moved:' + symbols :
				'symbols: not profiled on both sides'),
			table(head, rows.slice(0, 12).map(line)),
			rows.length > 12 ? folded((rows.length - 12) + ' more series, smaller moves',
				table(head, rows.slice(12).map(line))) : null].filter(e => e));
		panel.style.display = 'block';
	}

	/* A change's control and its move over the same runs, or that none was measured. */
	function controlMoved(test, move) {
		return test && move !== null ? test + ' ' + pct(move) : 'none measured';
	}

	/* ... in a sentence; moved: the change's own move with it. */
	function controlText(test, move, moved) {
		return 'control ' + controlMoved(test, move) +
			(moved ? ', which moved with it: the machine moved' : '');
	}

	/* The symbols that moved, as a cell of the changes' table. */
	function symbolsCell(symbols) {
		return td(symbols ? symbols.trim() : 'not profiled on both sides');
	}

	/* Where a step may lie when that is wider than its two runs: a bisection's ends. */
	function placedWider(st) {
		return st.old !== st.before || st.new !== st.run;
	}

	/* ... in words. */
	function bisectText(st) {
		return Math.round(data.sure * 100) + ' % sure it lies between run ' +
			data.runs[st.old].id + ' (' + byLabel(st.old) + ') and run ' + data.runs[st.new].id +
			' (' + byLabel(st.new) + '): bisect there';
	}

	/* The runs on a step's two sides compared. */
	function stepCompare(panel, st) {
		const s = data.series[st.series];

		runsCompare(panel, st.before, st.run, st.series, ['run before', 'run at the step'],
			(st.undecided ? 'undecided: ' : 'step: ') + s.test + ' ' + s.mode + ' ' + s.tasks +
			' tasks' + on(s) + ': ' + stepSize(st) + ', p ' + st.p.toFixed(3) + ', ' + st.nbefore +
			' runs before, ' + st.nafter + ' from it; ' + (placedWider(st) ? bisectText(st) + '; ' : '') +
			controlText(st.control_test, st.control, st.undecided), st.symbols);
	}

	/* A drift's first run and its last compared. */
	function driftCompare(panel, dr) {
		const s = data.series[dr.k];

		runsCompare(panel, dr.start, dr.end, dr.k, ['first run', 'last run'],
			(dr.undecided ? 'undecided drift: ' : 'drift: ') + s.test + ' ' + s.mode + ' ' + s.tasks +
			' tasks' + on(s) + ': ' + pct(dr.to / dr.from) + ' along the line fitted from run ' +
			(dr.start + 1) + ' to run ' + (dr.end + 1) + '; ' +
			controlText(dr.control_test, dr.control, dr.undecided), dr.symbols);
	}

	/* A row of the changes' table: a click on it (not on its link) shows its comparison. */
	function clickable(tr, show) {
		tr.addEventListener('click', e => {
			if (e.target.tagName === 'A')
				return;
			for (const o of document.querySelectorAll('tr.chosen'))
				o.classList.remove('chosen');
			tr.classList.add('chosen');
			show();
		});
		return tr;
	}

	/* From run a to run b: their order's values, and kernels unless that is the order. */
	function between(a, b) {
		return byLabel(a) + ' \u2192 ' + byLabel(b) + (data.by === 'kernel' ? '' :
			' (kernel ' + (data.runs[a].kernel ?? '?') + ' \u2192 ' + (data.runs[b].kernel ?? '?') + ')');
	}

	/* A change's verdict, with a badge when it keeps the alarm up. */
	function verdictCell(text, alarm) {
		return el('td', 'verdict', text, alarm ? el('span', 'badge alarm', 'alarm') : null);
	}

	function historyPage() {
		const steps = data.steps.map((st, k) => ({ st: st, k: k })).sort((x, y) =>
			x.st.undecided - y.st.undecided ||
			Math.abs(Math.log(y.st.ratio)) - Math.abs(Math.log(x.st.ratio)));
		const drifts = allDrifts();
		const tests = [...new Set(data.series.map(s => s.test))];
		const moved = [...new Set(steps.map(e => data.series[e.st.series].test)
			.concat(drifts.map(dr => data.series[dr.k].test)))];
		const anchor = t => 'test-' + tests.indexOf(t);
		const testLink = t => {
			const link = el('a', null, t);
			link.href = '#' + anchor(t);
			return el('td', null, link);
		};
		const undecided = steps.filter(e => e.st.undecided).length +
			drifts.filter(dr => dr.undecided).length;
		const alarms = steps.filter(e => e.st.alarm).length + drifts.filter(dr => dr.alarm).length;

		page.appendChild(el('h1', null, 'wis history'));
		page.appendChild(el('p', 'lead', data.runs.length + ' runs of ' + data.db + ' by ' + data.by +
			', ' + data.series.length + ' series of ' + tests.length + ' tests; ' +
			count(steps.filter(e => !e.st.undecided).length, 'step') + ', ' +
			count(drifts.filter(dr => !dr.undecided).length, 'drift') + ', ' + undecided +
			' undecided (their control moved with them)' +
			(alarms ? '; ' + alarms + (alarms === 1 ? ' keeps' : ' keep') + ' the alarm up' : '') + '.'));
		page.appendChild(el('p', 'note', 'Steps: ' + data.method +
			'. Click a step for the comparison of the run before it and the run at it, a drift for ' +
			'that of its first run and its last. ' +
			'A drift is the line fitted to its runs, its change from its first run to its last; ' +
			'alarm: a change among its series\u2019 latest runs, which wis history exits 1 for.'));
		if (!steps.length && !drifts.length)
			page.appendChild(el('p', null, 'no step in ' + data.series.length + ' series over ' +
				data.runs.length + ' runs'));
		else if (steps.length)
			page.appendChild(el('p', 'warn', (({ st }) => {
				const s = data.series[st.series], a = data.runs[st.before], b = data.runs[st.run];
				return (st.undecided ? 'Undecided' : 'Largest step') + ': ' + s.test + ' ' + s.mode +
					' ' + s.tasks + ' tasks' + on(s) + ' ' + stepSize(st) + ' between run ' + a.id + ' (' +
					data.by + ' ' + byLabel(st.before) + ', kernel ' + (a.kernel ?? '?') + ') and run ' +
					b.id + ' (' + data.by + ' ' + byLabel(st.run) + ', kernel ' + (b.kernel ?? '?') + ').' +
					(placedWider(st) ? ' ' + bisectText(st) + '.' : '');
			})(steps[0])));
		else
			page.appendChild(el('p', 'warn', (dr => {
				const s = data.series[dr.k], a = data.runs[dr.start], b = data.runs[dr.end];
				return (dr.undecided ? 'Undecided drift' : 'Largest drift') + ': ' + s.test + ' ' +
					s.mode + ' ' + s.tasks + ' tasks' + on(s) + ' ' + pct(dr.to / dr.from) + ' from run ' +
					a.id + ' (' + data.by + ' ' + byLabel(dr.start) + ', kernel ' + (a.kernel ?? '?') +
					') to run ' + b.id + ' (' + data.by + ' ' + byLabel(dr.end) + ', kernel ' +
					(b.kernel ?? '?') + ').';
			})(drifts[0])));
		const panel = el('div', 'panel');
		panel.id = 'step-compare';
		panel.style.display = 'none';
		const rows = steps.map(({ st }) => {
			const s = data.series[st.series];
			const tr = el('tr', 'click' + (st.undecided ? ' undecided' : ''), testLink(s.test),
				td(s.mode + on(s)), td(s.tasks, 'num'), td(between(st.before, st.run)),
				td('#' + (st.run + 1) + ' ' + data.runs[st.run].id + (placedWider(st) ?
					' (bisect #' + (st.old + 1) + ' \u2192 #' + (st.new + 1) + ')' : '')),
				td(pct(st.ratio), 'num verdict'), td(pct(st.lo) + ' .. ' + pct(st.hi), 'num'),
				verdictCell(st.undecided ? 'undecided' : 'step', st.alarm),
				td(controlMoved(st.control_test, st.control)), symbolsCell(st.symbols));
			return clickable(tr, () => stepCompare(panel, st));
		});
		/* After the steps, the drifts: their runs, their whole change. */
		const driftRows = drifts.map(dr => {
			const s = data.series[dr.k];
			const tr = el('tr', 'click drift' + (dr.undecided ? ' undecided' : ''), testLink(s.test),
				td(s.mode + on(s)), td(s.tasks, 'num'), td(between(dr.start, dr.end)),
				td('#' + (dr.start + 1) + ' \u2192 #' + (dr.end + 1)),
				td(pct(dr.to / dr.from), 'num verdict'), td('-', 'num'),
				verdictCell(dr.undecided ? 'undecided drift' : 'drift', dr.alarm),
				td(controlMoved(dr.control_test, dr.control)), symbolsCell(dr.symbols));
			return clickable(tr, () => driftCompare(panel, dr));
		});
		const head = ['test', 'mode', 'tasks', 'between', 'at run', 'size', 'interval',
			'verdict', 'control', 'symbols that moved'];
		if (rows.length || driftRows.length) {
			const t = table(head, rows.slice(0, 15).concat(driftRows));
			t.id = 'steps';
			page.appendChild(t);
		}
		/* The rest of a fleet's steps folded; their rows click the same. */
		if (rows.length > 15)
			page.appendChild(folded((rows.length - 15) + ' more steps, smaller',
				table(head, rows.slice(15))));
		page.appendChild(panel);
		const section = t => {
			const own = data.series.map((s, k) => s.test === t ? k : -1).filter(k => k >= 0);
			const div = chartBox(anchor(t));
			const h = el('h2', null, t);
			const its = steps.filter(e => own.includes(e.st.series))
				.map(e => ({ kind: 'step', undecided: e.st.undecided }))
				.concat(drifts.filter(dr => own.includes(dr.k))
					.map(dr => ({ kind: 'drift', undecided: dr.undecided })));
			const none = its.every(c => c.undecided);
			if (its.length)
				h.appendChild(el('span', 'badge' + (none ? ' undecided' : ''), none ? 'undecided' :
					[...new Set(its.filter(c => !c.undecided).map(c => c.kind))].join(', ')));
			later(div, () => historyChart(div, t, own, drifts));
			return el('section', null, h, div);
		};
		for (const t of moved)
			page.appendChild(section(t));
		const still = tests.filter(t => !moved.includes(t));
		if (still.length)
			page.appendChild(folded(count(still.length, 'test') + ' without a step or drift',
				...still.map(section)));
		page.appendChild(runsTable(data.runs));
		page.appendChild(auditSection(data.runs));
	}

	/* ---- The page ---- */

	window.wisPage = {
		charts: [],
		ready: 0,	/* ms from navigation: the first screen drawn */
		/* Every chart drawn, wherever it is: how many there are. */
		drawAll() {
			for (const div of [...pending.keys()])
				draw(div);
			return this.charts.length;
		},
		/* Where in the window point i of series s of chart c is drawn. */
		pointAt(c, s, i) {
			const ch = this.charts[c], sp = ch.spec.series[s];
			const box = ch.u.over.getBoundingClientRect();
			return {
				x: box.left + ch.u.valToPos(ch.spec.x[i], 'x'),
				y: box.top + ch.u.valToPos(sp.values[i], sp.scale ?? 'y'),
			};
		},
	};

	({ report: reportPage, compare: comparePage, history: historyPage })[data.kind]();
	page.appendChild(el('footer', null, 'Made by wis. Charts drawn by ' + data.lib.name + ' ' +
		data.lib.version + ' (' + data.lib.licence + ' licence), inlined in this page, which loads nothing.',
		folded(data.lib.name + "'s licence", el('pre', 'licence', data.lib.text))));
	if (!pending.size || !seen)
		window.wisPage.ready = performance.now();
}());
