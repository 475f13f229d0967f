// apply_patch on a 100-file, 1,000-chunk patch, through call(), on memory and node.
// Needs `npm run build` first. Run alone with `node bench/patch.mjs`, or import benchPatch().
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createMemoryFs, createWorkspace } from '../dist/index.js';
import { createNodeFs } from '../dist/node/index.js';
import { fmtMs, table } from './measure.mjs';

const FILES = 100;
const CHUNKS_PER_FILE = 10;
const LINES_PER_FILE = 400;

/** A source-like file: numbered lines, so every chunk's context is unique. */
function fileText(f) {
  let text = '';
  for (let i = 0; i < LINES_PER_FILE; i++)
    text += `    const value_${f}_${i} = compute(${i}, "file ${f}"); // line ${i}\n`;
  return text;
}

/** One Update section per file, each with ten chunks of 3+1+1+3 lines spread over the file. */
export function makePatch() {
  const out = ['*** Begin Patch'];
  for (let f = 0; f < FILES; f++) {
    out.push(`*** Update File: src/pkg${f % 10}/file${f}.ts`);
    for (let c = 0; c < CHUNKS_PER_FILE; c++) {
      const at = 10 + c * Math.floor((LINES_PER_FILE - 20) / CHUNKS_PER_FILE);
      const line = (i) => `    const value_${f}_${i} = compute(${i}, "file ${f}"); // line ${i}`;
      out.push('@@');
      for (let i = at - 3; i < at; i++) out.push(` ${line(i)}`);
      out.push(`-${line(at)}`, `+${line(at).replace('compute(', 'computeFaster(')}`);
      for (let i = at + 1; i <= at + 3; i++) out.push(` ${line(i)}`);
    }
  }
  out.push('*** End Patch', '');
  return out.join('\n');
}

/** The files the patch applies to. */
export function seedFiles() {
  const files = {};
  for (let f = 0; f < FILES; f++) files[`src/pkg${f % 10}/file${f}.ts`] = fileText(f);
  return files;
}

/** Median of `runs` timed calls, each on a freshly reset workspace (the reset is not timed). */
async function timeCalls(runs, warmup, reset, patch) {
  const times = [];
  for (let i = 0; i < warmup + runs; i++) {
    const ws = await reset();
    const t = performance.now();
    const env = await ws.call('apply_patch', { patch });
    const ms = performance.now() - t;
    if (!env.ok || env.result.files.length !== FILES)
      throw new Error(`apply_patch failed: ${JSON.stringify(env.ok ? env.result.files.length : env.error)}`);
    if (i >= warmup) times.push(ms);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

export async function benchPatch({ runs = 15, warmup = 3, log = () => {} } = {}) {
  const patch = makePatch();
  const files = seedFiles();
  const rows = [];
  const base = await mkdtemp(join(tmpdir(), 'sandpit-bench-patch-'));
  try {
    const root = join(base, 'ws');
    const resetNode = async () => {
      await rm(root, { recursive: true, force: true });
      for (const [rel, text] of Object.entries(files)) {
        await mkdir(join(root, rel, '..'), { recursive: true });
        await writeFile(join(root, rel), text);
      }
    };
    for (const snapshots of [false, undefined]) {
      const label = snapshots === false ? 'snapshots off' : 'snapshots on (default)';
      const make = async (fs, r) => {
        const ws = createWorkspace({ fs, root: r, ...(snapshots === false ? { snapshots: false } : {}) });
        // a first mutating call sets up the snapshot baseline, so the timed call measures the patch itself
        if (snapshots !== false) await ws.call('create_directory', { path: 'warm' });
        return ws;
      };
      log(`patch: memory, ${label}`);
      const memory = await timeCalls(
        runs,
        warmup,
        () => {
          const seeded = {};
          for (const [rel, text] of Object.entries(files)) seeded[`/ws/${rel}`] = text;
          return make(createMemoryFs(seeded), '/ws');
        },
        patch,
      );
      log(`patch: node, ${label}`);
      const node = await timeCalls(
        runs,
        warmup,
        async () => {
          await resetNode();
          return make(createNodeFs(), root);
        },
        patch,
      );
      rows.push([label, fmtMs(memory), fmtMs(node)]);
    }
  } finally {
    await rm(base, { recursive: true, force: true });
  }
  const bytes = new TextEncoder().encode(patch).length;
  return table(
    `apply_patch: ${FILES} files x ${CHUNKS_PER_FILE} chunks = ${FILES * CHUNKS_PER_FILE} chunks (${LINES_PER_FILE}-line files, ${(bytes / 1024).toFixed(0)} KB patch) through call(); medians of ${runs}`,
    ['workspace', 'memory', 'node'],
    rows,
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(await benchPatch({ log: (m) => console.error(`# ${m}`) }));
}
