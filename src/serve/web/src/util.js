/*
 * What every part of the page shares: the JSON API (docs/tally-serve.md)
 * with the X-Tally header (the server refuses changes without it) and the
 * token, if the page was opened with ?token=; elements; number formats.
 */
export const $ = (id) => document.getElementById(id);
export const TOKEN = new URLSearchParams(location.search).get('token');

export async function api(path, opts = {}) {
  const headers = Object.assign({ 'X-Tally': '1' }, opts.headers || {});
  if (TOKEN) headers['X-Tally-Token'] = TOKEN;
  const r = await fetch('/api' + path, Object.assign({}, opts, { headers }));
  const type = r.headers.get('Content-Type') || '';
  const body = type.startsWith('application/json') ? await r.json() : await r.text();
  if (!r.ok) throw new Error(body && body.error ? body.error : `${r.status} ${r.statusText}`);
  return body;
}

export function showError(id, msg) {
  const e = $(id);
  e.textContent = msg || '';
  e.classList.toggle('hidden', !msg);
}

export function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) if (v !== undefined && v !== null) e.setAttribute(k, v);
  for (const k of kids) if (k !== undefined && k !== null) e.append(k);
  return e;
}

export function fmtInt(v) { return v === null || v === undefined ? '—' : Number(v).toLocaleString('en-US'); }
export function hex(v) { return '0x' + Number(v).toString(16).padStart(8, '0'); }
export function pct(v, t) { return t ? (100 * v / t).toFixed(1) + '%' : ''; }

/* Axis and legend numbers: 3 significant digits with k, M, G. */
export function fmtShort(v) {
  if (v === null || v === undefined || Number.isNaN(v)) return '—';
  const a = Math.abs(v);
  if (a >= 1e9) return +(v / 1e9).toPrecision(3) + 'G';
  if (a >= 1e6) return +(v / 1e6).toPrecision(3) + 'M';
  if (a >= 1e3) return +(v / 1e3).toPrecision(3) + 'k';
  return String(+v.toPrecision(3));
}

/* Axis ticks: fmtShort with as many significant digits as it takes to
 * tell neighbouring ticks apart (13.70M, 13.71M on a narrow range). */
export function fmtTicks(vals) {
  for (let p = 3; p <= 12; p++) {
    const f = vals.map((v) => fmtPrec(v, p));
    if (new Set(f).size === new Set(vals).size) return f;
  }
  return vals.map(String);
}

function fmtPrec(v, p) {
  if (v === null || v === undefined) return '';
  const a = Math.abs(v);
  if (a >= 1e9) return +(v / 1e9).toPrecision(p) + 'G';
  if (a >= 1e6) return +(v / 1e6).toPrecision(p) + 'M';
  if (a >= 1e3) return +(v / 1e3).toPrecision(p) + 'k';
  return String(+v.toPrecision(p));
}

export const COLORS = ['#1f6feb', '#e8590c', '#2f9e44', '#ae3ec9', '#f08c00', '#0c8599', '#c2255c', '#5c940d',
  '#364fc7', '#862e9c', '#d9480f', '#087f5b'];
