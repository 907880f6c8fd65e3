/* ---- wis history --html: the changes C found and ranked, a chart per test ---- */

function byLabel(i) {
	return data.order[i] ?? '#' + data.runs[i].number;
}

/* Run i as the runs table names it: its number and id. */
function runRef(i) {
	return '#' + data.runs[i].number + ' ' + data.runs[i].id;
}

/* ... with its order's value, its kernel unless that is the order, its commit. */
function runWhole(i, commit = true) {
	const r = data.runs[i];
	return runRef(i) + ' (' + data.by + ' ' + byLabel(i) +
		(data.by === 'kernel' ? '' : ', kernel ' + (r.kernel ?? '?')) +
		(commit && r.commit && data.by !== 'commit' ? ', commit ' + r.commit : '') + ')';
}

/* The machine of a series, when the history has a series per machine. */
function on(s) {
	return s.machine ? ' on ' + s.machine : '';
}

function seriesLabel(s) {
	return s.mode + '/' + s.tasks + on(s);
}

function seriesName(s) {
	return s.test + ' ' + s.mode + ' ' + s.tasks + ' tasks' + on(s);
}

/* A decided change red, an undecided one (its control moved) amber. */
function changeColor(c) {
	return c.undecided ? '#a15c00' : '#b00020';
}

function changeSize(c) {
	return c.kind === 'step' ? pct(c.ratio) + ' [' + pct(c.lo) + ', ' + pct(c.hi) + ']' :
		pct(c.ratio);
}

function changeWord(c) {
	return (c.undecided ? 'undecided ' : '') + c.kind;
}

/* Where a step may lie when that is wider than its two runs: a bisection's ends. */
function placedWider(c) {
	return c.kind === 'step' && (c.old !== c.from || c.new !== c.to);
}

function bisectText(c) {
	return Math.round(data.sure * 100) + ' % sure it lies between run ' + runWhole(c.old) +
		' and run ' + runWhole(c.new) + ': bisect there';
}

/* A change's control and its move over the same runs, or that none was measured. */
function controlMoved(c) {
	return c.control_test && c.control !== null ? c.control_test + ' ' + pct(c.control) :
		'none measured';
}

function controlText(c) {
	return 'control ' + controlMoved(c) +
		(c.undecided ? ', which moved with it: the machine moved' : '');
}

/* The headline: the first change C ranked, the newest alarm if one is up. */
function headline(c) {
	const s = data.series[c.series];
	const what = c.alarm ? 'Newest alarm, ' + changeWord(c) : c.undecided ? 'Undecided ' + c.kind :
		'Largest ' + c.kind;
	return what + ': ' + seriesName(s) + ' ' + changeSize(c) + (c.kind === 'step' ?
		' between run ' + runWhole(c.from, false) + ' and run ' + runWhole(c.to, false) + '.' :
		' from run ' + runWhole(c.from, false) + ' to run ' + runWhole(c.to, false) + '.') +
		(placedWider(c) ? ' ' + bisectText(c) + '.' : '');
}

/* ---- A change's two levels compared ---- */

function levelText(c, side) {
	return (side ? 'new' : 'old') + ' level: runs ' + runRef(side ? c.b_first : c.a_first) +
		' to ' + runRef(side ? c.b_last : c.a_last);
}

function levelsPanel(panel, c) {
	const s = data.series[c.series];
	const rows = items(c.levels);
	const line = l => el('tr', l.series === c.series ? 'chosen' : null,
		td(seriesName(data.series[l.series])),
		td(rate(l.a) + ' (' + l.na + ')', 'num'), td(rate(l.b) + ' (' + l.nb + ')', 'num'),
		td(pct(l.b / l.a), 'num'));
	const edge = (label, i) => el('li', null, label + ': run ' + runWhole(i));
	panel.replaceChildren(...[
		el('h3', null, changeWord(c) + ': ' + seriesName(s) + ' ' + changeSize(c)),
		el('p', null, 'The two levels, all runs of each: ' + levelText(c, 0) + '; ' +
			levelText(c, 1) + '. ' + (c.kind === 'step' ? 'p ' + c.p.toFixed(3) + '. ' :
			'A drift: its first and last quarter. ') + controlText(c) + '.'),
		table(['series', 'old level, median ops/s (runs)', 'new level (runs)', 'change'],
			rows.map(line)),
		el('ul', 'edges', edge(c.kind === 'step' ? 'last run before it' : 'first run', c.from),
			edge(c.kind === 'step' ? 'first run after it' : 'last run', c.to),
			placedWider(c) ? el('li', null, bisectText(c)) : null),
		c.command ? el('p', null, 'The same two levels with verdicts, from the store (at most ' +
			'the 30 runs of each nearest the change):') :
			el('p', 'note', 'The runs were read from files: wis compare FILES... -- FILES... ' +
			'compares the two levels.'),
		c.command ? el('pre', 'command', c.command) : null,
		el('p', 'symbols', c.symbols ? 'symbols that moved:' + c.symbols :
			'symbols: not profiled on both sides'),
	].filter(e => e));
	panel.style.display = 'block';
}

/* ---- The shown data as CSV ---- */

/* The keys a series' rows and curves are filtered by (filters.js). */
function seriesKeys(s) {
	return { test: s.test, mode: s.mode, machine: s.machine };
}

function csvRows() {
	const rows = [['#', 'run', data.by, 'kernel', 'commit', 'test', 'mode', 'tasks', 'machine',
		'ops/s', 'samples sd %', 'status']];
	data.series.forEach(s => {
		if (!passes(seriesKeys(s)))
			return;
		const aside = new Map(s.aside ? items(s.aside).map(a => [a.at, a.status]) : []);
		data.runs.forEach((r, i) => {
			if (s.v[i] === null && !aside.has(i))
				return;
			rows.push([r.number, r.id, byLabel(i), r.kernel, r.commit, s.test, s.mode, s.tasks,
				s.machine ?? '', s.v[i], s.sd[i], aside.get(i) ?? 'ok']);
		});
	});
	return rows;
}

/* ---- A chart per test ---- */

function historyChart(div, test, own) {
	const n = data.runs.length, x = [...Array(n).keys()];
	const series = [], asides = [];
	const changes = data.changes.filter(c => own.includes(c.series));
	const keys = c => seriesKeys(data.series[c.series]);

	own.forEach((k, j) => {
		const s = data.series[k];
		const where = i => [runRef(i), data.by + ': ' + byLabel(i) +
			(data.by === 'kernel' ? '' : ', kernel ' + (data.runs[i].kernel ?? '?')),
			data.runs[i].labels ? 'labels: ' + data.runs[i].labels : 'no labels'];
		series.push({
			keys: seriesKeys(s), label: seriesLabel(s), stroke: palette[j % palette.length],
			values: s.v,
			info: i => where(i).concat([seriesLabel(s) + ': ' + rate(s.v[i]) + ' ops/s',
				'samples \u00b1' + (s.sd[i] === null ? '-' : s.sd[i] + ' %')]),
		});
		const aside = asideSeries(palette[j % palette.length], n, s.aside,
			i => where(i).concat([seriesLabel(s) + ' recorded ' +
				rate(s.aside.y[s.aside.at.indexOf(i)]) + ' ops/s']));
		if (aside)
			asides.push(Object.assign(aside, { keys: seriesKeys(s) }));
	});
	const long = Math.max(...x.map(i => byLabel(i).length));
	chart(div, {
		kind: 'history', title: test, x: x,
		xLabel: 'runs by ' + data.by, yLabel: 'ops/s',
		xIncrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000],
		xSpace: Math.min(160, 12 + 7 * Math.min(long, 22)) * (long > 8 ? 0.45 : 1),
		xRotate: long > 8 ? -35 : 0, xSize: long > 8 ? 110 : 50,
		xValues: (u, v) => v.map(i => Number.isInteger(i) && i >= 0 && i < n ?
			(l => l.length > 22 ? l.slice(0, 21) + '\u2026' : l)(byLabel(i)) : ''),
		xRange: [-0.5, n - 0.5], series: series, asides: asides,
		notes: changes.map(c => ({ keys: keys(c), x: c.kind === 'step' ? c.to - 0.5 : c.to,
			color: changeColor(c),
			text: changeWord(c) + ' ' + seriesLabel(data.series[c.series]) + ' ' + pct(c.ratio) +
				(c.alarm ? ' (alarm)' : '') })),
		annotate: u => {
			const ctx = u.ctx, dpr = devicePixelRatio;
			own.forEach((k, j) => {
				const levels = items(data.series[k].levels);
				if (levels.length < 2 || !u.series[j + 1].show)
					return;
				levels.forEach(l => {
					if (l.median === null)
						return;
					ctx.save();
					ctx.strokeStyle = palette[j % palette.length];
					ctx.globalAlpha = 0.45;
					ctx.lineWidth = 5 * dpr;
					ctx.beginPath();
					ctx.moveTo(u.valToPos(l.from - 0.4, 'x', true), u.valToPos(l.median, 'y', true));
					ctx.lineTo(u.valToPos(l.to - 0.6, 'x', true), u.valToPos(l.median, 'y', true));
					ctx.stroke();
					ctx.restore();
				});
			});
			changes.filter(c => passes(keys(c))).forEach(c => {
				ctx.save();
				ctx.strokeStyle = changeColor(c);
				if (c.kind === 'step') {
					const px = u.valToPos(c.to - 0.5, 'x', true);
					ctx.lineWidth = 1.5 * dpr;
					ctx.setLineDash([5 * dpr, 4 * dpr]);
					ctx.beginPath();
					ctx.moveTo(px, u.bbox.top);
					ctx.lineTo(px, u.bbox.top + u.bbox.height);
				} else {
					/* A drift: its fitted line, dotted, from its first run to its last. */
					ctx.lineWidth = 2.5 * dpr;
					ctx.setLineDash([2 * dpr, 4 * dpr]);
					ctx.beginPath();
					ctx.moveTo(u.valToPos(c.from, 'x', true), u.valToPos(c.start_rate, 'y', true));
					ctx.lineTo(u.valToPos(c.to, 'x', true), u.valToPos(c.end_rate, 'y', true));
				}
				ctx.stroke();
				ctx.restore();
			});
		},
	});
}

function historyPage() {
	const changes = data.changes;
	const tests = [...new Set(data.series.map(s => s.test))];
	/* The tests that moved, or whose changes are undecided (time): not folded away. */
	const moved = [...new Set(changes.map(c => data.series[c.series].test).concat(
		data.series.filter(s => s.budget !== undefined).map(s => s.test)))];
	const anchor = t => 'test-' + tests.indexOf(t);
	const testLink = t => {
		const link = el('a', null, t);
		link.href = '#' + anchor(t);
		return el('td', null, link);
	};
	const decided = kind => changes.filter(c => c.kind === kind && !c.undecided).length;
	const undecided = changes.filter(c => c.undecided).length;
	const alarms = changes.filter(c => c.alarm).length;
	const outOfTime = data.series.filter(s => s.budget !== undefined);

	page.appendChild(el('h1', null, 'wis history'));
	page.appendChild(el('p', 'lead', data.runs.length + ' runs' + (data.db ? ' of ' + data.db : '') +
		' by ' + data.by + ', ' + data.series.length + ' series of ' + tests.length + ' tests; ' +
		count(decided('step'), 'step') + ', ' + count(decided('drift'), 'drift') + ', ' + undecided +
		' undecided (their control moved with them)' +
		(outOfTime.length ? ', ' + outOfTime.length + ' undecided (time)' : '') +
		(alarms ? '; ' + alarms + (alarms === 1 ? ' keeps' : ' keep') + ' the alarm up' : '') + '.'));
	page.appendChild(changes.length ? el('p', 'warn headline', headline(changes[0])) :
		el('p', null, 'no step in ' + data.series.length + ' series over ' + data.runs.length +
		' runs' + (outOfTime.length ? ', ' + outOfTime.length + ' of them undecided (time)' : '')));
	page.appendChild(el('p', 'note', 'Steps: ' + data.method + '. Changes keeping the alarm ' +
		'up first, the newest first; then the largest. Click a change (or Tab to it, Enter) for ' +
		'its two levels compared, all runs of each, and the wis compare that does it from the ' +
		'store. A drift is the line fitted to its runs, its change from its first run to its ' +
		'last; alarm: a change among its series\u2019 latest runs, which wis history exits 1 for. ' +
		'Drag across a chart to zoom, double-click to zoom out.'));
	/* A series whose changes passed --budget: nothing decided, said so; many folded. */
	const late = outOfTime.map(s => el('p', 'warn out-of-time', 'undecided (time): ' + s.test +
		' ' + s.mode + '/' + s.tasks + on(s) + ': its changes passed --budget ' + s.budget +
		' s of CPU'));
	if (late.length > 3)
		page.appendChild(folded(late.length + ' series undecided (time): their changes passed ' +
			'--budget ' + outOfTime[0].budget + ' s of CPU', ...late));
	else
		late.forEach(p => page.appendChild(p));
	add(page, asideNote());
	const panel = el('div', 'panel');
	panel.id = 'step-compare';
	panel.style.display = 'none';
	const rows = changes.map(c => {
		const s = data.series[c.series];
		const tr = el('tr', c.kind + (c.undecided ? ' undecided' : ''), testLink(s.test),
			td(s.mode + on(s)), td(s.tasks, 'num'),
			td(byLabel(c.from) + ' \u2192 ' + byLabel(c.to)),
			td(c.kind === 'step' ? runRef(c.to) + (placedWider(c) ? ' (bisect #' +
				data.runs[c.old].number + ' \u2192 #' + data.runs[c.new].number + ')' : '') :
				'#' + data.runs[c.from].number + ' \u2192 #' + data.runs[c.to].number),
			td(pct(c.ratio), 'num verdict'),
			td(c.kind === 'step' ? pct(c.lo) + ' .. ' + pct(c.hi) : '-', 'num'),
			el('td', 'verdict', changeWord(c), c.alarm ? el('span', 'badge alarm', 'alarm') : null),
			td(controlMoved(c)), td(c.symbols ? c.symbols.trim() : 'not profiled on both sides'));
		return filtered(clickable(tr, () => levelsPanel(panel, c)), seriesKeys(s));
	});
	const head = ['test', 'mode', 'tasks', 'between', 'at run', 'size', 'interval',
		'verdict', 'control', 'symbols that moved'];
	page.appendChild(filterBar([['test', tests], ['mode', distinct(data.series, s => s.mode)],
		['machine', distinct(data.series, s => s.machine)]],
		csvLink('wis-history.csv', csvRows)));
	if (rows.length) {
		const t = filteredTable(head, rows.slice(0, 15));
		t.id = 'steps';
		page.appendChild(t);
	}
	/* The rest of a fleet's changes folded; their rows click the same. */
	if (rows.length > 15)
		page.appendChild(folded((rows.length - 15) + ' more changes, smaller',
			filteredTable(head, rows.slice(15))));
	page.appendChild(panel);
	const section = t => {
		const own = data.series.map((s, k) => s.test === t ? k : -1).filter(k => k >= 0);
		const div = chartBox(anchor(t));
		const h = el('h2', null, t);
		const its = changes.filter(c => own.includes(c.series));
		const none = its.every(c => c.undecided);
		if (own.some(k => data.series[k].budget !== undefined))
			h.appendChild(el('span', 'badge undecided', 'undecided (time)'));
		else if (its.length)
			h.appendChild(el('span', 'badge' + (none ? ' undecided' : ''), none ? 'undecided' :
				[...new Set(its.filter(c => !c.undecided).map(c => c.kind))].join(', ')));
		later(div, () => historyChart(div, t, own));
		return filtered(el('section', null, h, div), { test: t,
			mode: distinct(own, k => data.series[k].mode),
			machine: distinct(own, k => data.series[k].machine) });
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
