/*
 * tally serve's page: upload, function table, pairs, run with its live plot
 * and totals, stored runs (filtered, sorted, opened, overlaid against a
 * baseline, deleted, exported, their profiles reopened), the profile
 * (profile.js) and the sweeps of --sweep-db (sweeps.js). Every call goes
 * to the JSON API (docs/tally-serve.md).
 */
import './app.css';
import { $, api, showError, el, fmtInt, hex, TOKEN } from './util.js';
import { SeriesPlot } from './plot.js';
import { ProfileView } from './profile.js';
import { SweepView } from './sweeps.js';

const state = { info: null, program: null, pairs: [], job: null, since: 0, plot: null, profile: new ProfileView(),
  sweeps: new SweepView(), runs: [], runSort: null, runDesc: false, opened: [] };

function tab(name) {
  for (const b of document.querySelectorAll('.tab')) b.classList.toggle('on', b.dataset.tab === name);
  for (const p of document.querySelectorAll('.page')) p.classList.toggle('on', p.id === 'tab-' + name);
  if (name === 'runs') loadRuns();
  if (name === 'sweeps') state.sweeps.list();
  if (name === 'profile') state.profile.shown();
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
  $('program-summary').textContent = `Program ${p.id}, “${p.name}”: ${p.kind === 'elf' ? 'ELF' : 'raw binary at ' + hex(p.load_addr)}, ` +
    `${p.functions.length} functions` + (withFile ? `, ${withFile} with their source file.` : '.');
  const warn = p.warnings || [];
  $('map-warning').textContent = warn.length ? 'The .map does not match the .bin: ' + warn.join('; ') : '';
  $('map-warning').classList.toggle('hidden', !warn.length);
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
  const task = $('pair-task').value.trim();
  if (task && !/^[A-Za-z0-9._:$-]+$/.test(task))
    return showError('pair-error', `“${task}” is not a task name the server takes (letters, digits, . _ : $ -).`);
  const base = where && where !== 'anywhere' ? `${sig}@${where}` : sig;
  const spec = task ? `${base}${base.includes('@') ? '' : '@'}%${task}` : base;
  if (state.pairs.includes(spec)) return;
  state.pairs.push(spec);
  renderPairs();
}

function pairWords(spec) {
  const [body, task] = spec.split('%');
  const [sig, where] = body.split('@');
  const s = state.info.signals.find((x) => x.name === sig);
  return `${s ? s.noun : sig} ${where ? 'in ' + where : 'anywhere'}${task ? ' while ' + task + ' runs' : ''}`;
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
  state.job = job; state.since = 0; state.req = req; state.end = null;
  $('live').classList.remove('hidden');
  $('run').disabled = true; $('stop').disabled = false;
  $('output').textContent = ''; $('status').textContent = 'running…'; $('status').className = '';
  $('totals').tBodies[0].textContent = ''; $('signals').tBodies[0].textContent = '';
  $('progress').value = 0; $('progress-text').textContent = 'starting…';
  if (!state.plot) state.plot = new SeriesPlot($('plot'));
  state.plot.opts.waiting = true;
  state.plot.setSeries([{ name: 'this run' }], []);
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
  if (state.req && state.req.profile && st === 'done') {
    const id = state.end && state.end.run_id !== '0x0000000000000000' ? state.end.run_id : null;
    loadProfile(id ? `/runs/${id}/profile` : `/jobs/${state.job}/profile`,
      id ? `run ${id} (${state.program.name} on ${state.req.core})` : `the last run (${state.program.name}, not stored)`);
  }
}

function onEvent(e) {
  const plot = state.plot;
  if (e.t === 'start') {
    state.start = e;
    plot.opts.waiting = false;
    plot.setSeries([{ name: 'this run' }], e.events.map((x, i) => ({ label: x.label, group: 0, col: i })));
    plot.info.textContent = e.events.length ? `one point per ${fmtInt(state.req.interval)}-cycle interval; run ${e.run_id}` :
      'no (signal, where) pairs: nothing to plot';
  } else if (e.t === 'iv') {
    plot.append(0, e.rows);
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
  state.end = e;
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
    tb.append(el('tr', {}, el('td', {}, t.label), el('td', { class: 'num' }, fmtInt(t.total) + (t.saturated ? ' (saturated: at least)' : '')),
      el('td', { class: t.task ? '' : 'muted' }, t.task || 'any')));
  if (!e.totals.length) tb.append(el('tr', {}, el('td', { colspan: 3, class: 'muted' }, 'no pairs were counted')));
  const sb = $('signals').tBodies[0];
  sb.textContent = '';
  for (const s of e.signals) sb.append(el('tr', {}, el('td', {}, s.noun), el('td', { class: 'num' }, fmtInt(s.total))));
}

async function loadProfile(path, what) {
  try {
    state.profile.show(await api(path), what);
  } catch (e) {
    $('profile-none').textContent = 'No profile: ' + e.message;
  }
}

/* ---- stored runs ---- */

/* A run's configuration as name → value: what compare lines up. */
function config(r) {
  const c = { program: r.program || '?', core: r.core || '?', board: r.board || 'virt',
    interval: r.period ? fmtInt(r.period) : '', counters: String(r.counters ?? ''), width: String(r.width ?? ''),
    arrs: String(r.arrs ?? ''), args: (r.args || []).join(' '), pairs: (r.pairs || []).join(', ') };
  for (const s of r.sets || []) {
    const [k, ...v] = s.split('=');
    c[k] = v.join('=');
  }
  return c;
}

const RUN_COLS = [
  ['run', (r) => r.id], ['program', (r) => r.program || ''],
  ['core and overrides', (r) => [r.core || '', ...(r.sets || [])].join(' ')],
  ['pairs', (r) => (r.pairs || []).length, true], ['cycles', (r) => r.cycles ?? null, true],
  ['intervals', (r) => r.intervals, true], ['note', (r) => r.user_note || ''], ['started (UTC)', (r) => (r.started || '').replace('T', ' ').slice(0, 19)],
  ['status', (r) => r.status + (r.note ? ` (${r.note})` : '')],
];

async function loadRuns() {
  showError('runs-error', '');
  let r;
  try { r = await api('/runs'); } catch (e) { return showError('runs-error', e.message); }
  state.runs = r.runs;
  renderRuns();
}

function renderRuns() {
  const head = el('tr', {}, el('th', {}, ''));
  RUN_COLS.forEach(([h, , num], i) => {
    const th = el('th', { class: 'sortable' + (num ? ' num' : '') }, h + (state.runSort === i ? (state.runDesc ? ' ▼' : ' ▲') : ''));
    th.onclick = () => { state.runDesc = state.runSort === i ? !state.runDesc : false; state.runSort = i; renderRuns(); };
    head.append(th);
  });
  head.append(el('th', {}, ''));
  $('runs-list').tHead.replaceChildren(head);
  const q = $('runs-filter').value.trim().toLowerCase();
  let runs = state.runs.filter((r) => !q || RUN_COLS.some(([, get]) => String(get(r) ?? '').toLowerCase().includes(q)));
  if (state.runSort !== null) {
    const [, get, num] = RUN_COLS[state.runSort];
    runs = runs.slice().sort((a, b) => {
      const x = get(a), y = get(b);
      const d = num ? (x ?? -1) - (y ?? -1) : String(x).localeCompare(String(y));
      return state.runDesc ? -d : d;
    });
  }
  const ticked = new Set([...document.querySelectorAll('#runs-list input:checked')].map((x) => x.dataset.id));
  const body = $('runs-list').tBodies[0];
  body.textContent = '';
  for (const run of runs) {
    const tick = el('input', { type: 'checkbox', 'data-id': run.id });
    tick.checked = ticked.has(run.id);
    tick.onchange = updateCompare;
    const open = el('button', {}, 'open'), del = el('button', {}, 'delete'), note = el('button', {}, 'note');
    open.onclick = () => openRuns([run.id]);
    note.onclick = async () => {
      const text = prompt(`A note for run ${run.id}:`, run.user_note || '');
      if (text === null) return;
      try { await api(`/runs/${run.id}/note`, { method: 'PUT', body: JSON.stringify({ note: text }), headers: { 'Content-Type': 'application/json' } }); loadRuns(); } catch (e) { showError('runs-error', e.message); }
    };
    del.onclick = async () => {
      if (!confirm(`Delete run ${run.id} from the store?`)) return;
      try { await api(`/runs/${run.id}`, { method: 'DELETE' }); loadRuns(); } catch (e) { showError('runs-error', e.message); }
    };
    const q2 = TOKEN ? `&token=${encodeURIComponent(TOKEN)}` : '';
    const csv = el('a', { href: `/api/runs/${run.id}/export?format=csv${q2}`, download: '' }, 'CSV');
    const json = el('a', { href: `/api/runs/${run.id}/export?format=json${q2}`, download: '' }, 'JSON');
    const acts = el('td', {}, open, ' ', note, ' ', del, ' ', csv, ' ', json);
    if (run.profile) {
      const prof = el('button', { class: 'open-profile' }, 'profile');
      prof.onclick = async () => {
        await loadProfile(`/runs/${run.id}/profile`, `run ${run.id} (${run.program || '?'} on ${run.core || '?'})`);
        tab('profile');
      };
      acts.append(' ', prof);
    }
    const tr = el('tr', { 'data-id': run.id }, el('td', {}, tick));
    RUN_COLS.forEach(([h, get, num]) => {
      const v = get(run);
      tr.append(el('td', num ? { class: 'num' } : {}, h === 'run' ? el('code', {}, v) : num ? fmtInt(v) : String(v)));
    });
    tr.append(acts);
    body.append(tr);
  }
  if (!runs.length) body.append(el('tr', {}, el('td', { colspan: RUN_COLS.length + 2, class: 'muted' }, q ? 'no run matches' : 'no runs stored yet')));
  updateCompare();
}

function updateCompare() {
  $('compare').disabled = document.querySelectorAll('#runs-list input:checked').length < 2;
}

function totalsOf(r) {
  return new Map(r.events.filter((c) => c.enabled).map((c) => [c.label || c.signal, r.totals.stored[c.index] || 0]));
}

/* The runs' configurations side by side: the differing keys first, then
 * what they share. */
function configTable(runs) {
  const cs = runs.map(config);
  const keys = [...new Set(cs.flatMap((c) => Object.keys(c)))];
  const differ = keys.filter((k) => new Set(cs.map((c) => c[k] ?? '')).size > 1);
  const same = keys.filter((k) => !differ.includes(k) && cs[0][k]);
  const t = el('table', { class: 'grid', id: 'config-diff' }, el('thead', {}, el('tr', {}, el('th', {}, 'differs'),
    ...runs.map((r) => el('th', {}, r.id)))));
  const body = el('tbody');
  for (const k of differ)
    body.append(el('tr', { 'data-key': k }, el('td', {}, k), ...cs.map((c) => el('td', {}, c[k] ?? '(default)'))));
  if (!differ.length) body.append(el('tr', {}, el('td', { colspan: runs.length + 1, class: 'muted' }, 'the same configuration')));
  t.append(body);
  return el('div', {}, el('h3', {}, 'Configuration'), t,
    el('p', { class: 'muted' }, 'the same in all: ' + same.map((k) => `${k} ${cs[0][k]}`).join(', ')));
}

/* Every run's totals with its difference and ratio to the baseline run. */
function totalsTable(runs, base) {
  const ts = runs.map(totalsOf), b = ts[base];
  const labels = [...new Set(ts.flatMap((t) => [...t.keys()]))];
  const head = el('tr', {}, el('th', {}, 'event'));
  runs.forEach((r, i) => {
    head.append(el('th', { class: 'num' }, r.id + (i === base ? ' (baseline)' : '')));
    if (i !== base) head.append(el('th', { class: 'num' }, 'difference'), el('th', { class: 'num' }, 'ratio'));
  });
  const body = el('tbody');
  for (const l of labels) {
    const tr = el('tr', { 'data-label': l }, el('td', {}, l));
    ts.forEach((t, i) => {
      const v = t.get(l), bv = b.get(l);
      tr.append(el('td', { class: 'num' }, v === undefined ? '—' : fmtInt(v)));
      if (i === base) return;
      const both = v !== undefined && bv !== undefined;
      tr.append(el('td', { class: 'num diff' }, both ? (v - bv > 0 ? '+' : '') + fmtInt(v - bv) : ''),
        el('td', { class: 'num ratio' }, both && bv ? (v / bv).toFixed(3) : ''));
    });
    body.append(tr);
  }
  return el('table', { class: 'grid', id: 'compare-table' }, el('thead', {}, head), body);
}

async function openRuns(ids) {
  const view = $('run-view');
  view.textContent = '';
  const runs = [];
  for (const id of ids) {
    try { runs.push(await api(`/runs/${id}`)); } catch (e) { showError('runs-error', e.message); }
  }
  if (!runs.length) return;
  state.opened = runs;
  view.dataset.ids = runs.map((r) => r.id).join(' ');
  const title = runs.length === 1 ? `Run ${runs[0].id}: ${runs[0].program || '?'} on ${runs[0].core || '?'}` :
    `${runs.length} runs overlaid`;
  view.append(el('h3', {}, title), el('p', { class: 'muted' }, runs.map((r) => `${r.id}: every ${fmtInt(r.period)} cycles, ${r.status}` +
    (r.totals.whole ? ', verified whole' : ' — not whole: never read as complete')).join('; ')));
  const plotBox = el('div', { class: 'plot', id: 'run-plot' });
  view.append(plotBox);
  const plot = new SeriesPlot(plotBox);
  const series = [];
  runs.forEach((r, gi) => r.events.filter((c) => c.enabled).forEach((c) =>
    series.push({ label: c.label || c.signal, pair: c.label || c.signal, group: gi, col: c.index })));
  plot.setSeries(runs.map((r) => ({ name: r.id })), series);
  runs.forEach((r, gi) => plot.append(gi, r.rows));
  if (runs.length > 1) view.append(configTable(runs));
  const totals = el('div', { id: 'compare-totals' });
  const draw = (base) => totals.replaceChildren(totalsTable(runs, base));
  if (runs.length > 1) {
    const sel = el('select', { id: 'baseline' }, ...runs.map((r, i) => el('option', { value: i }, `${r.id} (${r.program || '?'} on ${r.core || '?'})`)));
    sel.onchange = () => draw(Number(sel.value));
    view.append(el('h3', {}, 'Totals against the baseline ', sel));
  } else {
    view.append(el('h3', {}, 'Totals'));
  }
  view.append(totals);
  draw(0);
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
  $('refresh-runs').onclick = loadRuns;
  $('runs-filter').oninput = renderRuns;
  $('refresh-sweeps').onclick = () => state.sweeps.list();
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
