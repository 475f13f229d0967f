// The playground's main thread during a burst of writes (issue 38): 201 files written in turn
// through `sandpitPlayground.session.call('write_file')`, as an agent writing an app does, each a
// change event the tree, the Review timeline and the hunk list redraw for. Prints the page's
// `Performance.getMetrics` deltas from the first write until the tree shows all 201 files and the
// redraws have settled: main-thread task time, script, layout and style, and the writes' wall time.
// A diagnostic, not a bench row. It builds the playground from ROOT (default: this checkout), so
// another checkout can be measured in turns with this one:
//   node bench/profile-burst.mjs [LABEL]   with ROOT=<checkout>, CONCURRENT=1 to send all the writes
//   at once (none awaited before the next, as test/e2e/burst.test.ts does), and PROFILE=1 for the
//   top functions of a CPU profile (0.2 ms sampling; it slows every step)
import { openPlayground, profiledPlayground, tsxModule } from './preview.mjs';

const root = process.env.ROOT ?? new URL('..', import.meta.url).pathname;
const label = process.argv[2] ?? root;
const profile = process.env.PROFILE === '1';
const concurrent = process.env.CONCURRENT === '1';

const files = {
  'index.html': '<!doctype html><html><body><script type="module" src="main.ts"></script></body></html>',
  'style.css': 'p{}\n',
  'main.ts': 'x\n',
};
for (let n = 1; n <= 198; n++) files[`src/m${n}.tsx`] = tsxModule(n);
const count = String(Object.keys(files).length);

const { browser, url, close } = await profiledPlayground(root, 'sandpit-burst-');
try {
  const page = await browser.newPage();
  await openPlayground(page, url);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const metrics = async () =>
    Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));
  if (profile) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
  }
  const before = await metrics();
  const t0 = Date.now();
  await page.evaluate(
    async ({ files, concurrent }) => {
      const { session } = window.sandpitPlayground;
      const write = ([path, content]) => session.call('write_file', { path, content });
      if (concurrent) await Promise.all(Object.entries(files).map(write));
      else for (const entry of Object.entries(files)) await write(entry);
    },
    { files, concurrent },
  );
  const writesMs = Date.now() - t0;
  await page.waitForFunction((n) => document.getElementById('file-count')?.textContent === n, count, {
    timeout: 120_000,
  });
  await page.waitForFunction(
    (n) => document.getElementById('timeline-count')?.textContent === String(Number(n) - 2),
    count,
    { timeout: 120_000 },
  );
  // The redraws owed at the end (the hunks after the timeline) finish within this.
  await page.waitForTimeout(1500);
  const after = await metrics();
  const d = (k) => Number((after[k] - before[k]).toFixed(2));
  console.log(
    JSON.stringify({
      label,
      writesMs,
      taskS: d('TaskDuration'),
      scriptS: d('ScriptDuration'),
      layoutS: d('LayoutDuration'),
      styleS: d('RecalcStyleDuration'),
      layouts: d('LayoutCount'),
      styles: d('RecalcStyleCount'),
    }),
  );
  if (profile) printProfile((await cdp.send('Profiler.stop')).profile);
} finally {
  await close();
}

/** The functions with the most samples, their own and with what they called. */
function printProfile(p) {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const name = (n) =>
    `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber}`;
  const samples = new Map();
  for (const s of p.samples) samples.set(s, (samples.get(s) ?? 0) + 1);
  const own = new Map();
  const total = new Map();
  for (const [id, c] of samples) {
    own.set(name(byId.get(id)), (own.get(name(byId.get(id))) ?? 0) + c);
    const seen = new Set();
    for (let at = id; at; at = parent.get(at)) {
      const k = name(byId.get(at));
      if (!seen.has(k)) seen.add(k), total.set(k, (total.get(k) ?? 0) + c);
    }
  }
  const top = (m, n) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n);
  console.log(`samples: ${p.samples.length}\nown:`);
  for (const [k, v] of top(own, 25)) console.log(`  ${v} ${k}`);
  console.log('with callees:');
  for (const [k, v] of top(total, 40)) console.log(`  ${v} ${k}`);
}
