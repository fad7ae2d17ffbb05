/*
 * The exact profile of a run (/api/runs/ID/profile, or /api/jobs/N/profile
 * for a run that was not stored): the flame graph (d3-flame-graph: icicle
 * or flame, search, click to zoom) from every distinct call stack's own
 * cycles; the call timeline (every call at its exact cycles, drawn on a
 * uPlot cycle axis: zoom, pan, the call under the pointer); the flat table (sortable); the call graph around the chosen
 * function drawn by cytoscape (breadth-first layout, every arc labelled
 * with its exact calls and cycles) beside the arcs as tables; the
 * annotated disassembly with cycles, retired instructions, cache misses
 * and stalls per instruction, heat-coloured, and the same added up per
 * source line.
 */
import { select } from 'd3-selection';
import flamegraph from 'd3-flame-graph';
import '../node_modules/d3-flame-graph/dist/d3-flamegraph.css';
import cytoscape from 'cytoscape';
import uPlot from 'uplot';
import { $, el, fmtInt, fmtTicks, hex, pct } from './util.js';

function hashName(s) {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (h * 31 + s.charCodeAt(i)) >>> 0;
  return h;
}

/* Heat: white through orange to red by the share of the largest. */
function heat(v, max) {
  if (!v || !max) return '';
  const f = Math.min(1, v / max);
  return `hsl(${Math.round(40 - 35 * f)}, 95%, ${Math.round(96 - 38 * f)}%)`;
}

export class ProfileView {
  constructor() {
    this.sortKey = 1; this.sortDesc = true;
    this.p = null;
    this.visible = false;
  }

  show(prof, what) {
    this.p = prof;
    this.what = what;
    const total = prof.total_cycles;
    $('profile-of').textContent = what ? 'of ' + what : '';
    $('profile-view').dataset.of = what || '';
    $('profile-none').classList.add('hidden');
    $('profile-view').classList.remove('hidden');
    const ran = prof.functions.filter((f) => f.self[0] > 0).length;
    $('profile-summary').textContent =
      `${fmtInt(total)} cycles in ${ran} functions that ran` +
      (prof.lines ? '; source lines from the ELF’s debug information.' : '; no source lines (build with -g for them).');
    this.flat();
    const sel = $('annotate-func');
    sel.textContent = '';
    const names = Object.keys(prof.code).sort((a, b) => this.byName(b).self[0] - this.byName(a).self[0]);
    for (const n of names) sel.append(el('option', { value: n }, n));
    sel.onchange = () => this.select(sel.value);
    $('cg-depth').onchange = () => this.callgraph(this.current);
    $('flame-search').oninput = () => this.search();
    $('flame-icicle').onchange = () => this.flame();
    $('flame-reset').onclick = () => { if (this.chart) this.chart.resetZoom(); };
    $('timeline-reset').onclick = () => { if (this.tl) this.tl.setScale('x', { min: 0, max: this.tlEnd }); };
    this.flameDrawn = false;
    this.cgDrawn = null;
    if (names.length) this.select(names[0]);
    this.shown();
  }

  /* The flame graph and the call graph need their width: drawn when the tab shows. */
  shown() {
    if (!this.p || !$('tab-profile').classList.contains('on')) return;
    if (!this.flameDrawn) { this.flame(); this.timeline(); }
    if (this.cgDrawn !== this.current) this.callgraph(this.current);
  }

  byName(n) { return this.p.functions.find((f) => f.name === n) || { self: [0] }; }

  columns() {
    const total = this.p.total_cycles;
    const cols = [
      { h: 'function', v: (f) => f.name, text: true },
      { h: 'self cycles', v: (f) => f.self[0] },
      { h: '%', v: (f) => f.self[0], show: (f) => pct(f.self[0], total) },
      { h: 'calls', v: (f) => f.calls },
      { h: 'inclusive cycles', v: (f) => f.incl },
    ];
    this.p.signals.forEach((s, i) => { if (i > 0) cols.push({ h: s.noun, v: (f) => f.self[i] }); });
    return cols;
  }

  flat() {
    const t = $('flat');
    const cols = this.columns();
    const head = el('tr');
    cols.forEach((c, i) => {
      const th = el('th', { class: 'sortable' + (c.text ? '' : ' num') }, c.h + (i === this.sortKey ? (this.sortDesc ? ' ▼' : ' ▲') : ''));
      th.onclick = () => { this.sortDesc = this.sortKey === i ? !this.sortDesc : !c.text; this.sortKey = i; this.flat(); };
      head.append(th);
    });
    t.tHead.replaceChildren(head);
    const c = cols[this.sortKey];
    const rows = this.p.functions.filter((f) => f.self[0] > 0 || f.calls > 0).slice();
    rows.sort((a, b) => {
      const x = c.v(a), y = c.v(b);
      const d = c.text ? String(x).localeCompare(String(y)) : x - y;
      return this.sortDesc ? -d : d;
    });
    const body = t.tBodies[0];
    body.textContent = '';
    const max = Math.max(1, ...rows.map((f) => f.self[0]));
    for (const f of rows) {
      const tr = el('tr', { class: 'pick' + (f.name === this.current ? ' sel' : '') });
      for (const col of cols)
        tr.append(el('td', col.text ? {} : { class: 'num' }, col.show ? col.show(f) : col.text ? col.v(f) : fmtInt(col.v(f))));
      tr.cells[1].style.background = heat(f.self[0], max);
      tr.onclick = () => this.select(f.name);
      body.append(tr);
    }
  }

  select(name) {
    this.current = name;
    $('annotate-func').value = name;
    for (const tr of $('flat').tBodies[0].rows) tr.classList.toggle('sel', tr.cells[0].textContent === name);
    this.arcTables(name);
    if ($('tab-profile').classList.contains('on')) this.callgraph(name);
    this.annotate(name);
  }

  /* ---- flame graph ---- */

  /* stacks: [[names...], self cycles] -> {name, value (inclusive), children}. */
  tree() {
    const root = { name: 'all', value: 0, kids: new Map() };
    for (const [names, v] of this.p.stacks) {
      let n = root;
      root.value += v;
      for (const name of names) {
        let k = n.kids.get(name);
        if (!k) { k = { name, value: 0, kids: new Map() }; n.kids.set(name, k); }
        k.value += v;
        n = k;
      }
    }
    const out = (n) => ({ name: n.name, value: n.value, children: [...n.kids.values()].map(out) });
    return out(root);
  }

  flame() {
    const box = $('flame');
    if (this.chart) this.chart.destroy();
    box.textContent = '';
    const data = this.tree();
    let depth = 0;
    const walk = (n, d) => { depth = Math.max(depth, d); n.children.forEach((k) => walk(k, d + 1)); };
    walk(data, 1);
    const total = data.value;
    this.chart = flamegraph()
      .width(Math.max(400, box.clientWidth || 1000))
      .cellHeight(20)
      .minHeight(Math.max(160, depth * 20 + 20))
      .inverted($('flame-icicle').checked)
      .transitionDuration(0)
      .minFrameSize(1)
      .sort(true)
      .tooltip(false)
      .label((d) => `${d.data.name}: ${fmtInt(d.data.value)} cycles (${pct(d.data.value, total)})`)
      .setSearchHandler((results, sum) => {
        $('flame-found').textContent = $('flame-search').value ?
          `${results.length} frames, ${fmtInt(sum)} cycles (${pct(sum, total)})` : '';
        box.dataset.found = String(results.length);
      })
      .setDetailsElement($('flame-found'));
    select(box).datum(data).call(this.chart);
    box.dataset.frames = String(box.querySelectorAll('g.frame').length);
    box.dataset.depth = String(depth);
    this.flameDrawn = true;
    if ($('flame-search').value) this.search();
  }

  search() {
    if (!this.chart) return;
    const term = $('flame-search').value.trim();
    if (term) this.chart.search(term);
    else { this.chart.clear(); $('flame').dataset.found = '0'; $('flame-found').textContent = ''; }
  }

  /* ---- call timeline ---- */

  timeline() {
    const box = $('timeline');
    if (this.tl) { this.tl.destroy(); this.tl = null; }
    box.textContent = '';
    $('timeline-call').textContent = '';
    const sl = this.p.slices || [], fs = this.p.functions;
    box.dataset.slices = String(sl.length);
    if (!sl.length) {
      $('timeline-info').textContent = 'no timeline in this profile';
      return;
    }
    let depth = 0, end = 0;
    for (const s of sl) { if (s[3] > depth) depth = s[3]; if (s[2] > end) end = s[2]; }
    this.tlEnd = end;
    $('timeline-info').textContent = `${fmtInt(sl.length)} calls, ${depth + 1} deep` +
      (this.p.slices_cut ? `; the timeline stops at cycle ${fmtInt(this.p.slices_cut)} (its call limit)` : '');
    const LANE = 16;
    const name = (i) => (i >= 0 && fs[i] ? fs[i].name : '(outside any function)');
    const color = (i) => { const h = hashName(name(i)); return `hsl(${20 + (h % 40)}, 85%, ${60 + (h % 12)}%)`; };
    const draw = (u) => {
      const g = u.ctx, { left, top, width, height } = u.bbox, pr = devicePixelRatio || 1, lh = LANE * pr;
      const x0 = u.scales.x.min, x1 = u.scales.x.max;
      g.save();
      g.beginPath(); g.rect(left, top, width, height); g.clip();
      g.font = `${11 * pr}px system-ui, sans-serif`;
      g.textBaseline = 'middle';
      g.textAlign = 'left';
      const edge = new Float64Array(depth + 1).fill(-Infinity);  /* per lane: the right edge drawn so far */
      let drawn = 0;
      for (const s of sl) {
        if (s[2] < x0 || s[1] > x1) continue;
        const a = u.valToPos(s[1], 'x', true), b = u.valToPos(s[2], 'x', true);
        if (b < edge[s[3]] + 1) continue;  /* within a pixel already drawn in its lane */
        const w = Math.max(1, b - a), y = top + s[3] * lh;
        g.fillStyle = color(s[0]);
        g.fillRect(a, y, w, lh - pr);
        if (w > 40 * pr) {
          g.fillStyle = '#1d232b';
          const n = name(s[0]), fit = Math.floor((w - 6 * pr) / (6.5 * pr));
          g.fillText(n.length > fit ? n.slice(0, Math.max(1, fit - 1)) + '…' : n, Math.max(a, left) + 3 * pr, y + lh / 2);
        }
        edge[s[3]] = a + w;
        drawn++;
      }
      g.restore();
      box.dataset.drawn = String(drawn);
      box.dataset.xMin = String(x0);
      box.dataset.xMax = String(x1);
    };
    this.tl = new uPlot({
      width: Math.max(400, (box.clientWidth || 1000) - 20),
      height: (depth + 1) * LANE + 56,
      scales: { x: { time: false, range: (u, lo, hi) => [lo, hi] }, y: { range: [0, 1] } },
      series: [{ label: 'cycle' }, { label: 'calls', paths: () => null, points: { show: false } }],
      axes: [{ label: 'cycle', values: (u, v) => fmtTicks(v), labelSize: 18, size: 36 }, { show: false }],
      legend: { show: false },
      cursor: { drag: { x: true, y: false, setScale: true }, points: { show: false }, y: false },
      hooks: {
        draw: [draw],
        setCursor: [(u) => this.hoverCall(u, LANE)],
        ready: [(u) => u.over.addEventListener('wheel', (e) => {
          e.preventDefault();
          const { min, max } = u.scales.x, span = max - min;
          let lo, hi;
          if (e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY)) {
            const d = ((e.shiftKey ? e.deltaY : e.deltaX) > 0 ? 0.15 : -0.15) * span;
            lo = Math.max(0, min + d); hi = Math.min(end, lo + span); lo = hi - span;
          } else {
            const at = u.posToVal(e.offsetX, 'x'), f = e.deltaY < 0 ? 0.75 : 1 / 0.75;
            lo = Math.max(0, at - (at - min) * f); hi = Math.min(end, at + (max - at) * f);
          }
          if (hi - lo >= 1) u.setScale('x', { min: lo, max: hi });
        }, { passive: false })],
      },
    }, [[0, end], [null, null]], box);
  }

  /* The call under the pointer: its function, its exact cycles. */
  hoverCall(u, lane) {
    const { left, top } = u.cursor;
    if (left === undefined || left < 0 || top < 0) return;
    const x = u.posToVal(left, 'x'), d = Math.floor(top / lane);
    const sl = this.p.slices;
    let hit = null;
    for (const s of sl) if (s[3] === d && s[1] <= x && x < s[2]) { hit = s; break; }
    const out = $('timeline-call');
    if (!hit) { out.textContent = ''; delete $('timeline').dataset.hover; return; }
    const f = this.p.functions[hit[0]];
    out.textContent = `${f ? f.name : '(outside any function)'}: cycles ${fmtInt(hit[1])} to ${fmtInt(hit[2])}, ` +
      `${fmtInt(hit[2] - hit[1])} cycles, depth ${hit[3]}`;
    $('timeline').dataset.hover = JSON.stringify(hit);
  }

  /* ---- call graph ---- */

  arcTables(name) {
    $('cg-name').textContent = name;
    const fs = this.p.functions, idx = fs.findIndex((f) => f.name === name);
    const box = $('callgraph');
    box.textContent = '';
    const table = (title, arcs, other) => {
      const t = el('table', { class: 'grid' }, el('thead', {}, el('tr', {}, el('th', {}, title),
        el('th', { class: 'num' }, 'calls'), el('th', { class: 'num' }, 'inclusive cycles on this arc'))));
      const b = el('tbody');
      for (const a of arcs) {
        const o = a[other] >= 0 ? fs[a[other]].name : '(outside any function)';
        const tr = el('tr', { class: 'pick' }, el('td', {}, o), el('td', { class: 'num' }, fmtInt(a[2])),
          el('td', { class: 'num' }, fmtInt(a[3])));
        if (a[other] >= 0) tr.onclick = () => this.select(o);
        b.append(tr);
      }
      if (!arcs.length) b.append(el('tr', {}, el('td', { colspan: 3, class: 'muted' }, 'none')));
      t.append(b);
      return el('div', {}, t);
    };
    const callers = this.p.arcs.filter((a) => a[1] === idx).sort((x, y) => y[3] - x[3]);
    const callees = this.p.arcs.filter((a) => a[0] === idx).sort((x, y) => y[3] - x[3]);
    box.append(table('called by', callers, 0), table('calls', callees, 1));
  }

  /* The functions within `depth` arcs of the chosen one (both ways), every arc between them. */
  callgraph(name) {
    const box = $('callgraph-drawn');
    if (this.cy) { this.cy.destroy(); this.cy = null; }
    box.textContent = '';
    const fs = this.p.functions, idx = fs.findIndex((f) => f.name === name);
    if (idx < 0) return;
    const depth = Number($('cg-depth').value);
    const keep = new Set([idx]);
    let edge = [idx];
    for (let d = 0; d < depth && edge.length; d++) {
      const next = [];
      for (const a of this.p.arcs) {
        if (a[0] < 0 || a[1] < 0) continue;
        if (edge.includes(a[0]) && !keep.has(a[1])) { keep.add(a[1]); next.push(a[1]); }
        if (edge.includes(a[1]) && !keep.has(a[0])) { keep.add(a[0]); next.push(a[0]); }
      }
      edge = next;
    }
    const total = this.p.total_cycles;
    const elements = [];
    for (const i of keep) {
      const f = fs[i];
      elements.push({ data: { id: 'f' + i, name: f.name, label: `${f.name}\n${fmtInt(f.incl)} cycles (${pct(f.incl, total)})`,
        sel: i === idx ? 1 : 0, heat: total ? f.incl / total : 0 } });
    }
    const arcs = this.p.arcs.filter((a) => keep.has(a[0]) && keep.has(a[1]));
    arcs.forEach((a, k) => elements.push({ data: { id: 'a' + k, source: 'f' + a[0], target: 'f' + a[1],
      label: `${fmtInt(a[2])} calls · ${fmtInt(a[3])} cycles`, calls: a[2], cycles: a[3] } }));
    box.dataset.nodes = String(keep.size);
    box.dataset.arcs = String(arcs.length);
    box.dataset.labels = JSON.stringify(arcs.map((a) => [fs[a[0]].name, fs[a[1]].name, a[2], a[3]]));
    const called = new Set(arcs.map((a) => 'f' + a[1]));
    const roots = [...keep].map((i) => 'f' + i).filter((id) => !called.has(id));
    this.cy = cytoscape({
      container: box,
      elements,
      wheelSensitivity: 0.3,
      style: [
        { selector: 'node', style: { shape: 'round-rectangle', label: 'data(label)', 'text-wrap': 'wrap',
          'text-valign': 'center', 'font-size': 11, width: 'label', height: 'label', padding: 8,
          'background-color': (n) => heat(n.data('heat'), 1) || '#f0f2f5', 'border-width': 1, 'border-color': '#98a2b3' } },
        { selector: 'node[sel = 1]', style: { 'border-width': 3, 'border-color': '#1f6feb' } },
        { selector: 'edge', style: { 'curve-style': 'bezier', 'target-arrow-shape': 'triangle', label: 'data(label)',
          'font-size': 10, 'text-background-color': '#fff', 'text-background-opacity': 0.85, 'text-background-padding': 2,
          width: (e) => 1 + 4 * (total ? e.data('cycles') / total : 0), 'line-color': '#98a2b3', 'target-arrow-color': '#98a2b3' } },
      ],
      layout: { name: 'breadthfirst', directed: true, roots: roots.length ? roots : ['f' + idx], spacingFactor: 1.1, padding: 12 },
    });
    this.cy.on('tap', 'node', (ev) => this.select(ev.target.data('name')));
    this.cgDrawn = name;
  }

  /* ---- annotated code ---- */

  /* The text of a row's source line (tally serve --source-dir), or ''. */
  sourceText(file, line) {
    const t = this.p.sources && this.p.sources[file];
    return t && line > 0 && line <= t.length ? t[line - 1] : '';
  }

  annotate(name) {
    const rows = this.p.code[name] || [];
    const body = $('annotate').tBodies[0];
    body.textContent = '';
    const src = !!this.p.sources;
    $('annotate').classList.toggle('no-src', !src);
    $('annotate-lines').classList.toggle('no-src', !src);
    const max = Math.max(1, ...rows.map((r) => r[2]));
    const num = (v) => el('td', { class: 'num' }, v ? fmtInt(v) : '');
    let last = '';
    for (const r of rows) {
      /* the source beside the first instruction of each run of one line */
      const here = r[4] || '', text = src && here !== last ? this.sourceText(r[8], r[9]) : '';
      last = here;
      const tr = el('tr', {}, el('td', {}, hex(r[0])), el('td', {}, r[1]), num(r[2]), num(r[3]), num(r[5]), num(r[6]), num(r[7]),
        el('td', {}, r[4]), el('td', { class: 'src' }, text));
      tr.style.background = heat(r[2], max);
      body.append(tr);
    }
    /* per source line */
    $('lines-func').textContent = name;
    const lines = new Map(), texts = new Map();
    for (const r of rows) {
      const k = r[4] || '(no line)';
      if (src && !texts.has(k)) texts.set(k, this.sourceText(r[8], r[9]));
      const s = lines.get(k) || [0, 0, 0, 0, 0];
      s[0] += r[2]; s[1] += r[3]; s[2] += r[5] || 0; s[3] += r[6] || 0; s[4] += r[7] || 0;
      lines.set(k, s);
    }
    const lb = $('annotate-lines').tBodies[0];
    lb.textContent = '';
    const lmax = Math.max(1, ...[...lines.values()].map((s) => s[0]));
    const key = (k) => { const m = /^(.*):(\d+)$/.exec(k); return m ? [m[1], Number(m[2])] : [k, 0]; };
    for (const [k, s] of [...lines.entries()].sort((a, b) => {
      const [fa, la] = key(a[0]), [fb, lb2] = key(b[0]);
      return fa.localeCompare(fb) || la - lb2;
    })) {
      const tr = el('tr', {}, el('td', {}, k), ...s.map(num), el('td', { class: 'src' }, texts.get(k) || ''));
      tr.style.background = heat(s[0], lmax);
      lb.append(tr);
    }
  }
}
