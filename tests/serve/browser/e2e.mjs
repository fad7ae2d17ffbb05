// tally serve's page in Debian's chromium (headless), driven by
// playwright-core as a user would, in one browser session: a bad upload
// shows its error; a .bin cut short of what its .map says is warned about;
// a raw .bin with its .map is uploaded (its name shown); two (signal, function) pairs of
// very different sizes are picked; the run's plot fills, both series span
// their axes (in every view), the cursor's interval table fills, a drag and
// the wheel zoom the cycle axis; the totals, the stored runs (name, core and
// overrides, pairs, cycles, a note, a filter), a CSV download, two runs with
// different overrides overlaid against a baseline; the first run's profile
// reopened after the second run (flame graph search, call graph, annotated
// code); a sweep's table, sorted, its front and plot; a sweep of two
// programs with one front each. A screenshot of each page goes to SHOTS.
// Prints what it read from the page as JSON on stdout, for browser_case.py
// to check against the command line.
//
// Last, the ELF itself with its debug lines: its profile's annotated code
// with the source text beside it (the server's --source-dir).
//
// usage: node e2e.mjs URL BIN MAP NOT_AN_ELF SHOTS SHORT_BIN ELF
import { chromium } from 'playwright-core';
import path from 'node:path';

const [url, bin, map, notElf, shots, shortBin, elf] = process.argv.slice(2);
const shot = (page, name) => page.screenshot({ path: path.join(shots, name + '.png'), fullPage: true });
const seen = { console: [] };
const attr = async (page, sel, name) => page.getAttribute(sel, name);
const extents = async (page, sel) => JSON.parse((await attr(page, sel, 'data-extents')) || '[]');
const range = async (page, sel) => [Number(await attr(page, sel, 'data-x-min')), Number(await attr(page, sel, 'data-x-max'))];
const frame = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
});
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 860 }, acceptDownloads: true });
  page.on('pageerror', (e) => seen.console.push('pageerror: ' + e.message));
  page.on('console', (m) => { if (m.type() === 'error') seen.console.push(m.text()); });
  let answer = '';
  page.on('dialog', (d) => d.accept(d.type() === 'prompt' ? answer : undefined));
  await page.goto(url);
  await page.waitForSelector('body[data-ready="1"]');

  // a bad upload: its message on the page
  await page.setInputFiles('#elf-file', notElf);
  await page.click('#upload');
  await page.waitForSelector('#upload-error:not(.hidden)');
  seen.badUpload = await page.textContent('#upload-error');
  await shot(page, 'serve-bad-upload');

  // a .bin cut short of what its map says: accepted, with a warning
  await page.check('input[name=kind][value=bin]');
  await page.setInputFiles('#bin-file', shortBin);
  await page.setInputFiles('#map-file', map);
  await page.fill('#load-addr', '0x80000000');
  await page.click('#upload');
  await page.waitForSelector('#program-view:not(.hidden)');
  seen.wrongMapWarning = (await page.isVisible('#map-warning')) ? await page.textContent('#map-warning') : '';

  // the workload as the paper's users gave it: a .bin and its linker map
  const before = await page.textContent('#program-summary');
  await page.setInputFiles('#bin-file', bin);
  await page.click('#upload');
  await page.waitForFunction((b) => document.querySelector('#program-summary').textContent !== b, before);
  seen.uploadErrorHidden = await page.isHidden('#upload-error');
  seen.mapWarningHidden = await page.isHidden('#map-warning');
  seen.summary = await page.textContent('#program-summary');
  seen.functions = await page.$$eval('#functions tbody tr', (rows) => rows.map((r) => r.cells[0].textContent));
  await shot(page, 'serve-functions');

  // two pairs of very different sizes: one picked from the function table, one typed
  await page.fill('#func-filter', 'main');
  await page.click('#functions tbody tr:has(td:text-is("main"))');   // goes to the Measure tab with the function filled in
  await page.selectOption('#pair-signal', 'cycle');
  await page.click('#add-pair');
  await page.selectOption('#pair-signal', 'dcache.read_miss');
  await page.fill('#pair-where', 'memcpy');
  await page.click('#add-pair');
  await page.fill('#interval', '100000');
  await page.fill('#args', '200');
  seen.pairs = await page.$$eval('#pairs li', (li) => li.map((x) => x.dataset.spec));
  await page.click('#run');
  await page.waitForSelector('#live[data-state]');  // the server took the run
  // the plot fills while the run goes on
  const fills = [];
  for (;;) {
    const st = await attr(page, '#live', 'data-state');
    fills.push(Number((await attr(page, '#plot', 'data-points')) || 0));
    if (st !== 'running') break;
    await page.waitForTimeout(100);
  }
  await page.waitForFunction(() => document.querySelector('#totals tbody tr td.num'));
  await page.waitForTimeout(200);  // the last frame of the plot
  seen.fills = fills;
  seen.points = Number(await attr(page, '#plot', 'data-points'));
  seen.state = await attr(page, '#live', 'data-state');
  seen.runId = await attr(page, '#live', 'data-run-id');
  seen.status = await page.textContent('#status');
  seen.output = await page.textContent('#output');
  seen.totals = await page.$$eval('#totals tbody tr', (rows) => rows.map((r) => [r.cells[0].textContent, r.cells[1].textContent]));

  // both series visible in every view: their drawn extents in pixels
  seen.views = {};
  for (const [view, log] of [['axes', false], ['small', false], ['norm', false], ['axes', true]]) {
    await page.selectOption('#plot .plot-view', view);
    await page.setChecked('#plot .plot-log', log);
    await frame(page);
    seen.views[view + (log ? '+log' : '')] = await extents(page, '#plot');
  }
  await page.setChecked('#plot .plot-log', false);
  await page.selectOption('#plot .plot-view', 'axes');
  await frame(page);
  // the cursor's interval table follows the mouse
  const over = await page.locator('#plot .u-over').boundingBox();
  await page.mouse.move(over.x + over.width * 0.5, over.y + over.height * 0.5);
  await frame(page);
  seen.cursorRows = await page.$$eval('#plot .cursor-table tbody tr', (rows) => rows.map((r) => [...r.cells].map((c) => c.textContent)));
  seen.cursorHead = await page.$$eval('#plot .cursor-table thead th', (h) => h.map((x) => x.textContent));
  seen.legend = await page.$$eval('#plot .u-legend .u-series', (s) => s.map((x) => x.textContent));
  await shot(page, 'serve-run');
  // zoom: a drag over the middle third, then the wheel, then the whole run again
  seen.rangeWhole = await range(page, '#plot');
  await page.mouse.move(over.x + over.width / 3, over.y + over.height / 2);
  await page.mouse.down();
  await page.mouse.move(over.x + over.width * 2 / 3, over.y + over.height / 2, { steps: 5 });
  await page.mouse.up();
  await frame(page);
  seen.rangeDragged = await range(page, '#plot');
  seen.extentsZoomed = await extents(page, '#plot');
  await page.mouse.move(over.x + over.width / 2, over.y + over.height / 2);
  await page.mouse.wheel(0, -200);
  await frame(page);
  seen.rangeWheeled = await range(page, '#plot');
  await page.click('#plot .plot-reset');
  await frame(page);
  seen.rangeReset = await range(page, '#plot');

  // a second run with a smaller data cache, for the comparison
  await page.fill('#sets', 'dcache.size=1K');
  await page.click('#run');
  await page.waitForFunction((first) => {
    const live = document.querySelector('#live');
    return live.dataset.runId && live.dataset.runId !== first && live.dataset.state !== 'running';
  }, seen.runId, { timeout: 60000 });
  seen.runId2 = await attr(page, '#live', 'data-run-id');
  await page.waitForFunction((id) => (document.querySelector('#profile-view').dataset.of || '').startsWith('run ' + id), seen.runId2);
  seen.profileAfterRun2 = await attr(page, '#profile-view', 'data-of');

  // stored runs: listed as kept, a note, a filter, a CSV download, two overlaid
  await page.click('button[data-tab=runs]');
  await page.waitForSelector(`#runs-list tr[data-id="${seen.runId2}"]`);
  const row = (id) => page.$eval(`#runs-list tr[data-id="${id}"]`, (r) => [...r.cells].slice(1, -1).map((c) => c.textContent));
  seen.runsHead = await page.$$eval('#runs-list thead th', (h) => h.map((x) => x.textContent));
  seen.runsOrder = await page.$$eval('#runs-list tbody tr', (rows) => rows.map((r) => r.dataset.id));
  answer = 'smaller d-cache';
  await page.click(`#runs-list tr[data-id="${seen.runId2}"] button:text("note")`);
  await page.waitForFunction((id) => document.querySelector(`#runs-list tr[data-id="${id}"]`)?.textContent.includes('smaller d-cache'), seen.runId2);
  seen.row1 = await row(seen.runId);
  seen.row2 = await row(seen.runId2);
  await page.fill('#runs-filter', 'dcache.size');
  seen.filtered = await page.$$eval('#runs-list tbody tr', (rows) => rows.map((r) => r.dataset.id));
  await page.fill('#runs-filter', '');
  const dl = page.waitForEvent('download');
  await page.click(`#runs-list tr[data-id="${seen.runId}"] a:text("CSV")`);
  const download = await dl;
  seen.csvPath = path.join(shots, 'run.csv');
  await download.saveAs(seen.csvPath);
  await page.check(`#runs-list tr[data-id="${seen.runId}"] input`);
  await page.check(`#runs-list tr[data-id="${seen.runId2}"] input`);
  await page.click('#compare');
  await page.waitForSelector('#run-view #compare-table tbody tr');
  await frame(page);
  seen.overlay = { points: Number(await attr(page, '#run-plot', 'data-points')), extents: await extents(page, '#run-plot') };
  seen.configDiff = await page.$$eval('#config-diff tbody tr', (rows) => rows.map((r) => [...r.cells].map((c) => c.textContent)));
  const cmpTable = () => page.$$eval('#compare-table tr', (rows) => rows.map((r) => [...r.cells].map((c) => c.textContent)));
  seen.compareTable = await cmpTable();
  await shot(page, 'serve-compare');
  await page.selectOption('#baseline', '1');
  seen.compareTable2 = await cmpTable();

  // the first run's profile, opened from the list after the second run
  await page.click(`#runs-list tr[data-id="${seen.runId}"] button.open-profile`);
  await page.waitForSelector('#tab-profile.on #flame g.frame');
  await frame(page);
  seen.profileOf = await attr(page, '#profile-view', 'data-of');
  await page.click('#flat thead th >> nth=1');  // sort by self cycles (ascending, then back)
  await page.click('#flat thead th >> nth=1');
  seen.flatTop = await page.$$eval('#flat tbody tr', (rows) => rows.slice(0, 3).map((r) => r.cells[0].textContent));
  seen.flameFrames = Number(await attr(page, '#flame', 'data-frames'));
  seen.flameHeight = (await page.locator('#flame svg').boundingBox()).height;
  seen.flameDepth = Number(await attr(page, '#flame', 'data-depth'));
  await page.fill('#flame-search', 'memcpy');
  await frame(page);
  seen.flameFound = Number(await attr(page, '#flame', 'data-found'));
  seen.flameFoundText = await page.textContent('#flame-found');
  seen.flameHighlighted = await page.$$eval('#flame g.frame rect', (rs) => rs.filter((r) => /rgb\(230, 0, 230\)|#E600E6/i.test(r.getAttribute('fill') || r.style.fill)).length);
  // the call timeline: every call drawn at its cycles; the call under the pointer; a drag zooms
  const tl = await page.locator('#timeline .u-over').boundingBox();
  seen.timeline = { slices: Number(await attr(page, '#timeline', 'data-slices')), drawn: Number(await attr(page, '#timeline', 'data-drawn')) };
  await page.mouse.move(tl.x + tl.width / 2, tl.y + 8);
  await frame(page);
  seen.timeline.hover = JSON.parse((await attr(page, '#timeline', 'data-hover')) || 'null');
  seen.timeline.hoverText = await page.textContent('#timeline-call');
  seen.timeline.whole = await range(page, '#timeline');
  await page.mouse.move(tl.x + tl.width * 0.4, tl.y + tl.height / 2);
  await page.mouse.down();
  await page.mouse.move(tl.x + tl.width * 0.6, tl.y + tl.height / 2, { steps: 4 });
  await page.mouse.up();
  await frame(page);
  seen.timeline.zoomed = await range(page, '#timeline');
  // the laws the timeline's data must keep, from the profile the page drew
  seen.timeline.law = await page.evaluate(async (id) => {
    const p = await (await fetch(`/api/runs/${id}/profile`)).json();
    const f = p.functions.findIndex((x) => x.name === 'memcpy');
    const mine = p.slices.filter((s) => s[0] === f);
    const top = p.slices.filter((s) => s[3] === 0);
    return { slices: p.slices.length, cut: p.slices_cut, memcpyIncl: p.functions[f].incl, memcpyCalls: p.functions[f].calls,
      memcpySlices: mine.length, memcpySum: mine.reduce((a, s) => a + s[2] - s[1], 0),
      top: top.map((s) => [p.functions[s[0]] ? p.functions[s[0]].name : null, s[1], s[2]]), total: p.total_cycles };
  }, seen.runId);
  await page.selectOption('#annotate-func', 'memcpy');
  await frame(page);
  seen.annotatedRows = await page.$$eval('#annotate tbody tr', (rows) => rows.length);
  seen.annotatedCols = await page.$$eval('#annotate thead th', (h) => h.map((x) => x.textContent));
  seen.callgraph = { nodes: Number(await attr(page, '#callgraph-drawn', 'data-nodes')),
    arcs: JSON.parse((await attr(page, '#callgraph-drawn', 'data-labels')) || '[]'),
    canvas: await page.$$eval('#callgraph-drawn canvas', (c) => c.length) };
  await shot(page, 'serve-profile');

  // delete the second run from the list
  await page.click('button[data-tab=runs]');
  await page.waitForSelector(`#runs-list tr[data-id="${seen.runId2}"]`);
  await page.click(`#runs-list tr[data-id="${seen.runId2}"] button:text("delete")`);
  await page.waitForSelector(`#runs-list tr[data-id="${seen.runId2}"]`, { state: 'detached' });
  seen.deleted = true;

  // the sweep file's first sweep: its table (as shown, then sorted by
  // cycles), the Pareto front, the plot
  await page.click('button[data-tab=sweeps]');
  await page.waitForSelector('#sweeps-list tr[data-id="1"]');
  seen.sweepList = await page.$$eval('#sweeps-list tbody tr', (rows) => rows.map((r) => [...r.cells].slice(0, 4).map((c) => c.textContent)));
  await page.click('#sweeps-list tr[data-id="1"] button');
  await page.waitForSelector('#sweep-view:not(.hidden) #sweep-table tbody tr');
  const table = (id) => page.$$eval(`#${id} tr`, (rows) => rows.map((r) => [...r.cells].map((c) => c.textContent)));
  seen.sweepTable = await table('sweep-table');
  seen.sweepFront = await table('sweep-front');
  seen.sweepScatter = { points: Number(await attr(page, '#sweep-scatter', 'data-points')),
    front: Number(await attr(page, '#sweep-scatter', 'data-front')), yMin: Number(await attr(page, '#sweep-scatter', 'data-y-min')) };
  seen.sweepBold = await page.$$eval('#sweep-table tbody tr.front', (rows) => rows.map((r) => r.dataset.point));
  await page.click('#sweep-table thead th:text-is("cycles")');
  seen.sweepByCycles = await page.$$eval('#sweep-table tbody tr', (rows) => rows.map((r) => r.dataset.point));
  await page.click('#sweep-table thead th:text-matches("^cycles")');
  seen.sweepByCyclesDown = await page.$$eval('#sweep-table tbody tr', (rows) => rows.map((r) => r.dataset.point));
  await page.selectOption('#sweep-metric', 'cycles');
  await page.selectOption('#sweep-x', 'icache.size');
  await page.selectOption('#sweep-by', 'icache.ways');
  await frame(page);
  seen.sweepPlot = { points: Number(await attr(page, '#sweep-plot', 'data-points')),
    series: Number(await attr(page, '#sweep-plot', 'data-series')),
    yMin: Number(await attr(page, '#sweep-plot', 'data-y-min')),
    legend: await page.$$eval('#sweep-plot .u-legend .u-series:not(:first-child) .u-label', (s) => s.map((x) => x.textContent)) };
  await shot(page, 'serve-sweep');

  // the second sweep: two programs, a front and a best point each, the aggregate
  await page.click('#sweeps-list tr[data-id="2"] button');
  await page.waitForFunction(() => document.querySelector('#sweep-view').dataset.id === '2');
  await frame(page);
  seen.sweep2 = { fronts: Number(await attr(page, '#sweep-scatter', 'data-fronts')),
    bold: await page.$$eval('#sweep-table tbody tr.front', (rows) => rows.map((r) => r.dataset.point)),
    best: await page.$$eval('#sweep-best tbody tr', (rows) => rows.map((r) => [r.dataset.program, r.dataset.point])),
    aggregate: await table('sweep-aggregate') };
  await shot(page, 'serve-sweep-programs');

  // the ELF with its lines: the annotated code beside its source
  await page.click('button[data-tab=program]');
  await page.check('input[name=kind][value=elf]');
  await page.setInputFiles('#elf-file', elf);
  const before2 = await page.textContent('#program-summary');
  await page.click('#upload');
  await page.waitForFunction((b) => document.querySelector('#program-summary').textContent !== b, before2);
  await page.click('button[data-tab=measure]');
  while (await page.$('#pairs li button')) await page.click('#pairs li button >> nth=0');
  await page.fill('#sets', '');
  await page.fill('#args', '2');
  const last = await attr(page, '#live', 'data-run-id');
  await page.click('#run');
  await page.waitForFunction((id) => (document.querySelector('#profile-view').dataset.of || '').startsWith('run ') &&
    !(document.querySelector('#profile-view').dataset.of || '').startsWith('run ' + id), last, { timeout: 60000 });
  await page.click('button[data-tab=profile]');
  await page.selectOption('#annotate-func', 'MixColumns');
  await frame(page);
  seen.source = await page.$$eval('#annotate tbody tr', (rows) => rows.map((r) => [r.cells[0].textContent, r.cells[7].textContent, r.cells[8].textContent]));
  seen.sourceShown = await page.isVisible('#annotate th.src');
  await page.locator('#annotate').scrollIntoViewIfNeeded();
  await shot(page, 'serve-source');
} finally {
  await browser.close();
}
console.log(JSON.stringify(seen));
