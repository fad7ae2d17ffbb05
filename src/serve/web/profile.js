/*
 * The exact profile of a run, from /api/jobs/N/profile: the flat table
 * (sortable), a flame graph drawn in SVG from every distinct call stack's
 * own cycles, the call graph around the chosen function (exact arcs), and
 * its annotated disassembly with source lines.
 */
'use strict';

const SVGNS = 'http://www.w3.org/2000/svg';

function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  for (const k of kids) e.append(k);
  return e;
}

function svg(tag, attrs) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  return e;
}

function fmtInt(v) { return Number(v).toLocaleString('en-US'); }
function hex(v) { return '0x' + Number(v).toString(16).padStart(8, '0'); }
function pct(v, t) { return t ? (100 * v / t).toFixed(1) + '%' : ''; }

class ProfileView {
  constructor() {
    this.sortKey = 1; this.sortDesc = true;
  }

  show(prof) {
    this.p = prof;
    const total = prof.total_cycles;
    document.getElementById('profile-none').classList.add('hidden');
    document.getElementById('profile-view').classList.remove('hidden');
    const ran = prof.functions.filter((f) => f.self[0] > 0).length;
    document.getElementById('profile-summary').textContent =
      `${fmtInt(total)} cycles in ${ran} functions that ran` +
      (prof.lines ? '; source lines from the ELF’s debug information.' : '; no source lines (build with -g for them).');
    this.flat();
    this.flame();
    const sel = document.getElementById('annotate-func');
    sel.textContent = '';
    const names = Object.keys(prof.code).sort((a, b) => this.byName(b).self[0] - this.byName(a).self[0]);
    for (const n of names) sel.append(el('option', { value: n }, n));
    sel.onchange = () => this.select(sel.value);
    if (names.length) this.select(names[0]);
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
    const t = document.getElementById('flat');
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
    for (const f of rows) {
      const tr = el('tr', { class: 'pick' + (f.name === this.current ? ' sel' : '') });
      for (const col of cols)
        tr.append(el('td', col.text ? {} : { class: 'num' }, col.show ? col.show(f) : col.text ? col.v(f) : fmtInt(col.v(f))));
      tr.onclick = () => this.select(f.name);
      body.append(tr);
    }
  }

  select(name) {
    this.current = name;
    document.getElementById('annotate-func').value = name;
    for (const tr of document.getElementById('flat').tBodies[0].rows)
      tr.classList.toggle('sel', tr.cells[0].textContent === name);
    this.callgraph(name);
    this.annotate(name);
  }

  callgraph(name) {
    document.getElementById('cg-name').textContent = name;
    const fs = this.p.functions, idx = fs.findIndex((f) => f.name === name);
    const box = document.getElementById('callgraph');
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

  annotate(name) {
    const rows = this.p.code[name] || [];
    const body = document.getElementById('annotate').tBodies[0];
    body.textContent = '';
    const total = rows.reduce((s, r) => s + r[2], 0);
    for (const r of rows) {
      const tr = el('tr', { class: r[2] > total * 0.05 ? 'hot' : '' }, el('td', {}, hex(r[0])), el('td', {}, r[1]),
        el('td', { class: 'num' }, r[2] ? fmtInt(r[2]) : ''), el('td', { class: 'num' }, r[3] ? fmtInt(r[3]) : ''),
        el('td', {}, r[4]));
      body.append(tr);
    }
  }

  /* stacks: [[names...], self cycles] -> a tree of inclusive cycles. */
  tree() {
    const root = { name: 'all', value: 0, kids: new Map() };
    for (const [names, v] of this.p.stacks) {
      let n = root;
      root.value += v;
      for (const name of names) {
        let k = n.kids.get(name);
        if (!k) { k = { name, value: 0, kids: new Map(), parent: n }; n.kids.set(name, k); }
        k.value += v;
        n = k;
      }
    }
    return root;
  }

  flame(zoom) {
    const box = document.getElementById('flame');
    const root = this.tree();
    const top = zoom || root;
    const W = Math.max(box.clientWidth || 900, 300), H = 18;
    let depth = 0;
    const walk = (n, d) => { depth = Math.max(depth, d); for (const k of n.kids.values()) walk(k, d + 1); };
    walk(top, 0);
    const s = svg('svg', { width: W, height: (depth + 1) * H, 'data-frames': 0 });
    let frames = 0;
    const draw = (n, x, d, w) => {
      if (w < 0.5) return;
      const g = svg('g');
      const hue = 20 + (hashName(n.name) % 40);
      const r = svg('rect', { x: x.toFixed(1), y: d * H, width: Math.max(w, 0.5).toFixed(1), height: H - 1,
        fill: n === root ? '#c9d1da' : `hsl(${hue},85%,${58 + hashName(n.name) % 12}%)` });
      const title = svg('title');
      title.textContent = `${n.name}: ${fmtInt(n.value)} cycles (${pct(n.value, root.value)})`;
      g.append(r, title);
      if (w > 40) {
        const t = svg('text', { x: (x + 3).toFixed(1), y: d * H + 13 });
        t.textContent = n.name.length * 6.5 > w - 6 ? n.name.slice(0, Math.max(1, Math.floor((w - 6) / 6.5) - 1)) + '…' : n.name;
        g.append(t);
      }
      g.onclick = () => this.flame(n === top ? n.parent || null : n);
      s.append(g);
      frames++;
      let cx = x;
      for (const k of [...n.kids.values()].sort((a, b) => a.name.localeCompare(b.name))) {
        const kw = w * k.value / (n.value || 1);
        draw(k, cx, d + 1, kw);
        cx += kw;
      }
    };
    draw(top, 0, 0, W);
    s.setAttribute('data-frames', frames);
    box.replaceChildren(s);
  }
}

function hashName(s) {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (h * 31 + s.charCodeAt(i)) >>> 0;
  return h;
}
