/*
 * The charts (uPlot, inlined before this script), drawn as they come
 * into view, or all of them before printing.  A chart's y axis is
 * fitted to the data it shows, with a break drawn on the axis when it
 * does not start at 0 (a toggle sets it from 0); a drag across the plot
 * zooms into those x values, a double click or "reset zoom" zooms back
 * out; notes over the plot sit in a band of their own above it, off the
 * data; the hover's text stays inside the chart.
 */

const pending = new Map();
const drawn = [];
/* Its first call, on the first frame, draws the charts in view. */
const seen = 'IntersectionObserver' in window ?
	new IntersectionObserver(es => {
		es.forEach(e => e.isIntersecting && draw(e.target));
		ready();
	}, { rootMargin: '400px' }) : null;

/* The first screen drawn: a mark the page's benchmark reads (page-bench). */
function ready() {
	if (!performance.getEntriesByName('wis-ready').length)
		performance.mark('wis-ready');
}

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

/* A printed page holds every chart. */
window.addEventListener('beforeprint', () => [...pending.keys()].forEach(draw));

function chartBox(id) {
	const div = el('div', 'chart');
	if (id)
		div.id = id;
	return div;
}

/* The page's colours, light or dark (page.css). */
function colour(name) {
	return getComputedStyle(document.body).getPropertyValue('--' + name).trim();
}

function chartWidth() {
	return Math.max(260, Math.min(1060, page.clientWidth - 4));
}

function chartHeight() {
	return page.clientWidth < 600 ? 280 : 400;
}

/* Rows of notes the band above a chart holds; more are listed below it. */
const NOTE_ROWS = 3;
const NOTE_HEIGHT = 16;

/*
 * A chart into div: spec.x the axis, spec.series each {label, stroke,
 * values, ref (a reference, not data), dash, width, scale, info(i): the
 * hover's lines}; spec.asides the points set aside, each series of them
 * {stroke, values, info(i)} drawn hollow, left out of the y axis's fit
 * (on its edge when off it); spec.notes: [{x, text, color}] in the band
 * above the plot; spec.annotate(u) draws marks over it; spec.zero: the
 * y axis from 0 at first.  A series, set of points set aside or note
 * with keys is shown while the filters pass them (filters.js).
 */
function chart(div, spec) {
	const tip = el('div', 'tip');
	const many = spec.series.filter(s => !s.ref).length > 12;
	const notes = (spec.notes ?? []).slice(0, NOTE_ROWS);
	const asides = (spec.asides ?? []).filter(a => a);
	const state = { zero: !!spec.zero };
	const series = [{ label: spec.xLabel }].concat(spec.series.map(s => ({
		label: s.label,
		stroke: s.stroke,
		width: s.width ?? (many ? 1 : 2),
		dash: s.dash,
		scale: s.scale ?? 'y',
		spanGaps: true,
		points: { show: !s.ref, size: many ? 3 : 6, fill: s.stroke },
	})));
	const axis = { stroke: colour('fg'), grid: { stroke: colour('grid') },
		ticks: { stroke: colour('grid') } };
	const opts = {
		width: chartWidth(),
		height: chartHeight() + (notes.length ? notes.length * NOTE_HEIGHT + 6 : 0),
		padding: [notes.length ? notes.length * NOTE_HEIGHT + 10 : 12, 12, 0, 0],
		legend: { show: !many && spec.series.length <= 16, live: false },
		/* A drag zooms into a box, or into x alone when it is mostly flat. */
		cursor: { drag: { x: true, y: true, uni: 12, setScale: true }, points: { show: false } },
		scales: {
			/* The whole axis, with its margins; a zoom's own ends. */
			x: { time: false, range: (u, lo, hi) => spec.xRange && lo === spec.x[0] &&
				hi === spec.x[spec.x.length - 1] ? spec.xRange : [lo, hi] },
			y: { range: (u, lo, hi) => yRange(lo, hi, state.zero) },
			r: { range: spec.rRange ?? [0, 2] },
		},
		axes: [
			/* uPlot takes a key given as undefined for a value. */
			Object.assign({}, axis, Object.fromEntries(Object.entries({ label: spec.xLabel,
				splits: spec.xSplits, values: spec.xValues, space: spec.xSpace ?? 40,
				incrs: spec.xIncrs, rotate: spec.xRotate, size: spec.xSize })
				.filter(([, v]) => v !== undefined))),
			Object.assign({}, axis, { label: spec.yLabel, values: (u, v) => v.map(si), size: 62 }),
		].concat(spec.rLabel ? [Object.assign({}, axis, { label: spec.rLabel, scale: 'r', side: 1,
			grid: { show: false }, values: (u, v) => v.map(x => x.toFixed(2)) })] : []),
		series: series,
		hooks: {
			setCursor: [u => hover(u, spec, asides, tip, div)],
			draw: [u => {
				if (!state.zero)
					zeroBreak(u);
				notes.forEach((n, row) => passes(n.keys) && note(u, n, row, notes.length));
				/* Marks on the data stay inside the plot, zoomed or not. */
				u.ctx.save();
				u.ctx.beginPath();
				u.ctx.rect(u.bbox.left, u.bbox.top, u.bbox.width, u.bbox.height);
				u.ctx.clip();
				if (spec.annotate)
					spec.annotate(u);
				u.ctx.restore();
				asides.forEach(a => hollow(u, a));
			}],
		},
	};
	const u = new uPlot(opts, [spec.x].concat(spec.series.map(s => s.values)), div);
	const full = () => u.setScale('x', { min: spec.xRange ? spec.xRange[0] : spec.x[0],
		max: spec.xRange ? spec.xRange[1] : spec.x[spec.x.length - 1] });
	const zero = el('label', null, el('input'), ' y axis from 0');
	zero.firstChild.type = 'checkbox';
	zero.firstChild.checked = state.zero;
	zero.firstChild.addEventListener('change', e => {
		state.zero = e.target.checked;
		u.setScale('x', { min: u.scales.x.min, max: u.scales.x.max });
	});
	div.appendChild(el('div', 'tools', button('reset zoom', full), zero,
		spec.tools ?? null));
	div.appendChild(tip);
	(spec.notes ?? []).length > NOTE_ROWS && div.appendChild(el('ul', 'marks',
		...spec.notes.slice(NOTE_ROWS).map(n => el('li', null, n.text))));
	drawn.push({ u: u, spec: spec, div: div });
	filterChart(drawn[drawn.length - 1]);
	div.dataset.series = spec.series.filter(s => !s.ref).length;
	div.dataset.points = spec.series.filter(s => !s.ref)
		.reduce((n, s) => n + s.values.filter(v => v !== null).length, 0);
	div.dataset.aside = asides.reduce((n, a) => n + a.values.filter(v => v !== null).length, 0);
	return u;
}

/* Fitted: the data's range and a margin; from 0: up to the data's top. */
function yRange(lo, hi, zero) {
	if (lo === null || hi === null || !isFinite(lo) || !isFinite(hi))
		return [0, 1];
	if (zero || lo <= 0)
		return [0, hi > 0 ? hi * 1.08 : 1];
	const pad = Math.max((hi - lo) * 0.12, hi * 0.004);
	return [Math.max(0, lo - pad), hi + pad];
}

/* The y axis does not start at 0: a break drawn across its foot. */
function zeroBreak(u) {
	const ctx = u.ctx, dpr = devicePixelRatio;
	const x = u.bbox.left, y = u.bbox.top + u.bbox.height;

	if (u.scales.y.min <= 0)
		return;
	ctx.save();
	ctx.strokeStyle = colour('fg');
	ctx.fillStyle = colour('bg');
	ctx.lineWidth = 1.5 * dpr;
	ctx.fillRect(x - 7 * dpr, y - 14 * dpr, 14 * dpr, 8 * dpr);
	for (const dy of [-14, -8]) {
		ctx.beginPath();
		ctx.moveTo(x - 7 * dpr, y + (dy + 3) * dpr);
		ctx.lineTo(x + 7 * dpr, y + (dy - 3) * dpr);
		ctx.stroke();
	}
	ctx.restore();
}

/* A note in the band above the plot, at x, its row from the top. */
function note(u, n, row, rows) {
	const ctx = u.ctx, dpr = devicePixelRatio;
	const px = u.valToPos(n.x, 'x', true);

	if (px < u.bbox.left - 1 || px > u.bbox.left + u.bbox.width + 1)
		return;
	const ty = u.bbox.top - (rows - row) * NOTE_HEIGHT * dpr - 4 * dpr;
	ctx.save();
	ctx.font = 'bold ' + (12 * dpr) + 'px sans-serif';
	ctx.textAlign = 'left';
	ctx.textBaseline = 'top';
	ctx.fillStyle = n.color;
	let text = n.text;
	const room = u.bbox.width - 4 * dpr;
	while (text.length > 4 && ctx.measureText(text).width > room)
		text = text.slice(0, -2);
	if (text !== n.text)
		text = text.slice(0, -1) + '\u2026';
	const w = ctx.measureText(text).width;
	/* From the change to the right, or ending at it near the right edge. */
	const tx = Math.max(u.bbox.left, Math.min(px + 4 * dpr > u.bbox.left + u.bbox.width - w ?
		px - w - 4 * dpr : px + 4 * dpr, u.bbox.left + u.bbox.width - w));
	ctx.fillText(text, tx, ty);
	ctx.strokeStyle = n.color;
	ctx.lineWidth = 1 * dpr;
	ctx.beginPath();
	ctx.moveTo(px, ty + 13 * dpr);
	ctx.lineTo(px, u.bbox.top);
	ctx.stroke();
	ctx.restore();
}

/* Where a point set aside is drawn: at its rate, or on the plot's edge. */
function asideTop(u, v) {
	return Math.max(0, Math.min(u.bbox.height / devicePixelRatio, u.valToPos(v, 'y')));
}

/* The points set aside of one series: hollow circles of its colour. */
function hollow(u, a) {
	const ctx = u.ctx, dpr = devicePixelRatio;

	if (!a.shown)
		return;
	ctx.save();
	ctx.strokeStyle = a.stroke;
	ctx.fillStyle = colour('bg');
	ctx.lineWidth = 2 * dpr;
	a.values.forEach((v, i) => {
		const px = u.valToPos(u.data[0][i], 'x', true);
		if (v === null || px < u.bbox.left || px > u.bbox.left + u.bbox.width)
			return;
		ctx.beginPath();
		ctx.arc(px, u.bbox.top + asideTop(u, v) * dpr, 5 * dpr, 0, 2 * Math.PI);
		ctx.fill();
		ctx.stroke();
	});
	ctx.restore();
}

/*
 * The hover: the data point nearest the cursor, its lines of text, and
 * those of a point set aside drawn on it.
 */
function hover(u, spec, asides, tip, div) {
	const i = u.cursor.idx;
	const near = [];

	if (i === null || i === undefined || u.cursor.left < 0) {
		tip.style.display = 'none';
		return;
	}
	spec.series.forEach((s, k) => {
		if (!s.ref && s.values[i] !== null && s.values[i] !== undefined && u.series[k + 1].show)
			near.push([Math.abs(u.valToPos(s.values[i], s.scale ?? 'y') - u.cursor.top), s]);
	});
	asides.forEach(a => {
		if (a.values[i] !== null && a.shown)
			near.push([Math.abs(asideTop(u, a.values[i]) - u.cursor.top), a]);
	});
	near.sort((x, y) => x[0] - y[0]);
	if (!near.length || near[0][0] > 24) {
		tip.style.display = 'none';
		return;
	}
	const shown = [near[0][1]].concat(near.slice(1).filter(([d, s]) =>
		asides.includes(s) && d <= near[0][0] + 3).map(([, s]) => s));
	tip.textContent = shown.map(s => s.info(i).join('\n')).join('\n\n');
	tip.style.display = 'block';
	/* Beside the cursor, inside the chart's box. */
	const x = u.over.offsetLeft + u.cursor.left, y = u.over.offsetTop + u.cursor.top;
	const w = tip.offsetWidth, h = tip.offsetHeight, room = div.clientWidth;
	const left = x + 14 + w <= room ? x + 14 : Math.max(0, Math.min(x - 14 - w, room - w));
	tip.style.left = left + 'px';
	tip.style.top = Math.max(0, Math.min(y + 10, u.over.offsetTop + u.over.clientHeight - h)) + 'px';
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

/*
 * A curve's points set aside (a point_aside of n places), drawn hollow in
 * its colour; a point that recorded no rate at the axis's foot.
 */
function asideSeries(stroke, n, aside, info) {
	if (!aside)
		return null;
	const values = Array(n).fill(null), why = new Map();
	items(aside).forEach(a => {
		values[a.at] = a.y ?? 0;
		why.set(a.at, asideText(a.status, a.reason));
	});
	return { stroke: stroke, values: values, shown: true,
		info: i => info(i).concat([why.get(i)]) };
}

/* Charts follow the window's width. */
let resizing = 0;
window.addEventListener('resize', () => {
	clearTimeout(resizing);
	resizing = setTimeout(() => drawn.forEach(c => c.u.setSize({ width: chartWidth(),
		height: c.u.height })), 100);
});
