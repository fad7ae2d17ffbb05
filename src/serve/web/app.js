/*
 * tally serve's page: upload, function table, pairs, run with live plot and
 * totals, stored runs (open, compare, delete, export), the profile, the
 * sweeps of --sweep-db (sweeps.js). Every
 * call goes to the JSON API (docs/tally-serve.md) with the X-Tally header
 * (the server refuses changes without it) and the token, if the page was
 * opened with ?token=.
 */
'use strict';

const state = { info: null, program: null, pairs: [], job: null, since: 0, plot: null, profile: new ProfileView(),
  events: [], sweeps: new SweepView() };
const $ = (id) => document.getElementById(id);
const TOKEN = new URLSearchParams(location.search).get('token');

async function api(path, opts = {}) {
  const headers = Object.assign({ 'X-Tally': '1' }, opts.headers || {});
  if (TOKEN) headers['X-Tally-Token'] = TOKEN;
  const r = await fetch('/api' + path, Object.assign({}, opts, { headers }));
  const type = r.headers.get('Content-Type') || '';
  const body = type.startsWith('application/json') ? await r.json() : await r.text();
  if (!r.ok) throw new Error(body && body.error ? body.error : `${r.status} ${r.statusText}`);
  return body;
}

function showError(id, msg) {
  const e = $(id);
  e.textContent = msg || '';
  e.classList.toggle('hidden', !msg);
}

function tab(name) {
  for (const b of document.querySelectorAll('.tab')) b.classList.toggle('on', b.dataset.tab === name);
  for (const p of document.querySelectorAll('.page')) p.classList.toggle('on', p.id === 'tab-' + name);
  if (name === 'runs') loadRuns();
  if (name === 'sweeps') state.sweeps.list();
  if (name === 'sweeps' && state.sweeps.plot) state.sweeps.plot.redraw();
  if (name === 'sweeps' && state.sweeps.sweep) state.sweeps.scatter(); /* its width is known only when shown */
  if (name === 'measure' && state.plot) state.plot.redraw();
  if (name === 'profile' && state.profile.p) state.profile.flame(); /* its width is known only when shown */
}

/* ---- program ---- */

async function upload(ev) {
  ev.preventDefault();
  showError('upload-error', '');
  const kind = document.querySelector('input[name=kind]:checked').value;
  const fd = new FormData();
  fd.append('kind', kind);
  if (kind === 'elf') {
    if (!$('elf-file').files[0]) return showError('upload-error', 'Choose an ELF file first.');
    fd.append('elf', $('elf-file').files[0]);
  } else {
    if (!$('bin-file').files[0] || !$('map-file').files[0])
      return showError('upload-error', 'Choose both the .bin and its .map file.');
    fd.append('bin', $('bin-file').files[0]);
    fd.append('map', $('map-file').files[0]);
    fd.append('load_addr', $('load-addr').value.trim());
  }
  $('upload-status').textContent = 'uploading…';
  try {
    state.program = await api('/programs', { method: 'POST', body: fd });
    $('upload-status').textContent = '';
    showProgram();
  } catch (e) {
    $('upload-status').textContent = '';
    $('program-view').classList.add('hidden');
    showError('upload-error', 'The upload was refused: ' + e.message);
  }
}

function showProgram() {
  const p = state.program;
  $('program-view').classList.remove('hidden');
  const withFile = p.functions.filter((f) => f.file).length;
  $('program-summary').textContent = `Program ${p.id}: ${p.kind === 'elf' ? 'ELF' : 'raw binary at ' + hex(p.load_addr)}, ` +
    `${p.functions.length} functions` + (withFile ? `, ${withFile} with their source file.` : '.');
  renderFunctions();
  const dl = $('func-names');
  dl.textContent = '';
  for (const f of p.functions) dl.append(el('option', { value: f.name }));
}

function renderFunctions() {
  const q = $('func-filter').value.toLowerCase();
  const body = $('functions').tBodies[0];
  body.textContent = '';
  for (const f of state.program.functions) {
    if (q && !f.name.toLowerCase().includes(q) && !(f.file || '').toLowerCase().includes(q)) continue;
    const tr = el('tr', { class: 'pick' }, el('td', {}, f.name), el('td', {}, `${hex(f.lo)}–${hex(f.hi)}`),
      el('td', { class: 'num' }, fmtInt(f.size)), el('td', {}, f.file || ''));
    tr.onclick = () => { $('pair-where').value = f.name; tab('measure'); $('pair-signal').focus(); };
    body.append(tr);
  }
}

/* ---- pairs and the run ---- */

function fillCatalog() {
  const sel = $('pair-signal');
  for (const s of state.info.signals) sel.append(el('option', { value: s.name, title: s.meaning }, `${s.name} — ${s.noun}`));
  const meaning = () => {
    const s = state.info.signals.find((x) => x.name === sel.value);
    $('signal-meaning').textContent = s ? `${s.name}: high on the cycles where ${s.meaning}.` : '';
  };
  sel.onchange = meaning;
  meaning();
  for (const c of state.info.cores.sort()) $('core').append(el('option', { value: c }, c));
  $('core').value = 'tally5';
  $('max-insns').value = state.info.limits.max_insns;
}

function addPair(ev) {
  ev.preventDefault();
  showError('pair-error', '');
  const sig = $('pair-signal').value, where = $('pair-where').value.trim();
  if (where && where !== 'anywhere' && !/^0x[0-9a-f]+-0x[0-9a-f]+$/i.test(where) && state.program &&
      !state.program.functions.some((f) => f.name === where))
    return showError('pair-error', `No function named “${where}” in the program: pick one from the list or give 0xLO-0xHI.`);
  const spec = where && where !== 'anywhere' ? `${sig}@${where}` : sig;
  if (state.pairs.includes(spec)) return;
  state.pairs.push(spec);
  renderPairs();
}

function pairWords(spec) {
  const [sig, where] = spec.split('@');
  const s = state.info.signals.find((x) => x.name === sig);
  return `${s ? s.noun : sig} ${where ? 'in ' + where : 'anywhere'}`;
}

function renderPairs() {
  const ul = $('pairs');
  ul.textContent = '';
  state.pairs.forEach((p, i) => {
    const b = el('button', { title: 'remove' }, '×');
    b.onclick = () => { state.pairs.splice(i, 1); renderPairs(); };
    ul.append(el('li', { 'data-spec': p }, el('code', {}, p), ' — ' + pairWords(p), b));
  });
}

async function run() {
  showError('run-error', '');
  if (!state.program) return showError('run-error', 'Upload a program first (tab 1).');
  const num = (id) => Number($(id).value);
  const req = {
    program: state.program.id, core: $('core').value, profile: $('profile').checked,
    sets: $('sets').value.split('\n').map((s) => s.trim()).filter(Boolean),
    args: $('args').value.split(/\s+/).filter(Boolean),
    pairs: state.pairs, counters: num('counters'), width: num('width'), arrs: num('arrs'),
    interval: num('interval'), max_insns: num('max-insns'),
  };
  try {
    const r = await api('/jobs', { method: 'POST', body: JSON.stringify(req), headers: { 'Content-Type': 'application/json' } });
    startWatching(r.job, req);
  } catch (e) {
    showError('run-error', 'The run was refused: ' + e.message);
  }
}

function startWatching(job, req) {
  state.job = job; state.since = 0; state.events = []; state.req = req;
  $('live').classList.remove('hidden');
  $('run').disabled = true; $('stop').disabled = false;
  $('output').textContent = ''; $('status').textContent = 'running…'; $('status').className = '';
  $('totals').tBodies[0].textContent = ''; $('signals').tBodies[0].textContent = '';
  $('progress').value = 0; $('progress-text').textContent = 'starting…';
  if (!state.plot) state.plot = new TimePlot($('plot'));
  state.plot.setSeries([]);
  $('live').dataset.state = 'running';
  delete $('live').dataset.runId;
  poll();
}

async function poll() {
  let r;
  try {
    r = await api(`/jobs/${state.job}?since=${state.since}`);
  } catch (e) {
    showError('run-error', e.message);
    return finishWatching();
  }
  state.since = r.next;
  if (r.dropped) showError('run-error', `${fmtInt(r.dropped)} of the run's events were no longer kept by the server (its --keep-run and --keep-all): the plot lacks them; the stored run has every interval.`);
  for (const e of r.events) onEvent(e);
  if (r.more) return setTimeout(poll, 0);
  if (r.state === 'running') return setTimeout(poll, 250);
  if (r.reason) {
    $('status').textContent = `The run was ${r.reason.startsWith('stopped') ? '' : 'stopped: '}${r.reason}.`;
    $('status').className = 'status-bad';
  }
  finishWatching(r.state);
}

function finishWatching(st) {
  $('run').disabled = false; $('stop').disabled = true;
  $('live').dataset.state = st || 'failed';
  if (state.req && state.req.profile && st === 'done') loadProfile(state.job);
}

function onEvent(e) {
  const plot = state.plot;
  if (e.t === 'start') {
    state.start = e;
    plot.setSeries(e.events.map((x) => x.label));
    $('plot-info').textContent = e.events.length ? `one point per ${fmtInt(state.req.interval)}-cycle interval; run ${e.run_id}` :
      'no (signal, where) pairs: nothing to plot';
  } else if (e.t === 'iv') {
    plot.append(e.rows);
  } else if (e.t === 'progress') {
    const budget = state.start ? state.start.max_insns : 0;
    $('progress').value = budget ? Math.min(1, e.insns / budget) : 0;
    $('progress-text').textContent = `${fmtInt(e.insns)} instructions, ${fmtInt(e.cycles)} cycles, ${fmtInt(e.intervals)} intervals`;
  } else if (e.t === 'out') {
    $('output').textContent += e.s;
  } else if (e.t === 'end') {
    onEnd(e);
  } else if (e.t === 'error' || e.t === 'warning') {
    showError('run-error', e.msg);
  }
}

function onEnd(e) {
  $('progress').value = 1;
  const words = {
    exit: `The program exited with status ${e.exit_code}`,
    trap: `The program stopped on an exception it has no handler for: ${e.trap}`,
    limit: 'The run used up its instruction budget', cycles: 'The run used up its cycle budget', halt: 'The program waits for an interrupt that can never come',
    cancelled: 'The run was cancelled', error: 'The simulation failed',
  }[e.stop] || e.stop;
  $('status').textContent = `${words} after ${fmtInt(e.insns)} instructions and ${fmtInt(e.cycles)} cycles (${e.detail}).` +
    (e.run_id !== '0x0000000000000000' ? ` Stored as run ${e.run_id}: ${e.verdict}${e.note ? ' — ' + e.note : ''}.` : '');
  $('status').className = e.stop === 'exit' && e.exit_code === 0 ? 'status-ok' : 'status-bad';
  $('live').dataset.runId = e.run_id;
  const tb = $('totals').tBodies[0];
  tb.textContent = '';
  for (const t of e.totals)
    tb.append(el('tr', {}, el('td', {}, t.label), el('td', { class: 'num' }, fmtInt(t.total) + (t.saturated ? ' (saturated: at least)' : ''))));
  if (!e.totals.length) tb.append(el('tr', {}, el('td', { colspan: 2, class: 'muted' }, 'no pairs were counted')));
  const sb = $('signals').tBodies[0];
  sb.textContent = '';
  for (const s of e.signals) sb.append(el('tr', {}, el('td', {}, s.noun), el('td', { class: 'num' }, fmtInt(s.total))));
}

async function loadProfile(job) {
  try {
    state.profile.show(await api(`/jobs/${job}/profile`));
  } catch (e) {
    $('profile-none').textContent = 'No profile: ' + e.message;
  }
}

/* ---- stored runs ---- */

async function loadRuns() {
  showError('runs-error', '');
  let r;
  try { r = await api('/runs'); } catch (e) { return showError('runs-error', e.message); }
  const body = $('runs-list').tBodies[0];
  body.textContent = '';
  for (const run of r.runs) {
    const tick = el('input', { type: 'checkbox', 'data-id': run.id });
    tick.onchange = () => { $('compare').disabled = document.querySelectorAll('#runs-list input:checked').length !== 2; };
    const open = el('button', {}, 'open'), del = el('button', {}, 'delete');
    open.onclick = () => openRuns([run.id]);
    del.onclick = async () => {
      if (!confirm(`Delete run ${run.id} from the store?`)) return;
      try { await api(`/runs/${run.id}`, { method: 'DELETE' }); loadRuns(); } catch (e) { showError('runs-error', e.message); }
    };
    const q = TOKEN ? `&token=${encodeURIComponent(TOKEN)}` : '';
    const csv = el('a', { href: `/api/runs/${run.id}/export?format=csv${q}`, download: '' }, 'CSV');
    const json = el('a', { href: `/api/runs/${run.id}/export?format=json${q}`, download: '' }, 'JSON');
    body.append(el('tr', { 'data-id': run.id }, el('td', {}, tick), el('td', {}, el('code', {}, run.id)), el('td', {}, run.program || ''),
      el('td', {}, run.core || ''), el('td', {}, run.started || ''), el('td', { class: 'num' }, fmtInt(run.intervals)),
      el('td', {}, run.status + (run.note ? ` (${run.note})` : '')), el('td', {}, open, ' ', del, ' ', csv, ' ', json)));
  }
  if (!r.runs.length) body.append(el('tr', {}, el('td', { colspan: 8, class: 'muted' }, 'no runs stored yet')));
}

/* Two runs' totals side by side, matched by their plain names. */
function compareTable(a, b) {
  const totals = (r) => new Map(r.events.filter((c) => c.enabled).map((c) => [c.label || c.signal, r.totals.stored[c.index] || 0]));
  const ta = totals(a), tb = totals(b);
  const t = el('table', { class: 'grid', id: 'compare-table' }, el('thead', {}, el('tr', {}, el('th', {}, 'event'),
    el('th', { class: 'num' }, a.id), el('th', { class: 'num' }, b.id), el('th', { class: 'num' }, 'difference'),
    el('th', { class: 'num' }, 'ratio'))));
  const body = el('tbody');
  for (const label of new Set([...ta.keys(), ...tb.keys()])) {
    const x = ta.get(label), y = tb.get(label);
    const both = x !== undefined && y !== undefined;
    body.append(el('tr', {}, el('td', {}, label), el('td', { class: 'num' }, x === undefined ? '—' : fmtInt(x)),
      el('td', { class: 'num' }, y === undefined ? '—' : fmtInt(y)),
      el('td', { class: 'num' }, both ? (y - x > 0 ? '+' : '') + fmtInt(y - x) : ''),
      el('td', { class: 'num' }, both && x ? (y / x).toFixed(3) : '')));
  }
  t.append(body);
  return el('div', { class: 'wide' }, el('h3', {}, 'Totals compared'), t);
}

async function openRuns(ids) {
  const view = $('run-view');
  view.textContent = '';
  view.classList.toggle('cols', ids.length > 1);
  const runs = [];
  for (const id of ids) {
    let r;
    try { r = await api(`/runs/${id}`); } catch (e) { showError('runs-error', e.message); continue; }
    runs.push(r);
    const card = el('div', { class: 'run-card', 'data-id': id });
    card.append(el('h3', {}, `Run ${r.id}`), el('p', { class: 'muted' },
      `${r.program || '?'} on ${r.core || '?'}, every ${fmtInt(r.period)} cycles, ${r.status}` +
      (r.totals.whole ? ', verified whole' : ' — not whole: never read as complete')));
    const plotBox = el('div', { class: 'plot' });
    card.append(plotBox);
    const on = r.events.filter((c) => c.enabled);  /* the store keeps every counter of the module */
    const t = el('table', { class: 'grid totals' }, el('thead', {}, el('tr', {}, el('th', {}, 'event'), el('th', { class: 'num' }, 'total'))));
    const tb = el('tbody');
    for (const c of on)
      tb.append(el('tr', {}, el('td', {}, c.label || `${c.signal} in ${c.where}`), el('td', { class: 'num' }, fmtInt(r.totals.stored[c.index] || 0))));
    t.append(tb);
    card.append(t);
    view.append(card);
    const p = new TimePlot(plotBox);
    p.setSeries(on.map((c) => c.label || c.signal));
    p.append(r.rows.map((row) => [row[0], row[1], ...on.map((c) => row[2 + c.index])]));
  }
  if (runs.length === 2) view.append(compareTable(runs[0], runs[1]));
}

/* ---- start ---- */

async function main() {
  for (const b of document.querySelectorAll('.tab')) b.onclick = () => tab(b.dataset.tab);
  for (const r of document.querySelectorAll('input[name=kind]'))
    r.onchange = () => {
      const bin = document.querySelector('input[name=kind]:checked').value === 'bin';
      $('elf-part').classList.toggle('hidden', bin);
      $('bin-part').classList.toggle('hidden', !bin);
    };
  $('upload-form').onsubmit = upload;
  $('func-filter').oninput = renderFunctions;
  $('add-pair').onclick = addPair;
  $('run').onclick = run;
  $('stop').onclick = () => api(`/jobs/${state.job}/stop`, { method: 'POST' }).catch((e) => showError('run-error', e.message));
  $('stacked').onchange = () => state.plot && state.plot.setStacked($('stacked').checked);
  $('refresh-runs').onclick = loadRuns;
  $('refresh-sweeps').onclick = () => state.sweeps.list();
  for (const id of ['sweep-metric', 'sweep-x', 'sweep-by']) $(id).onchange = () => state.sweeps.draw();
  $('compare').onclick = () => openRuns([...document.querySelectorAll('#runs-list input:checked')].map((x) => x.dataset.id));
  try {
    state.info = await api('/info');
    fillCatalog();
    document.body.dataset.ready = '1';
  } catch (e) {
    showError('upload-error', 'The server does not answer: ' + e.message);
  }
}

main();
