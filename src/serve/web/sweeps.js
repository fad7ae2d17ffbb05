/*
 * The Sweeps tab: the sweeps of tally serve's --sweep-db file, one of them
 * as a sortable table (every stored point: program, configuration, axis
 * values, metrics), its Pareto front (a table, and every point over the
 * two Pareto metrics with the front joined), and a metric over one axis with one
 * line per value of a second axis (and per program, configuration and
 * any other axis), drawn by plot.js's TimePlot. The data is the sweep's
 * `tally sweep --json` export, as /api/sweeps/ID serves it.
 */
'use strict';

/* "2K" -> 2048, "1.5M" -> 1572864, "lru" -> NaN: axis values sort as numbers when they are. */
function axisNumber(v) {
  const m = /^\s*(-?\d+(?:\.\d+)?)\s*([kKmMgG]?)i?[bB]?\s*$/.exec(String(v));
  if (!m) return NaN;
  return Number(m[1]) * ({ '': 1, k: 1024, m: 1 << 20, g: 1 << 30 }[m[2].toLowerCase()]);
}

/* A metric as the table shows it: integers with thousands separators. */
function fmtMetric(v) {
  if (v === null || v === undefined) return '—';
  return Number.isInteger(v) ? fmtInt(v) : String(v);
}

class SweepView {
  constructor() {
    this.sweep = null;
    this.sortCol = 0; this.sortDesc = false;
    this.plot = null;
  }

  /* Columns of the table: [heading, value of a point, numeric?]. */
  columns() {
    const s = this.sweep;
    const cols = [['point', (p) => p.point, true], ['program', (p) => p.program, false]];
    if (s.points.some((p) => p.config)) cols.push(['config', (p) => p.config, false]);
    for (const a of s.axes) cols.push([a.key, (p) => p.axes[a.key], false]);
    for (const m of s.metrics) cols.push([m, (p) => p.metrics[m], true]);
    return cols;
  }

  async list() {
    showError('sweeps-error', '');
    let r;
    try { r = await api('/sweeps'); } catch (e) { return showError('sweeps-error', e.message); }
    $('sweep-db').textContent = r.db ? `from ${r.db}` : 'no sweep file: start tally serve with --sweep-db FILE';
    const body = $('sweeps-list').tBodies[0];
    body.textContent = '';
    for (const s of r.sweeps) {
      const open = el('button', {}, 'open');
      open.onclick = () => this.open(s.id);
      body.append(el('tr', { 'data-id': s.id }, el('td', {}, String(s.id)), el('td', {}, s.name),
        el('td', { class: 'num' }, fmtInt(s.points)), el('td', { class: 'num' }, fmtInt(s.stored)), el('td', {}, open)));
    }
    if (!r.sweeps.length) body.append(el('tr', {}, el('td', { colspan: 5, class: 'muted' }, 'no sweeps in the file')));
  }

  async open(id) {
    showError('sweeps-error', '');
    try { this.sweep = await api(`/sweeps/${id}`); } catch (e) { return showError('sweeps-error', e.message); }
    this.sweep.id = id;
    this.sortCol = 0; this.sortDesc = false;
    $('sweep-view').classList.remove('hidden');
    $('sweep-view').dataset.id = String(id);
    $('sweep-title').textContent = `Sweep ${id}: ${this.sweep.name} (${this.sweep.points.length} points stored)`;
    this.table();
    this.front();
    this.scatter();
    this.plotControls();
    this.draw();
  }

  sorted() {
    const cols = this.columns(), [, get, num] = cols[this.sortCol] || cols[0];
    const key = (p) => { const v = get(p); return num ? (v ?? Infinity) : (isNaN(axisNumber(v)) ? v : axisNumber(v)); };
    const cmp = (a, b) => {
      const x = key(a), y = key(b);
      const c = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
      return c || a.point - b.point;
    };
    const pts = [...this.sweep.points].sort(cmp);
    return this.sortDesc ? pts.reverse() : pts;
  }

  table() {
    const cols = this.columns(), t = $('sweep-table');
    t.tHead.textContent = '';
    const tr = el('tr');
    cols.forEach(([h, , num], i) => {
      const th = el('th', { class: 'sortable' + (num ? ' num' : '') }, h + (i === this.sortCol ? (this.sortDesc ? ' ▼' : ' ▲') : ''));
      th.onclick = () => { this.sortDesc = i === this.sortCol ? !this.sortDesc : false; this.sortCol = i; this.table(); };
      tr.append(th);
    });
    t.tHead.append(tr);
    t.tBodies[0].textContent = '';
    for (const p of this.sorted()) t.tBodies[0].append(this.row(p, cols));
  }

  row(p, cols) {
    const r = el('tr', { 'data-point': p.point, class: p.pareto ? 'front' : '' });
    for (const [, get, num] of cols) {
      const v = get(p);
      r.append(el('td', num ? { class: 'num' } : {}, num ? fmtMetric(v) : String(v ?? '')));
    }
    return r;
  }

  front() {
    const s = this.sweep, cols = this.columns();
    $('sweep-front-metrics').textContent = `${s.pareto_metrics[0]} and ${s.pareto_metrics[1]}`;
    const t = $('sweep-front');
    t.tHead.textContent = '';
    t.tHead.append(el('tr', {}, ...cols.map(([h, , num]) => el('th', num ? { class: 'num' } : {}, h))));
    t.tBodies[0].textContent = '';
    const pts = s.points.filter((p) => p.pareto).sort((a, b) =>
      a.metrics[s.pareto_metrics[0]] - b.metrics[s.pareto_metrics[0]] || a.point - b.point);
    for (const p of pts) t.tBodies[0].append(this.row(p, cols));
    if (!pts.length) t.tBodies[0].append(el('tr', {}, el('td', { colspan: cols.length, class: 'muted' }, 'no point exited 0')));
  }

  /* Every point that exited 0 as a dot at (first Pareto metric, second),
   * the front's points joined in order; axes from 0 like the other plots. */
  scatter() {
    const s = this.sweep, box = $('sweep-scatter'), [mx, my] = s.pareto_metrics;
    const pts = s.points.filter((p) => p.metrics.exit === 0 && p.metrics[mx] != null && p.metrics[my] != null);
    const front = pts.filter((p) => p.pareto).sort((a, b) => a.metrics[mx] - b.metrics[mx]);
    box.dataset.points = String(pts.length);
    box.dataset.front = String(front.length);
    let c = box.querySelector('canvas');
    if (!c) { c = document.createElement('canvas'); box.append(c); }
    const w = box.clientWidth, h = box.clientHeight, dpr = window.devicePixelRatio || 1;
    c.width = w * dpr; c.height = h * dpr; c.style.width = w + 'px'; c.style.height = h + 'px';
    const g = c.getContext('2d');
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.clearRect(0, 0, w, h);
    if (!pts.length || w <= 0) return;
    const P = { l: 70, r: 16, t: 10, b: 30 }, pw = w - P.l - P.r, ph = h - P.t - P.b;
    const xmax = niceCeil(Math.max(...pts.map((p) => p.metrics[mx])) || 1);
    const ymax = niceCeil(Math.max(...pts.map((p) => p.metrics[my])) || 1);
    const px = (v) => P.l + v / xmax * pw, py = (v) => P.t + ph - v / ymax * ph;
    g.strokeStyle = '#d8dde3'; g.fillStyle = '#66707c'; g.font = '11px system-ui'; g.lineWidth = 1;
    for (let k = 0; k <= 4; k++) {
      const yy = Math.round(py(ymax * k / 4)) + .5;
      g.beginPath(); g.moveTo(P.l, yy); g.lineTo(w - P.r, yy); g.stroke();
      g.textAlign = 'right'; g.fillText(fmtShort(ymax * k / 4), P.l - 6, yy + 4);
      g.textAlign = 'center'; g.fillText(fmtShort(xmax * k / 4), px(xmax * k / 4), h - P.b + 16);
    }
    g.textAlign = 'right'; g.fillText(mx, w - P.r, h - 2);
    g.textAlign = 'left'; g.fillText(my, P.l + 4, P.t + 10);
    g.fillStyle = '#9aa4b0';
    for (const p of pts) { g.beginPath(); g.arc(px(p.metrics[mx]), py(p.metrics[my]), 3, 0, 7); g.fill(); }
    g.strokeStyle = PLOT_COLORS[0]; g.fillStyle = PLOT_COLORS[0]; g.lineWidth = 1.5;
    g.beginPath();
    front.forEach((p, i) => (i ? g.lineTo : g.moveTo).call(g, px(p.metrics[mx]), py(p.metrics[my])));
    g.stroke();
    for (const p of front) { g.beginPath(); g.arc(px(p.metrics[mx]), py(p.metrics[my]), 4.5, 0, 7); g.fill(); }
  }

  plotControls() {
    const s = this.sweep;
    const fill = (sel, items, none) => {
      sel.textContent = '';
      if (none) sel.append(el('option', { value: '' }, none));
      for (const x of items) sel.append(el('option', { value: x }, x));
    };
    fill($('sweep-metric'), s.metrics.filter((m) => m !== 'exit'));
    fill($('sweep-x'), s.axes.map((a) => a.key));
    fill($('sweep-by'), s.axes.map((a) => a.key), '(none)');
    if (s.metrics.includes(s.objective)) $('sweep-metric').value = s.objective;
    if (s.axes.length > 1) $('sweep-by').value = s.axes[1].key;
    $('sweep-plot-part').classList.toggle('hidden', !s.axes.length);
  }

  /* One line per combination of everything but the x axis; x is the
   * position of the value in the axis (values as given, in order). */
  draw() {
    const s = this.sweep;
    if (!s.axes.length) return;
    const metric = $('sweep-metric').value, xKey = $('sweep-x').value, by = $('sweep-by').value;
    const xs = s.axes.find((a) => a.key === xKey).values;
    const rest = s.axes.map((a) => a.key).filter((k) => k !== xKey && k !== by);
    const label = (p) => [by && by !== xKey ? `${by}=${p.axes[by]}` : '', ...rest.map((k) => `${k}=${p.axes[k]}`),
      new Set(s.points.map((q) => q.program)).size > 1 ? p.program : '',
      p.config].filter(Boolean).join(' ') || metric;
    const series = new Map();
    for (const p of s.points) {
      const l = label(p);
      if (!series.has(l)) series.set(l, new Array(xs.length).fill(NaN));
      series.get(l)[xs.indexOf(p.axes[xKey])] = p.metrics[metric];
    }
    if (!this.plot) this.plot = new TimePlot($('sweep-plot'));
    this.plot.xLabel = xKey;
    this.plot.xTicks = xs.map((v, i) => [i + 1, v]);
    this.plot.xMin = 0.5;
    this.plot.xMax = xs.length + 0.5;
    const labels = [...series.keys()];
    this.plot.setSeries(labels);
    this.plot.append(xs.map((_, i) => [i, i + 1, ...labels.map((l) => series.get(l)[i])]));
    $('sweep-plot').dataset.series = String(labels.length);
    $('sweep-plot-info').textContent = `${metric} over ${xKey}` + (by && by !== xKey ? `, a line per ${by}` : '');
  }
}
