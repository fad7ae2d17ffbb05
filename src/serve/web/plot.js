/*
 * Time series of the statistics module's intervals on a canvas: one line
 * per counter (or stacked areas), x = the interval's last cycle. Drawing is
 * O(points) with one min/max pair per pixel column and series, so 100,000
 * intervals redraw in milliseconds; redraws are coalesced to one per frame
 * while a run streams in. The container's data-points attribute says how
 * many intervals are drawn (the browser test reads it).
 */
'use strict';

const PLOT_COLORS = ['#1f6feb', '#e8590c', '#2f9e44', '#ae3ec9', '#f08c00', '#0c8599', '#c2255c', '#5c940d',
  '#364fc7', '#862e9c', '#d9480f', '#087f5b'];

class TimePlot {
  constructor(container) {
    this.box = container;
    this.box.textContent = '';
    this.canvas = document.createElement('canvas');
    this.box.appendChild(this.canvas);
    this.legend = document.createElement('div');
    this.legend.className = 'legend';
    this.box.after(this.legend);
    this.labels = [];
    this.x = [];      // cycle_end per interval
    this.ys = [];     // per series, values per interval
    this.stacked = false;
    this.pending = false;
    this.pad = { l: 70, r: 12, t: 10, b: 28 };
    this.xLabel = 'cycles';
    this.xMin = this.xMax = null;  // the x range drawn; null: 0 to the last x
    this.xTicks = null;   // [[x, label], ...] in place of numbered ticks (a sweep's axis values)
    new ResizeObserver(() => this.redraw()).observe(this.box);
  }

  setSeries(labels) {
    this.labels = labels;
    this.x = [];
    this.ys = labels.map(() => []);
    this.legend.textContent = '';
    labels.forEach((l, i) => {
      const s = document.createElement('span');
      const sw = document.createElement('i');
      sw.style.background = PLOT_COLORS[i % PLOT_COLORS.length];
      s.append(sw, l);
      this.legend.appendChild(s);
    });
    this.redraw();
  }

  /* rows: [index, cycle_end, v0, v1, ...] */
  append(rows) {
    for (const r of rows) {
      this.x.push(r[1]);
      for (let i = 0; i < this.ys.length; i++) this.ys[i].push(r[2 + i] ?? 0);  // NaN: no value there
    }
    this.redraw();
  }

  setStacked(on) { this.stacked = on; this.redraw(); }

  points() { return this.x.length; }

  redraw() {
    if (this.pending) return;
    this.pending = true;
    requestAnimationFrame(() => { this.pending = false; this.draw(); });
  }

  /* Series as drawn: stacked sums or the plain values. */
  drawnSeries() {
    if (!this.stacked) return this.ys;
    const out = [];
    let acc = new Float64Array(this.x.length);
    for (const y of this.ys) {
      const s = new Float64Array(this.x.length);
      for (let k = 0; k < s.length; k++) s[k] = acc[k] + y[k];
      out.push(s);
      acc = s;
    }
    return out;
  }

  draw() {
    const w = this.box.clientWidth, h = this.box.clientHeight, dpr = window.devicePixelRatio || 1;
    this.canvas.width = w * dpr; this.canvas.height = h * dpr;
    this.canvas.style.width = w + 'px'; this.canvas.style.height = h + 'px';
    const g = this.canvas.getContext('2d');
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.clearRect(0, 0, w, h);
    this.box.dataset.points = String(this.x.length);
    const n = this.x.length, P = this.pad, pw = w - P.l - P.r, ph = h - P.t - P.b;
    if (n === 0 || pw <= 0 || ph <= 0) {
      g.fillStyle = '#66707c'; g.font = '13px system-ui';
      g.fillText(this.labels.length ? 'waiting for the first interval…' : 'no counters', P.l, P.t + 20);
      return;
    }
    const series = this.drawnSeries();
    let ymax = 0;
    for (const s of series) for (let k = 0; k < n; k++) if (s[k] > ymax) ymax = s[k];
    ymax = ymax > 0 ? niceCeil(ymax) : 1;
    const x0 = this.xMin ?? 0, x1 = this.xMax ?? (this.x[n - 1] || 1);
    const px = (x) => P.l + (x - x0) / (x1 - x0 || 1) * pw;
    const py = (y) => P.t + ph - y / ymax * ph;
    this.axes(g, x1, ymax, px, py, w, h);
    series.forEach((s, i) => this.line(g, s, px, py, PLOT_COLORS[i % PLOT_COLORS.length], i, series));
  }

  axes(g, x1, ymax, px, py, w, h) {
    const P = this.pad;
    g.strokeStyle = '#d8dde3'; g.fillStyle = '#66707c'; g.font = '11px system-ui'; g.lineWidth = 1;
    g.textAlign = 'right';
    for (let k = 0; k <= 4; k++) {
      const y = ymax * k / 4, yy = Math.round(py(y)) + .5;
      g.beginPath(); g.moveTo(P.l, yy); g.lineTo(w - P.r, yy); g.stroke();
      g.fillText(fmtShort(y), P.l - 6, yy + 4);
    }
    g.textAlign = 'center';
    if (this.xTicks) {
      for (const [x, label] of this.xTicks) g.fillText(label, px(x), h - P.b + 16);
    } else {
      for (let k = 0; k <= 5; k++) {
        const x = x1 * k / 5;
        g.fillText(fmtShort(x), px(x), h - P.b + 16);
      }
    }
    g.textAlign = 'right';
    g.fillText(this.xLabel, w - P.r, h - 2);
  }

  /* One series, one min/max per pixel column (dense) or point to point. */
  line(g, s, px, py, color, i, series) {
    const n = this.x.length;
    g.strokeStyle = color; g.lineWidth = 1.5;
    if (this.stacked) g.fillStyle = color + '55';
    g.beginPath();
    let col = -1, lo = 0, hi = 0, first = true;
    const flush = () => {
      if (col < 0) return;
      if (first) { g.moveTo(col, py(lo)); first = false; } else g.lineTo(col, py(lo));
      if (hi !== lo) g.lineTo(col, py(hi));
    };
    for (let k = 0; k < n; k++) {
      const c = Math.round(px(this.x[k]));
      const v = s[k];
      if (c !== col) { flush(); col = c; lo = hi = v; } else { if (v < lo) lo = v; if (v > hi) hi = v; }
    }
    flush();
    g.stroke();
    if (this.stacked) {
      const below = i > 0 ? series[i - 1] : null;
      for (let k = n - 1; k >= 0; k--) g.lineTo(px(this.x[k]), py(below ? below[k] : 0));
      g.closePath(); g.fill();
    }
  }
}

function niceCeil(v) {
  const e = Math.pow(10, Math.floor(Math.log10(v)));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * e >= v) return m * e;
  return 10 * e;
}

function fmtShort(v) {
  const a = Math.abs(v);
  if (a >= 1e9) return +(v / 1e9).toPrecision(3) + 'G';
  if (a >= 1e6) return +(v / 1e6).toPrecision(3) + 'M';
  if (a >= 1e3) return +(v / 1e3).toPrecision(3) + 'k';
  return String(+v.toPrecision(3));
}
