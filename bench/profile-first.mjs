// Where a first preview's time goes after the bridge is ready (issue 38): the preview bench's
// 201-file app (bench/preview.mjs), one first preview per run, on a first visit. Collects the
// previewed frame's resource timing (when the page asked for each module and got it), the
// playground's hand-overs to the workspace worker, and every `performance.measure` the workspace
// worker and the Service Worker made, all on one clock, from the click. It builds a copy of ROOT
// with marks written into that copy's sources (MARKS below: serve, read, transpile, hit, post in
// the worker; ahead, relay, batch in the Service Worker); a mark whose code has moved is skipped
// with a warning. A diagnostic, not a bench row (the marks cost a little):
//   node bench/profile-first.mjs [OUT]   with RUNS=3, MODULES=198, ROOT=<checkout>, TRACE=1 (a
//   Chromium trace in OUT-N.json; CATS=a,b picks its categories, CPU samples by default)
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { openPlayground, previewApp, profiledPlayground } from './preview.mjs';

const checkout = process.env.ROOT ?? new URL('..', import.meta.url).pathname;

/** [file, code as it is, code with its mark]: each wraps one step in a `performance.measure` or `mark`. */
const MARKS = [
  [
    'web/preview/answer.ts',
    '  try {\n    return await session.server.serve(path, referrer);\n',
    '  const t = performance.now();\n  try {\n    const served = await session.server.serve(path, referrer);\n    performance.measure(`serve ${path}`, { start: t, end: performance.now() });\n    return served;\n',
  ],
  [
    'web/preview/answer.ts',
    '    port.postMessage(message, transfer);',
    '    const t = performance.now();\n    port.postMessage(message, transfer);\n    performance.measure(`post ${files.length}`, { start: t, end: performance.now() });',
  ],
  [
    'web/preview/transpiled.ts',
    '  const result = transformer().then(({ transpile }) => transpile(path, source, jsx));',
    '  const result = transformer().then(({ transpile }) => {\n    const t = performance.now();\n    const r = transpile(path, source, jsx);\n    performance.measure(`transpile ${path}`, { start: t, end: performance.now() });\n    return r;\n  });',
  ],
  [
    'web/preview/transpiled.ts',
    '    kept.set(path, hit);\n',
    '    kept.set(path, hit);\n    performance.mark(`hit ${path}`);\n',
  ],
  [
    'web/preview/read-file.ts',
    "  try {\n    return { kind: 'file', bytes: await ws.fs.readFile(found.abs) };",
    "  try {\n    const t = performance.now();\n    const bytes = await ws.fs.readFile(found.abs);\n    performance.measure(`read ${rel}`, { start: t, end: performance.now() });\n    return { kind: 'file', bytes };",
  ],
  [
    'demo/preview-sw.ts',
    '  const early = sent && (await sent);\n  if (early) return respond(event, early);',
    '  const t = performance.now();\n  const early = sent && (await sent);\n  if (early) {\n    performance.measure(`ahead ${where.path}`, { start: t, end: performance.now() });\n    return respond(event, early);\n  }',
  ],
  [
    'demo/preview-sw.ts',
    '    const data = message.data as LinkedFile | LinkedBatch;',
    "    const data = message.data as LinkedFile | LinkedBatch;\n    performance.mark(`batch ${data?.type === 'sandpit-preview-linked-batch' ? data.files.length : 1}`);",
  ],
];

/** A copy of `from`'s tracked files with the marks written in, its node_modules linked. */
async function markedCopy(from) {
  const to = await mkdtemp(join(tmpdir(), 'sandpit-marked-'));
  const files = execFileSync('git', ['-C', from, 'ls-files', '-z'], { encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const file of files) {
    if (file.startsWith('test/')) continue;
    const text = await readFile(join(from, file)).catch(() => null);
    if (text === null) continue;
    await mkdir(dirname(join(to, file)), { recursive: true });
    await writeFile(join(to, file), text);
  }
  for (const [file, code, marked] of MARKS) {
    const text = await readFile(join(to, file), 'utf8');
    if (text.includes(code)) await writeFile(join(to, file), text.replace(code, marked));
    else console.warn(`profile-first: the code a mark wraps in ${file} has moved; that mark is left out`);
  }
  await symlink(join(from, 'node_modules'), join(to, 'node_modules'));
  return to;
}

const root = await markedCopy(checkout);
const out = process.argv[2] ?? join(tmpdir(), 'sandpit-first-profile');
const runs = Number(process.env.RUNS ?? 3);
const trace = process.env.TRACE === '1';
const modules = Number(process.env.MODULES ?? 198);

const { files } = previewApp(modules);
const { browser, url, close } = await profiledPlayground(root, 'sandpit-prof-first-');
const all = [];
try {
  for (let run = 0; run < runs; run++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await openPlayground(page, url);
    await page.evaluate(async (files) => {
      const { session } = window.sandpitPlayground;
      for (const [path, content] of Object.entries(files)) await session.call('write_file', { path, content });
      const ws = session.workspace;
      const answer = ws.previewAnswer.bind(ws);
      window.__answers = [];
      ws.previewAnswer = (request, port) => {
        const t = performance.timeOrigin + performance.now();
        const p = answer(request, port);
        p.then(() => window.__answers.push([request.path, t, performance.timeOrigin + performance.now()]));
        return p;
      };
    }, files);
    if (trace)
      await browser.startTracing(page, {
        path: `${out}-${run}.json`,
        categories: (
          process.env.CATS ?? 'disabled-by-default-v8.cpu_profiler,blink.user_timing,toplevel,loading,v8'
        ).split(','),
      });
    const clicked = await page.evaluate(async () => {
      const frame = () => document.getElementById('preview-frame');
      const loads = () => Number(frame()?.dataset.loads ?? 0);
      let ready = Number.NaN;
      window.addEventListener('message', (event) => {
        if (event.data?.type === 'sandpit-preview-ready') ready = performance.timeOrigin + performance.now();
      });
      const t0 = performance.timeOrigin + performance.now();
      document.getElementById('tab-preview').click();
      await new Promise((r) => {
        const c = () => (loads() > 0 ? r() : requestAnimationFrame(c));
        c();
      });
      return { t0, ready, loaded: performance.timeOrigin + performance.now() };
    });
    if (trace) await browser.stopTracing();
    // The spare workspace worker starts once the preview has loaded and the page is idle: wait
    // for it (a bounded wait), so the summary says when it started against the preview's load.
    if (page.workers().length < 2) await page.waitForEvent('worker', { timeout: 15_000 }).catch(() => {});
    const answers = await page.evaluate(() => window.__answers);
    const f = page.frames().find((x) => x.url().includes('/preview/'));
    const frame = await f.evaluate(() => ({
      origin: performance.timeOrigin,
      nav: performance.getEntriesByType('navigation')[0].toJSON(),
      res: performance
        .getEntriesByType('resource')
        .map((e) => [
          decodeURIComponent(e.name.split('/').slice(-2).join('/')),
          e.startTime,
          e.responseStart,
          e.responseEnd,
        ]),
    }));
    const measuresOf = (target) =>
      target.evaluate(() => ({
        origin: performance.timeOrigin,
        m: performance.getEntries().map((e) => [e.entryType[0], e.name, e.startTime, e.duration]),
      }));
    const worker = await Promise.all(page.workers().map(measuresOf));
    // The workspace worker in use first, then the spare: when each started (its time origin).
    worker.sort((a, b) => a.origin - b.origin);
    const sw = await Promise.all(context.serviceWorkers().map(measuresOf));
    all.push({ clicked, answers, frame, worker, sw });
    await context.close();
  }
  await writeFile(`${out}.json`, JSON.stringify(all));
  for (const r of all) console.log(summary(r));
} finally {
  await close();
  await rm(root, { recursive: true, force: true });
}

function summary({ clicked, answers, frame, worker, sw }) {
  const at = (t) => (t - clicked.t0).toFixed(0).padStart(5);
  const lines = [];
  const line = (name, t) => lines.push(`  ${at(t)} ms  ${name}`);
  line('bridge ready', clicked.ready);
  const nav = frame.nav;
  line('frame navigation start', frame.origin);
  line('frame: page response start', frame.origin + nav.responseStart);
  const res = frame.res.map(([name, s, rs, re]) => [name, frame.origin + s, frame.origin + rs, frame.origin + re]);
  const mods = res.filter(([n]) => /m\d+\.tsx/.test(n));
  const mainTs = res.find(([n]) => n.endsWith('main.ts'));
  if (mainTs) {
    line('frame: main.ts asked', mainTs[1]);
    line('frame: main.ts response end', mainTs[3]);
  }
  if (mods.length) {
    line(`frame: first of ${mods.length} modules asked`, Math.min(...mods.map((m) => m[1])));
    line('frame: last module asked', Math.max(...mods.map((m) => m[1])));
    line('frame: first module response start', Math.min(...mods.map((m) => m[2])));
    line('frame: last module response end', Math.max(...mods.map((m) => m[3])));
  }
  line('frame: domInteractive', frame.origin + nav.domInteractive);
  line('frame: domContentLoaded end', frame.origin + nav.domContentLoadedEventEnd);
  line('frame: load event', frame.origin + nav.loadEventStart);
  line('playground: load seen', clicked.loaded);
  worker.forEach((w, i) => line(i === 0 ? 'workspace worker started' : 'spare workspace worker started', w.origin));
  for (const [path, t, end] of answers ?? [])
    lines.push(`  ${at(t)} ms  hand-over ${path} (answered+sent ahead by ${at(end)})`);
  for (const w of [...worker, ...sw]) {
    const m = w.m.map(([k, name, s, d]) => [k, name, w.origin + s, d]);
    const group = (prefix) => m.filter(([, name]) => name.startsWith(prefix));
    for (const prefix of ['hit ', 'serve ', 'read ', 'transpile ', 'post ', 'ahead ', 'relay ', 'batch ']) {
      const g = group(prefix);
      if (!g.length) continue;
      const sum = g.reduce((s, x) => s + x[3], 0);
      const first = Math.min(...g.map((x) => x[2]));
      const last = Math.max(...g.map((x) => x[2] + x[3]));
      lines.push(
        `  ${at(first)}-${at(last)} ms  ${prefix.trim()} x${g.length}, sum ${sum.toFixed(0)} ms, median ${[...g.map((x) => x[3])].sort((a, b) => a - b)[g.length >> 1].toFixed(1)}`,
      );
    }
  }
  return lines.join('\n');
}
