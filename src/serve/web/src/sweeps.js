/*
 * The Sweeps tab: the sweeps of tally serve's --sweep-db file, one of them
 * as a sortable table (every stored point: program, configuration, axis
 * values, metrics), the Pareto front of each program (a program is never
 * weighed against another: a shorter one would always win) as a table and
 * drawn by uPlot over the two Pareto metrics on autoscaled axes, the
 * aggregate over programs (each configuration's geometric mean, over the
 * programs, of a metric relative to a chosen baseline configuration), and
 * a metric over one axis with one line per value of a second axis (and
 * per program, configuration and any other axis). The data is the sweep's
 * `tally sweep --json` export, as /api/sweeps/ID serves it.
 */
import uPlot from 'uplot';
import { $, api, showError, el, fmtInt, fmtShort, fmtTicks, COLORS } from './util.js';

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

/* An autoscaled range with a margin: never from 0 unless the values are. */
const pad = (u, lo, hi) => {
  if (lo === null || hi === null) return [0, 1];
  const d = (hi - lo) || Math.abs(hi) * 0.01 || 1;
  return [lo - d * 0.08, hi + d * 0.08];
};

export class SweepView {
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
    this.programs = [...new Set(this.sweep.points.map((p) => p.program))];
    this.fronts();
    this.table();
    this.front();
    this.aggregate();
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
    const r = el('tr', { 'data-point': p.point, class: this.onFront.has(p.point) ? 'front' : '' });
    for (const [, get, num] of cols) {
      const v = get(p);
      r.append(el('td', num ? { class: 'num' } : {}, num ? fmtMetric(v) : String(v ?? '')));
    }
    return r;
  }

  /* Each program's front over the two Pareto metrics (smaller is better
   * in both; points that exited 0): a point is on it when no point of the
   * same program is at most as large in both and smaller in one. */
  fronts() {
    const s = this.sweep, [mx, my] = s.pareto_metrics;
    const ok = (p) => p.metrics.exit === 0 && p.metrics[mx] != null && p.metrics[my] != null;
    const on = new Set();
    for (const prog of this.programs) {
      const pts = s.points.filter((p) => p.program === prog && ok(p));
      for (const p of pts)
        if (!pts.some((q) => q !== p && q.metrics[mx] <= p.metrics[mx] && q.metrics[my] <= p.metrics[my] &&
            (q.metrics[mx] < p.metrics[mx] || q.metrics[my] < p.metrics[my]))) on.add(p.point);
    }
    this.onFront = on;
    this.usable = s.points.filter(ok);
  }

  front() {
    const s = this.sweep, cols = this.columns();
    $('sweep-front-metrics').textContent = `${s.pareto_metrics[0]} and ${s.pareto_metrics[1]}` +
      (this.programs.length > 1 ? `, one front per program (${this.programs.length})` : '');
    const t = $('sweep-front');
    t.tHead.textContent = '';
    t.tHead.append(el('tr', {}, ...cols.map(([h, , num]) => el('th', num ? { class: 'num' } : {}, h))));
    t.tBodies[0].textContent = '';
    const pts = s.points.filter((p) => this.onFront.has(p.point)).sort((a, b) => a.program.localeCompare(b.program) ||
      a.metrics[s.pareto_metrics[0]] - b.metrics[s.pareto_metrics[0]] || a.point - b.point);
    for (const p of pts) t.tBodies[0].append(this.row(p, cols));
    if (!pts.length) t.tBodies[0].append(el('tr', {}, el('td', { colspan: cols.length, class: 'muted' }, 'no point exited 0')));
    /* the best point of each program: the smallest objective on its front */
    const obj = s.metrics.includes(s.objective) ? s.objective : s.pareto_metrics[0];
    const best = $('sweep-best').tBodies[0];
    best.textContent = '';
    for (const prog of this.programs) {
      const f = pts.filter((p) => p.program === prog).sort((a, b) => a.metrics[obj] - b.metrics[obj] || a.point - b.point)[0];
      best.append(el('tr', { 'data-program': prog, 'data-point': f ? f.point : '' }, el('td', {}, prog),
        el('td', { class: 'num' }, f ? String(f.point) : '—'), el('td', {}, f ? this.configName(f) : ''),
        el('td', { class: 'num' }, f ? fmtInt(f.metrics[obj]) : '')));
    }
    $('sweep-best-metric').textContent = obj;
  }

  /* A point's configuration without its program: what the aggregate groups by. */
  configName(p) {
    return [p.config, ...this.sweep.axes.map((a) => `${a.key}=${p.axes[a.key]}`)].filter(Boolean).join(' ') || '(the one configuration)';
  }

  /* Per configuration: the geometric mean over programs of metric / baseline's metric. */
  aggregate() {
    const s = this.sweep, sel = $('sweep-baseline');
    const configs = [...new Set(s.points.map((p) => this.configName(p)))];
    if (sel.dataset.sweep !== String(s.id)) {
      sel.replaceChildren(...configs.map((c) => el('option', { value: c }, c)));
      sel.dataset.sweep = String(s.id);
      sel.onchange = () => this.aggregate();
    }
    const base = sel.value || configs[0];
    const metrics = s.metrics.filter((m) => m !== 'exit');
    const at = new Map(s.points.filter((p) => p.metrics.exit === 0).map((p) => [this.configName(p) + '\u0000' + p.program, p]));
    const t = $('sweep-aggregate');
    t.tHead.replaceChildren(el('tr', {}, el('th', {}, 'configuration'), el('th', { class: 'num' }, 'programs'),
      ...metrics.map((m) => el('th', { class: 'num' }, m + ' ×'))));
    t.tBodies[0].textContent = '';
    for (const c of configs) {
      const tr = el('tr', { 'data-config': c, class: c === base ? 'sel' : '' }, el('td', {}, c));
      let n = 0;
      const cells = metrics.map((m) => {
        let sum = 0, k = 0;
        for (const prog of this.programs) {
          const p = at.get(c + '\u0000' + prog), b = at.get(base + '\u0000' + prog);
          if (!p || !b || !(p.metrics[m] > 0) || !(b.metrics[m] > 0)) continue;
          sum += Math.log(p.metrics[m] / b.metrics[m]);
          k++;
        }
        n = Math.max(n, k);
        return el('td', { class: 'num' }, k ? Math.exp(sum / k).toFixed(4) : '—');
      });
      tr.append(el('td', { class: 'num' }, String(n)), ...cells);
      t.tBodies[0].append(tr);
    }
  }

  /* Every point that exited 0 over the two Pareto metrics, its program's
   * front joined: a plot per program (programs differ by orders of
   * magnitude), its axes fitted to its points (a 0.7% spread fills them). */
  scatter() {
    const s = this.sweep, box = $('sweep-scatter'), [mx, my] = s.pareto_metrics;
    box.dataset.points = String(this.usable.length);
    box.dataset.front = String(this.onFront.size);
    box.dataset.fronts = String(this.programs.filter((prog) => this.usable.some((p) => p.program === prog && this.onFront.has(p.point))).length);
    for (const p of this.scatterPlots || []) p.destroy();
    this.scatterPlots = [];
    box.textContent = '';
    const many = this.programs.length > 1;
    this.programs.forEach((prog, i) => {
      const pts = this.usable.filter((p) => p.program === prog).sort((a, b) => a.metrics[mx] - b.metrics[mx]);
      if (!pts.length) return;
      /* x must be ascending and distinct: equal x nudged apart by far less than a pixel */
      const xs = [], all = [], fr = [];
      let last = -Infinity;
      for (const p of pts) {
        let x = p.metrics[mx];
        if (x <= last) x = last + Math.max(1e-9, Math.abs(last) * 1e-12);
        last = x;
        xs.push(x); all.push(p.metrics[my]); fr.push(this.onFront.has(p.point) ? p.metrics[my] : null);
      }
      const c = COLORS[i % COLORS.length];
      const div = el('div', { class: 'sweep-facet', 'data-program': prog });
      box.append(div);
      const first = this.scatterPlots.length === 0;
      this.scatterPlots.push(new uPlot({
        title: many ? prog : undefined,
        width: many ? Math.max(360, Math.floor(((box.clientWidth || 900) - 40) / 2)) : Math.max(400, (box.clientWidth || 900) - 20),
        height: 280,
        scales: { x: { time: false, range: pad }, y: { range: pad } },
        series: [{ label: mx, value: (u, v) => fmtShort(v) },
          { label: 'points', stroke: c + '88', paths: () => null, points: { show: true, size: 6, fill: c + '55', stroke: c }, value: (u, v) => fmtShort(v) },
          { label: 'front', stroke: c, width: 2, spanGaps: true, points: { show: true, size: 8, fill: c }, value: (u, v) => fmtShort(v) }],
        axes: [{ label: mx, values: (u, v) => fmtTicks(v) }, { label: my, values: (u, v) => fmtTicks(v), size: 60 }],
        cursor: { drag: { x: true, y: true, uni: 20, setScale: true } },
        hooks: { draw: [(u) => { if (first) { box.dataset.xMin = String(u.scales.x.min); box.dataset.yMin = String(u.scales.y.min); } }] },
      }, [xs, all, fr], div));
    });
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
    for (const id of ['sweep-metric', 'sweep-x', 'sweep-by']) $(id).onchange = () => this.draw();
  }

  /* One line per combination of everything but the x axis; x is the
   * position of the value in the axis (values as given, in order); the
   * y axis fitted to the values. */
  draw() {
    const s = this.sweep;
    if (!s.axes.length) return;
    const metric = $('sweep-metric').value, xKey = $('sweep-x').value, by = $('sweep-by').value;
    const xs = s.axes.find((a) => a.key === xKey).values;
    const rest = s.axes.map((a) => a.key).filter((k) => k !== xKey && k !== by);
    const label = (p) => [by && by !== xKey ? `${by}=${p.axes[by]}` : '', ...rest.map((k) => `${k}=${p.axes[k]}`),
      p.config].filter(Boolean).join(' ') || metric;
    const box = $('sweep-plot');
    for (const p of this.plots || []) p.destroy();
    this.plots = [];
    box.textContent = '';
    const many = this.programs.length > 1;
    let nseries = 0;
    for (const prog of this.programs) {
      const series = new Map();
      for (const p of s.points.filter((q) => q.program === prog)) {
        const l = label(p);
        if (!series.has(l)) series.set(l, new Array(xs.length).fill(null));
        series.get(l)[xs.indexOf(p.axes[xKey])] = p.metrics[metric] ?? null;
      }
      const labels = [...series.keys()];
      nseries += labels.length;
      const div = el('div', { class: 'sweep-facet', 'data-program': prog });
      box.append(div);
      const first = this.plots.length === 0;
      this.plots.push(new uPlot({
        title: many ? prog : undefined,
        width: many ? Math.max(360, Math.floor(((box.clientWidth || 900) - 40) / 2)) : Math.max(400, (box.clientWidth || 900) - 20),
        height: 280,
        scales: { x: { time: false, range: [0.7, xs.length + 0.3] }, y: { range: pad } },
        series: [{ label: xKey, value: (u, v) => (v == null ? '—' : String(xs[Math.round(v) - 1] ?? '')) },
          ...labels.map((l, i) => ({ label: l, stroke: COLORS[i % COLORS.length], width: 1.5, spanGaps: true,
            points: { show: true, size: 6 }, value: (u, v) => fmtShort(v) }))],
        axes: [{ label: xKey, splits: () => xs.map((_, i) => i + 1), values: (u, v) => v.map((i) => String(xs[i - 1] ?? '')) },
          { label: metric, values: (u, v) => fmtTicks(v), size: 60 }],
        hooks: { draw: [(u) => { if (first) box.dataset.yMin = String(u.scales.y.min); }] },
      }, [xs.map((_, i) => i + 1), ...labels.map((l) => series.get(l))], div));
    }
    box.dataset.points = String(s.points.filter((p) => p.metrics[metric] != null).length);
    box.dataset.series = String(nseries);
    $('sweep-plot-info').textContent = `${metric} over ${xKey}` + (by && by !== xKey ? `, a line per ${by}` : '') +
      (many ? ', a plot per program' : '');
  }
}
