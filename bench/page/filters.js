/*
 * The filters of every page: a select per field (test, mode and the
 * page's own: kernel, machine, verdict), each one value of it or every
 * value.  What the page shows names its values of those fields, its
 * keys: a table row, a list line or a section through filtered(), a
 * chart's curve or its points set aside through their spec's keys
 * (chart.js).  A thing that does not pass is hidden, and shown again
 * when the filters let it; a field a thing does not name passes it, and
 * a thing that names several values of a field (a section of a test's
 * curves) passes when one of them does (none: it names none).
 */

const filter = {};
const filteredThings = [];

function passes(keys) {
	return !keys || Object.keys(filter).every(k => !filter[k] || keys[k] === undefined ||
		(Array.isArray(keys[k]) ? !keys[k].length || keys[k].includes(filter[k]) : keys[k] === filter[k]));
}

/* Element e shown while the filters pass keys; e itself. */
function filtered(e, keys) {
	filteredThings.push([e, keys]);
	e.hidden = !passes(keys);
	return e;
}

/* A drawn chart's curves and points set aside, as the filters pass them. */
function filterChart(c) {
	(c.spec.asides ?? []).forEach(a => a && (a.shown = passes(a.keys)));
	c.spec.series.forEach((s, j) => s.keys &&
		c.u.series[j + 1].show !== passes(s.keys) &&
		c.u.setSeries(j + 1, { show: passes(s.keys) }));
	c.u.redraw(false);
}

function applyFilters(status) {
	for (const [e, keys] of filteredThings)
		e.hidden = !passes(keys);
	drawn.forEach(filterChart);
	const rows = filteredThings.filter(([e]) => e.tagName === 'TR' && e.closest('.filtered'));
	const on = Object.keys(filter).filter(k => filter[k]);
	status.textContent = !on.length ? '' : (rows.length ? rows.filter(([e]) => !e.hidden)
		.length + ' of ' + count(rows.length, 'row') + ' shown' : 'shown') + ': ' +
		on.map(k => k + ' ' + filter[k]).join(', ');
}

/* A table whose rows the filters' status counts. */
function filteredTable(head, rows) {
	const t = table(head, rows);
	t.classList.add('filtered');
	return t;
}

/*
 * The bar of filters: fields [label, values] (the label is its key), a
 * select for each with two values or more, a button that clears them
 * (Escape in a select does too), what they show (the rows of the
 * filteredTable()s, the values chosen: read out as it changes), then
 * extra (a download link).
 */
function filterBar(fields, ...extra) {
	const status = el('span', 'status');
	const selects = [];
	const apply = () => applyFilters(status);
	const clear = button('clear the filters', () => {
		selects.forEach(s => (s.value = ''));
		Object.keys(filter).forEach(k => (filter[k] = ''));
		apply();
	});

	status.setAttribute('aria-live', 'polite');
	const choices = fields.filter(([, values]) => values.length > 1).map(([key, values]) => {
		const sel = el('select', null, el('option', null, 'every ' + key),
			...values.map(v => el('option', null, v)));
		sel.options[0].value = '';
		values.forEach((v, i) => (sel.options[i + 1].value = v));
		sel.setAttribute('aria-label', key);
		sel.addEventListener('change', () => {
			filter[key] = sel.value;
			apply();
		});
		sel.addEventListener('keydown', e => e.key === 'Escape' && clear.click());
		selects.push(sel);
		filter[key] = '';
		return el('label', null, key + ' ', sel);
	});
	if (!choices.length && !extra.length)
		return null;
	return el('div', 'tools filters', ...choices, choices.length ? clear : null, status, ...extra);
}

/* The values of field f of things, each once, in their order. */
function distinct(things, f) {
	return [...new Set(things.map(f).filter(v => v !== undefined && v !== null))];
}
