/* ---- wis compare --html: the verdicts' table, a chart per test ---- */

function sideRuns(s) {
	return data.sides[s ? 'b' : 'a'].map(i => data.runs[i]);
}

function sideText(s) {
	const runs = sideRuns(s);
	if (runs.length === 1)
		return runName(runs[0]);
	const kernels = [...new Set(runs.map(r => r.kernel ?? '?'))];
	return (data.form === 'repeats' ? runs.length + ' runs' : 'the sum of ' + runs.length +
		' runs, instances that ran at once,') + ' of kernel ' + kernels.join(', ');
}

function sideRate(r, s) {
	const v = s ? r.b : r.a;
	return data.form === 'repeats' ? v.median : v;
}

/* The control C chose for a row: its B/A at the row's mode and tasks. */
function controlCell(r) {
	return td(r.control ? '(a control)' : r.control_test === null ? 'none measured' :
		r.control_test + ' ' + pct(r.control_ratio));
}

function compareChart(div, test, rows) {
	const x = [...new Set(rows.map(r => r.tasks))].sort((a, b) => a - b);
	const at = (m, t) => rows.find(r => r.mode === m && r.tasks === t);
	const modes = ['processes', 'threads'].filter(m => rows.some(r => r.mode === m));
	const series = [], asides = [];
	let rmax = 1;

	modes.forEach((m, k) => {
		for (const s of [0, 1]) {
			const v = x.map(t => at(m, t) ? sideRate(at(m, t), s) : null);
			const where = i => ['AB'[s] + ': ' + sideText(s), m + ', ' + x[i] + ' tasks'];
			const label = 'AB'[s] + ' ' + m + ': ' + sideText(s);
			series.push({
				keys: { mode: m }, label: label, stroke: palette[(2 * k + s) % palette.length],
				dash: s ? [6, 3] : undefined, values: v,
				info: i => {
					const r = at(m, x[i]), lines = where(i);
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
			/* The side's points set aside at each task count: the first one's rate. */
			const aside = { at: [], status: [], reason: [], y: [] };
			x.forEach((t, i) => {
				const r = at(m, t);
				const a = r && r.aside ? items(r.aside).filter(p => p.at === s) : [];
				if (!a.length)
					return;
				aside.at.push(i);
				aside.status.push(a.map(p => p.status).join(', '));
				aside.reason.push(a.length + ' of the side\'s points: ' +
					a.map(p => p.reason ?? p.status).join('; '));
				aside.y.push(a.find(p => p.y !== null)?.y ?? null);
			});
			const drawnAside = asideSeries(palette[(2 * k + s) % palette.length], x.length,
				aside, i => where(i).concat(['recorded ops/s: ' +
					rate(aside.y[aside.at.indexOf(i)])]));
			if (drawnAside)
				asides.push(Object.assign(drawnAside, { keys: { mode: m } }));
		}
		const ratio = x.map(t => at(m, t) ? at(m, t).ratio : null);
		rmax = Math.max(rmax, ...ratio.filter(y => y !== null));
		series.push({
			keys: { mode: m }, label: 'B/A ' + m, stroke: palette[(4 + k) % palette.length], dash: [2, 3],
			scale: 'r', values: ratio,
			info: i => {
				const r = at(m, x[i]);
				const lines = ['B/A ' + m + ', ' + x[i] + ' tasks: ' +
					(r.ratio === null ? '-' : r.ratio.toFixed(3)) + ' (' + pct(r.ratio) + ')'];
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
		xRange: taskRange(x), zero: true, series: series, asides: asides,
	});
}

function comparePage() {
	const repeats = data.form === 'repeats';
	const rows = data.rows;
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
			r.ratio.toFixed(2) + ', outside 1.00 \u00b1 0.03' :
			'the instances\' windows did not overlap')).join('; ')));
	add(page, asideNote());
	page.appendChild(el('p', 'note', repeats ?
		'Worst first: regressed, undecided, improved, no change, each by the size of the change. ' +
		'B/A is the ratio of the medians of the repeats, its interval the ' +
		(100 * data.level).toFixed(0) + ' % bootstrap interval' +
		(data.noise !== null ? '; run-to-run noise ' + data.noise + ' %' : '') + '.' :
		'Lowest B/A first. B/A of single rates: no interval and no verdict (wis compare A... -- B..., ' +
		'with repeats on each side, gives them).'));
	/* A row's verdict, or without repeats its check, is a filter's field. */
	const judged = repeats ? 'verdict' : 'check';
	const rowKeys = r => ({ test: r.test, mode: r.mode, [judged]: repeats ? r.verdict : r.check });
	add(page, filterBar([['test', tests], ['mode', distinct(rows, r => r.mode)],
		[judged, distinct(rows, r => rowKeys(r)[judged])]]));
	const head = repeats ?
		['test', 'mode', 'tasks', 'A median', 'B median', 'B/A', 'interval', 'verdict', 'control', 'symbols that moved'] :
		['test', 'mode', 'tasks', 'A ops/s', 'B ops/s', 'B/A', 'check', 'control', 'symbols that moved'];
	page.appendChild(filteredTable(head, rows.map(r => {
		const link = el('a', null, r.test);
		link.href = '#' + anchor(r.test);
		const cells = [el('td', null, link), td(r.mode), td(r.tasks, 'num')];
		const aside = r.aside ? ' (' + r.aside.at.length + ' set aside)' : '';
		if (repeats)
			cells.push(td(rate(r.a.median) + ' \u00b1' + r.a.sd + ' %', 'num'),
				td(rate(r.b.median) + ' \u00b1' + r.b.sd + ' %', 'num'),
				td(pct(r.ratio), 'num'),
				td(r.lo === null ? '-' : pct(r.lo) + ' .. ' + pct(r.hi), 'num'),
				td(r.verdict + (r.why ? ' (' + r.why + ')' : '') + aside, 'verdict'));
		else
			cells.push(td(rate(r.a), 'num'), td(rate(r.b), 'num'), td(pct(r.ratio), 'num'),
				td(r.check + aside));
		cells.push(controlCell(r), td(r.symbols ? r.symbols.trim() : 'not profiled on both sides'));
		return filtered(el('tr', repeats ? r.verdict.replace(' ', '-') : null, ...cells),
			rowKeys(r));
	})));
	page.appendChild(runsTable(data.runs));
	page.appendChild(auditSection(data.runs));
	tests.forEach(t => {
		const div = chartBox(anchor(t));
		const own = rows.filter(r => r.test === t);
		const syms = own.filter(r => r.symbols);
		page.appendChild(filtered(el('section', null, el('h2', null, t), div,
			syms.length ? el('ul', 'marks', ...syms.map(r => filtered(el('li', null,
				r.mode + ' ' + r.tasks + ' tasks, symbols that moved:' + r.symbols),
				rowKeys(r)))) : null), { test: t, mode: distinct(own, r => r.mode),
			[judged]: distinct(own, r => rowKeys(r)[judged]) }));
		later(div, () => compareChart(div, t, own));
	});
}
