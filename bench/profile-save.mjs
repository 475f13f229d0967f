// Where a preview save's time goes (issue 38): the preview bench's scenario (bench/preview.mjs),
// then saves of small/app.tsx, each timed at every step it crosses. The page notes the change
// event, the frame's new address, each request the bridge hands over and the load report; the
// previewed frame's own navigation timing gives its fetch, response and load; the workspace
// worker's OPFS sync-handle calls and posts are wrapped to time each one. Prints the medians and
// ranges, and writes each save's timings to OUT.rows.json and OUT.io.json. A diagnostic, not a
// bench row (the wrappers cost a little). It builds the playground itself, from ROOT (default: this
// checkout), so another checkout can be measured in turns with this one:
//   node bench/profile-save.mjs [OUT]   with ROUNDS=20, MODULES=198, ROOT=<checkout>, and TRACE=1
//   for a Chromium trace of every thread's CPU samples in OUT.json (DevTools, Perfetto; it slows every step)
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPlayground, previewApp, profiledPlayground } from './preview.mjs';

const root = process.env.ROOT ?? new URL('..', import.meta.url).pathname;
const out = process.argv[2] ?? join(tmpdir(), 'sandpit-save-profile');
const rounds = Number(process.env.ROUNDS ?? 20);
const trace = process.env.TRACE === '1';

const modules = Number(process.env.MODULES ?? 198);
const { files, small } = previewApp(modules);
const { browser, url, close } = await profiledPlayground(root, 'sandpit-prof-');
try {
  const page = await browser.newPage();
  await openPlayground(page, url);
  await page.evaluate(
    async ({ files, small }) => {
      const { session } = window.sandpitPlayground;
      for (const [path, content] of Object.entries(files)) await session.call('write_file', { path, content });
      for (const [path, content] of Object.entries(small)) await session.call('write_file', { path, content });
      const frame = () => document.getElementById('preview-frame');
      const loads = () => Number(frame()?.dataset.loads ?? 0);
      const until = (f) =>
        new Promise((r) => {
          const c = () => (f() ? r() : requestAnimationFrame(c));
          c();
        });
      document.getElementById('tab-preview').click();
      await until(() => loads() > 0);
      const select = document.getElementById('preview-root');
      select.value = 'small';
      select.dispatchEvent(new Event('change'));
      const n = loads();
      await until(() => loads() > n);
    },
    { files, small },
  );
  await page.evaluate(() => {
    const { session } = window.sandpitPlayground;
    const frame = document.getElementById('preview-frame');
    const loads = () => Number(frame.dataset.loads ?? 0);
    window.__row = null;
    session.onChange(() => {
      const row = window.__row;
      if (row && !row.change) row.change = performance.now();
    });
    new MutationObserver(() => {
      const row = window.__row;
      if (row && !row.src) row.src = performance.now();
      if (row && loads() > row.before && !row.load) row.load = performance.now();
    }).observe(frame, { attributes: true, attributeFilter: ['src', 'data-loads'] });
    const ws = session.workspace;
    const answer = ws.previewAnswer.bind(ws);
    ws.previewAnswer = (request, port) => {
      const row = window.__row;
      const t = performance.now();
      const p = answer(request, port);
      if (row) p.then(() => (row.answers ??= []).push([request.path, t, performance.now()]));
      return p;
    };
  });
  const saves = async (count, salt) => {
    const rows = [];
    for (let i = 0; i < count; i++) {
      const row = await page.evaluate(
        async ({ content }) => {
          const { session } = window.sandpitPlayground;
          const frame = document.getElementById('preview-frame');
          const loads = () => Number(frame.dataset.loads ?? 0);
          const row = (window.__row = { before: loads() });
          row.start = performance.now();
          performance.mark('save');
          const done = new Promise((r) => {
            const c = () => (loads() > row.before ? r() : requestAnimationFrame(c));
            c();
          });
          await session.call('write_file', { path: 'small/app.tsx', content });
          row.written = performance.now();
          performance.mark('written');
          await done;
          performance.mark('loaded');
          window.__row = null;
          return { ...row, origin: performance.timeOrigin };
        },
        { content: small['small/app.tsx'].replace('// module 0', `// module 0 save ${salt} ${i}`) },
      );
      const f = page.frames().find((x) => x.url().includes('/preview/'));
      const nav = await f.evaluate(() => {
        const n = performance.getEntriesByType('navigation')[0].toJSON();
        const r = performance
          .getEntriesByType('resource')
          .map((e) => [e.name.split('/').pop(), e.startTime, e.responseStart, e.responseEnd]);
        return { origin: performance.timeOrigin, n, r };
      });
      rows.push({ ...row, nav });
      await new Promise((r) => setTimeout(r, 50));
    }
    return rows;
  };
  const ws = page.workers();
  for (const w of ws)
    await w.evaluate(() => {
      if (globalThis.__io) return;
      const io = (globalThis.__io = []);
      const now = () => performance.timeOrigin + performance.now();
      const wrap = (proto, name) => {
        const f = proto?.[name];
        if (typeof f !== 'function') return;
        proto[name] = function (...a) {
          const t = now();
          const r = f.apply(this, a);
          if (r && typeof r.then === 'function') {
            return r.then(
              (v) => (io.push([name, t, now() - t]), v),
              (e) => {
                io.push([name + '!', t, now() - t]);
                throw e;
              },
            );
          }
          io.push([name, t, now() - t, a[0]?.byteLength]);
          return r;
        };
      };
      const S = globalThis.FileSystemSyncAccessHandle?.prototype;
      for (const n of ['write', 'read', 'truncate', 'getSize', 'flush', 'close']) wrap(S, n);
      const H = globalThis.FileSystemFileHandle?.prototype;
      for (const n of ['createSyncAccessHandle', 'getFile', 'createWritable']) wrap(H, n);
      const D = globalThis.FileSystemDirectoryHandle?.prototype;
      for (const n of ['getFileHandle', 'getDirectoryHandle', 'removeEntry']) wrap(D, n);
      wrap(MessagePort.prototype, 'postMessage');
      wrap(globalThis, 'postMessage');
    });
  await saves(3, 'warm');
  for (const w of ws)
    await w.evaluate(() => {
      if (globalThis.__io) globalThis.__io.length = 0;
    });
  const t0 = await page.evaluate(() => performance.timeOrigin);
  if (trace)
    await browser.startTracing(page, {
      path: `${out}.json`,
      categories: (process.env.CATS ?? '')
        .split(',')
        .filter(Boolean)
        .concat([
          'disabled-by-default-v8.cpu_profiler',
          'blink.user_timing',
          'toplevel',
          'loading',
          'navigation',
          'ServiceWorker',
        ]),
    });
  const rows = await saves(rounds, 'timed');
  const io = (await Promise.all(ws.map((w) => w.evaluate(() => globalThis.__io ?? [])))).flat();
  await writeFile(`${out}.io.json`, JSON.stringify({ t0, io }));
  if (trace) await browser.stopTracing();
  await writeFile(`${out}.rows.json`, JSON.stringify(rows));
  console.log(summary(rows, io));
} finally {
  await close();
}

/** Medians and ranges of each step, in ms from the save's start as the page saw it. */
function summary(rows, io) {
  const steps = new Map();
  const add = (name, value) => Number.isFinite(value) && (steps.get(name) ?? steps.set(name, []).get(name)).push(value);
  for (const r of rows) {
    const at = r.origin + r.start;
    const frame = (key) => r.nav.origin + r.nav.n[key] - at;
    const asked = r.answers?.[0] ? r.origin + r.answers[0][1] - at : Number.NaN;
    const written = at + r.written - r.start;
    const writes = io.filter(([name, t]) => name === 'write' && t >= at && t <= written);
    const posts = io.filter(([name, t]) => name === 'postMessage' && t >= at && t <= written);
    const answeredAt = r.nav.origin + r.nav.n.responseStart;
    const collided = io.some(
      ([name, t, ms]) => name === 'write' && t <= at + asked + 3 && t + ms >= at + asked && t <= answeredAt,
    );
    add('change event at the page', r.change - r.start);
    add("frame's new address set", r.src - r.start);
    add("frame's navigation start", r.nav.origin - at);
    add("Service Worker's fetch of the page", frame('fetchStart'));
    add('the page request at the playground (bridge hand-over)', asked);
    add('write_file resolved at the page', r.written - r.start);
    add("the page's response start at the frame", frame('responseStart'));
    add("the page's response end", frame('responseEnd'));
    add('domInteractive', frame('domInteractive'));
    add("the frame's load event", frame('loadEventStart'));
    add("the panel's load report (the bench's row)", r.load - r.start);
    add('worker: OPFS sync writes during write_file (count)', writes.length);
    add(
      'worker: their time, ms',
      writes.reduce((sum, w) => sum + w[2], 0),
    );
    add('worker: end of the last one', writes.length ? Math.max(...writes.map((w) => w[1] + w[2])) - at : Number.NaN);
    add(
      'worker: its reply posted to the page seen there after',
      posts.length ? written - Math.max(...posts.map((p) => p[1])) : Number.NaN,
    );
    add(`request to response start, a sync write in the way`, collided ? answeredAt - (at + asked) : Number.NaN);
    add(`request to response start, none in the way`, collided ? Number.NaN : answeredAt - (at + asked));
  }
  const lines = [`${rows.length} saves: median [min-max] ms from the call`];
  for (const [name, values] of steps) {
    values.sort((a, b) => a - b);
    const mid = values[Math.floor(values.length / 2)];
    lines.push(
      `  ${name.padEnd(56)} ${mid.toFixed(1).padStart(7)} [${values[0].toFixed(0)}-${values.at(-1).toFixed(0)}] n=${values.length}`,
    );
  }
  return lines.join('\n');
}
