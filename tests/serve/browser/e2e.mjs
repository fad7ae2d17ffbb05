// tally serve's page in Debian's chromium (headless), driven by
// playwright-core as a user would: a bad upload shows its error; a raw
// .bin with its .map is uploaded; two (signal, function) pairs are picked;
// the run's plot fills; the totals, the stored runs, a CSV download, a
// comparison of two runs and the profile are shown; a sweep's table,
// sorted, its Pareto front and its plot. A screenshot of each
// page goes to SHOTS. Prints what it read from the page as JSON on stdout,
// for browser_case.py to check against the command line.
//
// usage: node e2e.mjs URL BIN MAP NOT_AN_ELF SHOTS
import { chromium } from 'playwright-core';
import path from 'node:path';

const [url, bin, map, notElf, shots] = process.argv.slice(2);
const shot = (page, name) => page.screenshot({ path: path.join(shots, name + '.png'), fullPage: true });
const seen = { console: [] };

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
});
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 860 }, acceptDownloads: true });
  page.on('pageerror', (e) => seen.console.push('pageerror: ' + e.message));
  page.on('console', (m) => { if (m.type() === 'error') seen.console.push(m.text()); });
  page.on('dialog', (d) => d.accept());
  await page.goto(url);
  await page.waitForSelector('body[data-ready="1"]');

  // a bad upload: its message on the page
  await page.setInputFiles('#elf-file', notElf);
  await page.click('#upload');
  await page.waitForSelector('#upload-error:not(.hidden)');
  seen.badUpload = await page.textContent('#upload-error');
  await shot(page, 'serve-bad-upload');

  // the workload as the paper's users gave it: a .bin and its linker map
  await page.check('input[name=kind][value=bin]');
  await page.setInputFiles('#bin-file', bin);
  await page.setInputFiles('#map-file', map);
  await page.fill('#load-addr', '0x80000000');
  await page.click('#upload');
  await page.waitForSelector('#program-view:not(.hidden)');
  seen.uploadErrorHidden = await page.isHidden('#upload-error');
  seen.functions = await page.$$eval('#functions tbody tr', (rows) => rows.map((r) => r.cells[0].textContent));
  await shot(page, 'serve-functions');

  // two pairs: one picked from the function table, one typed
  await page.fill('#func-filter', 'memcpy');
  await page.click('#functions tbody tr >> nth=0');   // goes to the Measure tab with "memcpy" filled in
  await page.selectOption('#pair-signal', 'load');
  await page.click('#add-pair');
  await page.selectOption('#pair-signal', 'cycle');
  await page.fill('#pair-where', 'main');
  await page.click('#add-pair');
  await page.fill('#interval', '100000');
  await page.fill('#args', '200');
  seen.pairs = await page.$$eval('#pairs li', (li) => li.map((x) => x.dataset.spec));
  await page.click('#run');
  await page.waitForSelector('#live[data-state]');  // the server took the run
  // the plot fills while the run goes on
  const fills = [];
  for (;;) {
    const st = await page.getAttribute('#live', 'data-state');
    fills.push(Number(await page.getAttribute('#plot', 'data-points') || 0));
    if (st !== 'running') break;
    await page.waitForTimeout(100);
  }
  await page.waitForFunction(() => document.querySelector('#totals tbody tr td.num'));
  await page.waitForTimeout(300);  // the last frame of the plot
  seen.fills = fills;
  seen.points = Number(await page.getAttribute('#plot', 'data-points'));
  seen.state = await page.getAttribute('#live', 'data-state');
  seen.runId = await page.getAttribute('#live', 'data-run-id');
  seen.status = await page.textContent('#status');
  seen.output = await page.textContent('#output');
  seen.totals = await page.$$eval('#totals tbody tr', (rows) => rows.map((r) => [r.cells[0].textContent, r.cells[1].textContent]));
  await shot(page, 'serve-run');

  // a second run on another core, for the comparison
  await page.selectOption('#core', 'sram');
  await page.click('#run');
  await page.waitForFunction((first) => {
    const live = document.querySelector('#live');
    return live.dataset.runId && live.dataset.runId !== first && live.dataset.state !== 'running';
  }, seen.runId, { timeout: 60000 });
  seen.runId2 = await page.getAttribute('#live', 'data-run-id');

  // stored runs: listed, a CSV download, two compared
  await page.click('button[data-tab=runs]');
  await page.waitForSelector(`#runs-list tr[data-id="${seen.runId}"]`);
  const dl = page.waitForEvent('download');
  await page.click(`#runs-list tr[data-id="${seen.runId}"] a:text("CSV")`);
  const download = await dl;
  seen.csvPath = path.join(shots, 'run.csv');
  await download.saveAs(seen.csvPath);
  await page.check(`#runs-list tr[data-id="${seen.runId}"] input`);
  await page.check(`#runs-list tr[data-id="${seen.runId2}"] input`);
  await page.click('#compare');
  await page.waitForSelector(`#run-view .run-card[data-id="${seen.runId2}"] table.totals`);
  await page.waitForTimeout(300);
  seen.compared = await page.$$eval('#run-view .run-card', (cards) => cards.map((c) => ({
    id: c.dataset.id, points: Number(c.querySelector('.plot').dataset.points || 0),
    totals: [...c.querySelectorAll('table.totals tbody tr')].map((r) => [r.cells[0].textContent, r.cells[1].textContent]),
  })));
  await shot(page, 'serve-compare');

  // the profile of the second run (the page keeps the last one)
  await page.click('button[data-tab=profile]');
  await page.waitForSelector('#profile-view:not(.hidden)');
  await page.click('#flat thead th >> nth=1');  // sort by self cycles (ascending, then back)
  await page.click('#flat thead th >> nth=1');
  seen.flatTop = await page.$$eval('#flat tbody tr', (rows) => rows.slice(0, 3).map((r) => r.cells[0].textContent));
  seen.flameFrames = Number(await page.getAttribute('#flame svg', 'data-frames'));
  await page.selectOption('#annotate-func', 'memcpy');
  seen.annotatedRows = await page.$$eval('#annotate tbody tr', (rows) => rows.length);
  await shot(page, 'serve-profile');

  // delete the second run from the list
  await page.click('button[data-tab=runs]');
  await page.waitForSelector(`#runs-list tr[data-id="${seen.runId2}"]`);
  await page.click(`#runs-list tr[data-id="${seen.runId2}"] button:text("delete")`);
  await page.waitForSelector(`#runs-list tr[data-id="${seen.runId2}"]`, { state: 'detached' });
  seen.deleted = true;

  // the sweep file's sweep: its table (as shown, then sorted by cycles),
  // the Pareto front, the plot
  await page.click('button[data-tab=sweeps]');
  await page.waitForSelector('#sweeps-list tr[data-id="1"]');
  seen.sweepList = await page.$$eval('#sweeps-list tbody tr', (rows) => rows.map((r) => [...r.cells].slice(0, 4).map((c) => c.textContent)));
  await page.click('#sweeps-list tr[data-id="1"] button');
  await page.waitForSelector('#sweep-view:not(.hidden) #sweep-table tbody tr');
  const table = (id) => page.$$eval(`#${id} tr`, (rows) => rows.map((r) => [...r.cells].map((c) => c.textContent)));
  seen.sweepTable = await table('sweep-table');
  seen.sweepFront = await table('sweep-front');
  seen.sweepScatter = { points: Number(await page.getAttribute('#sweep-scatter', 'data-points')),
    front: Number(await page.getAttribute('#sweep-scatter', 'data-front')) };
  seen.sweepBold = await page.$$eval('#sweep-table tbody tr.front', (rows) => rows.map((r) => r.dataset.point));
  await page.click('#sweep-table thead th:text-is("cycles")');
  seen.sweepByCycles = await page.$$eval('#sweep-table tbody tr', (rows) => rows.map((r) => r.dataset.point));
  await page.click('#sweep-table thead th:text-matches("^cycles")');
  seen.sweepByCyclesDown = await page.$$eval('#sweep-table tbody tr', (rows) => rows.map((r) => r.dataset.point));
  await page.selectOption('#sweep-metric', 'cycles');
  await page.selectOption('#sweep-x', 'icache.size');
  await page.selectOption('#sweep-by', 'icache.ways');
  await page.waitForTimeout(300);  // the plot's frame
  seen.sweepPlot = { points: Number(await page.getAttribute('#sweep-plot', 'data-points')),
    series: Number(await page.getAttribute('#sweep-plot', 'data-series')),
    legend: await page.$$eval('#sweep-plot + .legend span', (s) => s.map((x) => x.textContent)) };
  await shot(page, 'serve-sweep');
} finally {
  await browser.close();
}
console.log(JSON.stringify(seen));
