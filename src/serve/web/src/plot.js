/*
 * The statistics module's intervals over cycles, drawn by uPlot (fast with
 * 100,000+ points per series, several y scales, a cursor with values):
 *
 * - views: one y axis per signal kind (cycles beside misses: each spans its
 *   own axis), small multiples (one plot per series, one cursor and one
 *   zoom), or normalised (each series over its largest interval); any of
 *   them on a log scale (a zero interval is a gap there);
 * - zoom and pan on the cycle axis: drag to zoom, the wheel zooms about the
 *   cursor, shift + wheel pans, a double click or "whole run" resets;
 * - hover: the legend shows each series' value under the cursor, and the
 *   interval table below follows the cursor: each run's interval there
 *   (its index and cycle span) and every series' raw count in it.
 *
 * Several runs overlay in one plot (groups): each has its own intervals
 * (x = the cycle an interval ends), uPlot.join aligns them; a pair keeps
 * its colour across runs, each run its own dash.
 *
 * The box's data attributes tell the browser test what is drawn:
 * data-points (intervals), data-x-min/max (the visible cycle range) and
 * data-extents (per series, the pixel rows its visible values span).
 */
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { el, fmtInt, fmtShort, fmtTicks, COLORS } from './util.js';

const DASHES = [[], [7, 4], [2, 3], [10, 3, 2, 3]];

/* "dcache.read_miss@AddRoundKey", "cycle in main" -> "dcache.read_miss", "cycle" */
export function signalKind(label) {
  return String(label).split(/@| in /)[0].trim();
}

export class SeriesPlot {
  /* opts.height: of one plot; opts.views: offer the view controls. */
  constructor(box, opts = {}) {
    this.box = box;
    this.opts = Object.assign({ height: 300, xLabel: 'cycle' }, opts);
    this.view = 'axes';
    this.log = false;
    this.series = [];  // {label, kind, group, col, color}
    this.groups = [];  // {name, x: [], idx: [], ys: [[]]}
    this.plots = [];
    this.zoom = null;  // [lo, hi] of the cycle axis, or null: the whole run
    this.pending = false;
    box.textContent = '';
    box.classList.add('series-plot');
    const view = el('select', { class: 'plot-view', title: 'how the series share the plot' },
      el('option', { value: 'axes' }, 'an axis per signal'), el('option', { value: 'small' }, 'small multiples'),
      el('option', { value: 'norm' }, 'normalised'));
    view.onchange = () => { this.view = view.value; this.build(); };
    const log = el('input', { type: 'checkbox', class: 'plot-log' });
    log.onchange = () => { this.log = log.checked; this.build(); };
    const reset = el('button', { class: 'plot-reset', title: 'show the whole run' }, 'whole run');
    reset.onclick = () => this.setZoom(null);
    this.info = el('span', { class: 'muted plot-info' });
    this.bar = el('div', { class: 'row plot-bar' }, el('label', {}, 'view ', view), el('label', {}, log, ' log scale'),
      reset, el('span', { class: 'muted' }, 'drag or wheel to zoom, shift + wheel to pan'), this.info);
    this.area = el('div', { class: 'plot-area' });
    this.table = el('table', { class: 'grid cursor-table' });
    box.append(this.bar, this.area, this.table);
    this.controls = { view, log };
    new ResizeObserver(() => this.resize()).observe(this.area);
    this.stamp();
  }

  /* groups: [{name}] (a run each); series: [{label, group, col}] in group order. */
  setSeries(groups, series) {
    this.groups = groups.map((g) => ({ name: g.name, x: [], idx: [], ys: [] }));
    const kinds = [];
    this.series = series.map((s) => {
      const kind = s.kind || signalKind(s.label);
      if (!kinds.includes(kind)) kinds.push(kind);
      return Object.assign({ kind }, s);
    });
    const pairs = [...new Set(this.series.map((s) => s.pair || s.label))];
    for (const s of this.series) {
      s.color = COLORS[pairs.indexOf(s.pair || s.label) % COLORS.length];
      s.dash = DASHES[s.group % DASHES.length];
      this.groups[s.group].ys[s.col] = [];
    }
    this.kinds = kinds;
    this.zoom = null;
    this.build();
  }

  /* rows: [index, cycle_end, v0, v1, ...] of one group (a run). */
  append(group, rows) {
    const g = this.groups[group];
    for (const r of rows) {
      g.idx.push(r[0]);
      g.x.push(r[1]);
      for (let k = 0; k < g.ys.length; k++) if (g.ys[k]) g.ys[k].push(r[2 + k] ?? null);
    }
    this.refresh();
  }

  points() { return Math.max(0, ...this.groups.map((g) => g.x.length)); }

  /* The series' values as one aligned table: [x, per series...]. */
  table0() {
    const per = this.groups.map((g, gi) => [g.x, ...this.series.filter((s) => s.group === gi).map((s) => g.ys[s.col])]);
    if (per.length === 1) return per[0];
    const nonEmpty = per.map((t) => (t[0].length ? t : [[], ...t.slice(1).map(() => [])]));
    return uPlot.join(nonEmpty);
  }

  /* As drawn: normalised to each series' largest interval, zeros gone on a log scale. */
  drawn(data) {
    const out = [data[0]];
    for (let i = 1; i < data.length; i++) {
      let ys = data[i];
      if (this.view === 'norm') {
        let m = 0;
        for (const v of ys) if (v > m) m = v;
        ys = ys.map((v) => (v === null || v === undefined ? null : m ? v / m : 0));
      }
      if (this.log) ys = ys.map((v) => (v > 0 ? v : null));
      out.push(ys);
    }
    return out;
  }

  width() { return Math.max(300, this.area.clientWidth || this.box.clientWidth || 900); }

  seriesOpts(s) {
    return {
      label: (this.groups.length > 1 ? this.groups[s.group].name + ': ' : '') + s.label,
      stroke: s.color, width: 1.5, dash: s.dash, spanGaps: true, points: { show: false },
      scale: this.view === 'norm' ? 'n' : this.view === 'small' ? 'y' : 'k' + this.kinds.indexOf(s.kind),
      value: (u, v) => (v === null || v === undefined ? '—' : this.view === 'norm' ? (100 * v).toFixed(1) + '%' : fmtShort(v)),
    };
  }

  scaleOpts() {
    const sc = { x: { time: false } };
    const y = this.log ? { distr: 3, log: 10 } : { range: (u, lo, hi) => [Math.min(0, lo), hi > 0 ? hi * 1.05 : 1] };
    if (this.view === 'norm') sc.n = this.log ? { distr: 3, log: 10 } : { range: [0, 1.05] };
    else if (this.view === 'small') sc.y = Object.assign({}, y);
    else this.kinds.forEach((k, i) => { sc['k' + i] = Object.assign({}, y); });
    return sc;
  }

  axisOpts(kindsShown) {
    const xAxis = { label: this.opts.xLabel, values: (u, vals) => fmtTicks(vals), labelSize: 18, size: 36 };
    const yv = (u, vals) => fmtTicks(vals);
    if (this.view === 'norm')
      return [xAxis, { scale: 'n', label: 'share of its largest interval', values: (u, vals) => vals.map((v) => Math.round(100 * v) + '%'), size: 56 }];
    return [xAxis, ...kindsShown.map((k, i) => ({
      scale: this.view === 'small' ? 'y' : 'k' + this.kinds.indexOf(k), label: k, values: yv, size: 56,
      side: i % 2 ? 1 : 3, grid: { show: i === 0 },
      stroke: kindsShown.length > 1 ? this.series.find((s) => s.kind === k).color : undefined,
    }))];
  }

  /* (Re)makes the uPlot instances for the view. */
  build() {
    for (const p of this.plots) p.destroy();
    this.plots = [];
    this.area.textContent = '';
    this.syncKey = 'tally-' + Math.random().toString(36).slice(2);
    if (!this.series.length) {
      this.area.append(el('p', { class: 'muted' }, this.groups.length && this.opts.waiting ? 'waiting for the run’s counters…' : 'no counters to plot'));
      this.stamp();
      return;
    }
    const data = this.drawn(this.table0());
    const parts = this.view === 'small' ? this.series.map((s, i) => [i]) : [this.series.map((s, i) => i)];
    for (const idxs of parts) {
      const kindsShown = [...new Set(idxs.map((i) => this.series[i].kind))];
      const div = el('div', { class: 'plot-one' });
      this.area.append(div);
      const opts = {
        width: this.width(),
        height: this.view === 'small' ? Math.max(110, Math.min(170, 420 / parts.length)) : this.opts.height,
        scales: this.scaleOpts(),
        series: [{ label: this.opts.xLabel, value: (u, v) => (v === null || v === undefined ? '—' : fmtInt(v)) },
          ...idxs.map((i) => this.seriesOpts(this.series[i]))],
        axes: this.axisOpts(kindsShown),
        cursor: { drag: { x: true, y: false, setScale: true }, sync: { key: this.syncKey, setSeries: false } },
        legend: { live: true },
        hooks: {
          setScale: [(u, key) => { if (key === 'x') this.onScale(u); }],
          setCursor: [(u) => this.onCursor(u)],
          ready: [(u) => this.wheel(u)],
          draw: [() => this.stamp()],
        },
      };
      const pd = [data[0], ...idxs.map((i) => data[1 + i])];
      this.plots.push(new uPlot(opts, pd, div));
    }
    if (this.zoom) this.setZoom(this.zoom);
    this.stamp();
  }

  /* New intervals: data only, coalesced to a frame; the zoom stays. */
  refresh() {
    if (this.pending) return;
    this.pending = true;
    requestAnimationFrame(() => {
      this.pending = false;
      if (!this.plots.length) return this.build();
      const data = this.drawn(this.table0());
      const parts = this.view === 'small' ? this.series.map((s, i) => [i]) : [this.series.map((s, i) => i)];
      this.plots.forEach((p, k) => {
        p.setData([data[0], ...parts[k].map((i) => data[1 + i])], !this.zoom);
        if (this.zoom) p.setScale('x', { min: this.zoom[0], max: this.zoom[1] });
      });
      this.stamp();
    });
  }

  resize() {
    const w = this.width();
    for (const p of this.plots) if (p.width !== w) p.setSize({ width: w, height: p.height });
    this.stamp();
  }

  dataRange() {
    let lo = Infinity, hi = -Infinity;
    for (const g of this.groups) if (g.x.length) { lo = Math.min(lo, g.x[0]); hi = Math.max(hi, g.x[g.x.length - 1]); }
    return lo <= hi ? [lo, hi] : null;
  }

  setZoom(z) {
    const r = this.dataRange();
    this.zoom = z && r && (z[0] > r[0] || z[1] < r[1]) ? z : null;
    const [lo, hi] = this.zoom || r || [0, 1];
    this.syncing = true;
    for (const p of this.plots) p.setScale('x', { min: lo, max: hi });
    this.syncing = false;
    this.stamp();
  }

  onScale(u) {
    if (this.syncing) return;
    const { min, max } = u.scales.x;
    const r = this.dataRange();
    this.zoom = r && (min > r[0] || max < r[1]) ? [min, max] : null;
    this.syncing = true;
    for (const p of this.plots) if (p !== u) p.setScale('x', { min, max });
    this.syncing = false;
    this.stamp();
  }

  /* The wheel zooms the cycle axis about the cursor; with shift it pans. */
  wheel(u) {
    u.over.addEventListener('wheel', (e) => {
      e.preventDefault();
      const r = this.dataRange();
      if (!r) return;
      const { min, max } = u.scales.x, span = max - min;
      let lo, hi;
      if (e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY)) {
        const d = (e.shiftKey ? e.deltaY : e.deltaX) > 0 ? span * 0.15 : -span * 0.15;
        lo = min + d; hi = max + d;
        if (lo < r[0]) { hi += r[0] - lo; lo = r[0]; }
        if (hi > r[1]) { lo -= hi - r[1]; hi = r[1]; }
      } else {
        const at = u.posToVal(e.offsetX, 'x'), f = e.deltaY < 0 ? 0.75 : 1 / 0.75;
        lo = Math.max(r[0], at - (at - min) * f);
        hi = Math.min(r[1], at + (max - at) * f);
      }
      if (hi - lo < 1) return;
      this.setZoom([lo, hi]);
    }, { passive: false });
  }

  /* Each run's interval under the cursor, every series' raw count in it. */
  onCursor(u) {
    const idx = u.cursor.idx;
    if (idx === null || idx === undefined) return;
    const x = u.data[0][idx];
    if (x === undefined || x === this.cursorX) return;
    this.cursorX = x;
    this.fillTable(x);
  }

  fillTable(x) {
    const rows = [];
    const pairs = [...new Set(this.series.map((s) => s.pair || s.label))];
    const head = el('tr', {}, el('th', {}, this.groups.length > 1 ? 'run' : ''), el('th', { class: 'num' }, 'interval'),
      el('th', { class: 'num' }, 'cycles'), ...pairs.map((p) => el('th', { class: 'num' }, p)));
    this.groups.forEach((g, gi) => {
      if (!g.x.length) return;
      let lo = 0, hi = g.x.length - 1;  /* the first interval ending at or after x */
      while (lo < hi) { const m = (lo + hi) >> 1; if (g.x[m] < x) lo = m + 1; else hi = m; }
      const start = lo ? g.x[lo - 1] : 0;
      const cells = pairs.map((p) => {
        const s = this.series.find((t) => t.group === gi && (t.pair || t.label) === p);
        return el('td', { class: 'num' }, s ? fmtInt(g.ys[s.col][lo]) : '');
      });
      rows.push(el('tr', {}, el('td', {}, this.groups.length > 1 ? g.name : ''), el('td', { class: 'num' }, String(g.idx[lo])),
        el('td', { class: 'num' }, `${fmtInt(start)}–${fmtInt(g.x[lo])}`), ...cells));
    });
    this.table.replaceChildren(el('thead', {}, head), el('tbody', {}, ...rows));
    this.box.dataset.cursorX = String(x);
  }

  /* What the test reads: intervals, the visible range, each series' drawn extent in pixels. */
  stamp() {
    const b = this.box.dataset;
    b.points = String(this.points());
    b.view = this.view;
    b.log = this.log ? '1' : '0';
    const p0 = this.plots[0];
    if (!p0 || p0.scales.x.min === null || p0.scales.x.min === undefined) { b.xMin = b.xMax = ''; b.extents = '[]'; return; }
    b.xMin = String(p0.scales.x.min);
    b.xMax = String(p0.scales.x.max);
    const ext = [];
    const parts = this.view === 'small' ? this.series.map((s, i) => [i]) : [this.series.map((s, i) => i)];
    this.plots.forEach((p, k) => {
      parts[k].forEach((i, j) => {
        const ys = p.data[1 + j] || [], xs = p.data[0], sc = p.series[1 + j].scale;
        let top = Infinity, bot = -Infinity;
        for (let n = 0; n < xs.length; n++) {
          const v = ys[n];
          if (v === null || v === undefined || xs[n] < p.scales.x.min || xs[n] > p.scales.x.max) continue;
          const y = p.valToPos(v, sc);
          if (y < top) top = y;
          if (y > bot) bot = y;
        }
        ext.push({ label: p.series[1 + j].label, top: Number.isFinite(top) ? Math.round(top) : null,
          bottom: Number.isFinite(bot) ? Math.round(bot) : null, height: Math.round(p.bbox.height / devicePixelRatio) });
      });
    });
    b.extents = JSON.stringify(ext);
  }
}
