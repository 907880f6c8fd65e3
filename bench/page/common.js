/*
 * The pages of wis report, compare and history --html, their shared
 * part: it reads the JSON of the page's wis-data block, whose fields
 * bench/views/page_fields.def names (docs/records.md, "The page's
 * data"), and gives the other files elements, numbers, the runs'
 * tables and the words for points set aside.  The Makefile joins
 * common.js, chart.js, filters.js, the page kinds' files and main.js,
 * in that order, into one script in one function's scope.  Every string of the
 * data is inserted as a text node, never as HTML.
 */
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

/* A table in a box of its own width: a wide table scrolls, not the page. */
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
	return el('div', 'wide', t);
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

function button(text, onclick) {
	const b = el('button', null, text);
	b.type = 'button';
	b.addEventListener('click', onclick);
	return b;
}

/*
 * A row that shows something when chosen: by a click (not on its link),
 * or from the keyboard (Tab to it, Enter or Space).
 */
function clickable(tr, show) {
	const choose = () => {
		for (const o of document.querySelectorAll('tr.chosen'))
			o.classList.remove('chosen');
		tr.classList.add('chosen');
		show();
	};
	tr.classList.add('click');
	tr.tabIndex = 0;
	tr.addEventListener('click', e => e.target.tagName !== 'A' && choose());
	tr.addEventListener('keydown', e => {
		if (e.key === 'Enter' || e.key === ' ') {
			e.preventDefault();
			choose();
		}
	});
	return tr;
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
		return +(v / 1e6).toFixed(3) + 'M';
	if (a >= 1e3)
		return +(v / 1e3).toFixed(1) + 'k';
	return +v.toFixed(2) + '';
}

/* The items of an object of columns (page_fields.def), as objects. */
function items(columns) {
	const keys = Object.keys(columns);
	const n = keys.length ? columns[keys[0]].length : 0;
	return [...Array(n).keys()].map(i =>
		Object.fromEntries(keys.map(k => [k, columns[k][i]])));
}

/* ---- Runs ---- */

function runName(r) {
	return 'run ' + r.id + ', kernel ' + (r.kernel ?? '?') +
		(r.labels ? ' (' + r.labels + ')' : '');
}

/* What a run measured: ok, and each kind of point that is not. */
function runPoints(r) {
	return r.ok + ' ok of ' + r.points + [['noisy', r.noisy], ['starved', r.starved],
		['failed', r.failed], ['unsupported', r.unsupported]]
		.filter(([, n]) => n).map(([what, n]) => ', ' + n + ' ' + what).join('');
}

function runsTable(runs) {
	const make = () => table(['#', 'run', 'kernel', 'commit', 'CPU', 'host', 'date',
		'labels', 'points', 'status'], runs.map(r => filtered(el('tr', r.ok ? null : 'empty',
		td(r.number, 'num'), td(r.id), td(r.kernel ?? '-'), td(r.commit ?? '-'),
		td(r.cpu ?? '-'), td(r.host ?? '-'), td(r.date ?? '-'), td(r.labels ?? ''),
		td(runPoints(r)), td(r.status)), { kernel: r.kernel ?? '?' })));
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

	if (runs.length <= 6)
		return table(['field'].concat(runs.map(r => r.id)), a.keys.map((key, k) => {
			const vals = runs.map((r, i) => value(k, i));
			const tr = el('tr', vals.some(v => v !== vals[0]) ? 'differs' : null,
				el('th', null, key));
			for (const v of vals)
				tr.appendChild(td(v));
			return tr;
		}));
	return table(['field', 'values (runs)'], a.keys.map((key, k) => {
		const seen = new Map();
		runs.forEach((r, i) => seen.set(value(k, i), (seen.get(value(k, i)) || 0) + 1));
		const top = [...seen].sort((x, y) => y[1] - x[1]);
		const text = top.slice(0, 4).map(([v, n]) => v + ' (' + n + ')')
			.join('; ') + (top.length > 4 ? '; ' + (top.length - 4) +
			' other values' : '');
		return el('tr', null, el('th', null, key), td(text));
	}));
}

/* ---- Points set aside ---- */

const asideWhy = {
	noisy: 'others took a share of its CPUs',
	starved: 'a task made no progress in a sample',
};

/* The sentence above the charts: how many points are not data, and why. */
function asideNote() {
	const a = data.aside, n = a.noisy + a.starved;
	const empty = a.empty ?? [];

	if (!n && !empty.length)
		return null;
	const kinds = ['noisy', 'starved'].filter(k => a[k])
		.map(k => a[k] + ' ' + k + ' (' + asideWhy[k] + ')');
	const p = el('p', 'warn aside', count(n, 'point') + ' set aside, not data: ' +
		kinds.join(', ') + '. They are drawn hollow at the rate they recorded, ' +
		'the reason on hover, and no verdict or step uses them.');
	if (empty.length)
		add(p, ' ' + count(empty.length, 'run') + ' measured nothing clean: ' +
			empty.map(i => '#' + data.runs[i].number + ' ' + data.runs[i].id).join(', ') + '.');
	return p;
}

/* What a point set aside says on hover. */
function asideText(status, reason) {
	return 'set aside, ' + status + (asideWhy[status] ? ': ' + asideWhy[status] : '') +
		(reason ? ' (' + reason + ')' : '');
}

/* ---- The shown data, as CSV ---- */

function csvField(v) {
	const s = v === null || v === undefined ? '' : String(v);
	return /[",\n\r]/.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s;
}

/* A link that downloads rows() (head first) as name, made when clicked. */
function csvLink(name, rows) {
	const a = el('a', 'csv', 'download the shown data (CSV)');
	a.href = '#';
	a.addEventListener('click', () => {
		const text = rows().map(r => r.map(csvField).join(',')).join('\r\n') + '\r\n';
		a.href = URL.createObjectURL(new Blob([text], { type: 'text/csv' }));
		a.download = name;
	});
	return a;
}
