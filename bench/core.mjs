import { mkdtemp, mkdir, rm, writeFile, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createMemoryFs, createWorkspace } from '../dist/index.js';
import { createNodeFs } from '../dist/node/index.js';
import { fmtMs, fmtRatio, median, table } from './measure.mjs';

const SMALL =
  Array.from({ length: 40 }, (_, i) => `export const value${i} = ${i}; // a typical short source line`).join('\n') +
  '\n';

/** read_file, write_file and edit_file through call() against the same operation done directly on the backend. */
export async function benchCore() {
  const rows = [];
  const base = await mkdtemp(join(tmpdir(), 'sandpit-bench-core-'));
  try {
    await mkdir(join(base, 'src'));
    await writeFile(join(base, 'src', 'small.ts'), SMALL);
    const backends = [
      { name: 'memory', fs: createMemoryFs({ 'src/small.ts': SMALL }), root: '/' },
      { name: 'node', fs: createNodeFs(), root: base },
      // what openNodeWorkspace uses: every path resolved through folder descriptors
      { name: 'node, race-free', fs: createNodeFs({ root: base }), root: base, bare: createNodeFs() },
    ];
    for (const { name, fs, root, bare = fs } of backends) {
      // Snapshots are measured in their own section; this one is the contract's own cost.
      const ws = createWorkspace({ fs, root, snapshots: false, policy: { staleCheck: false } });
      const abs = `${root === '/' ? '' : root}/src/small.ts`;
      const READS = { runs: 3000, warmup: 1000 };
      // against the bare read of the backend (for the race-free node backend, the plain one's)
      const direct = await median(async () => new TextDecoder().decode(await bare.readFile(abs)), READS);
      const viaCall = await median(async () => {
        const r = await ws.call('read_file', { path: 'src/small.ts' });
        if (!r.ok) throw new Error(JSON.stringify(r));
      }, READS);
      const against = bare === fs ? '' : ", against the plain backend's synchronous read";
      rows.push([`read_file (2 KB) on ${name}${against}`, fmtMs(viaCall), fmtMs(direct), fmtRatio(viaCall / direct)]);
      if (name !== 'memory') {
        // the issue's own yardstick: what a Node program would write, Node's fs.readFile
        const nodeRead = await median(async () => await readFile(abs, 'utf8'), READS);
        rows.push([
          `read_file (2 KB) on ${name}, against Node's fs.promises.readFile`,
          fmtMs(viaCall),
          fmtMs(nodeRead),
          fmtRatio(viaCall / nodeRead),
        ]);
        // a whole-file write of the same size each time, through call() and straight to the plain backend
        const content = (i) => SMALL.replace(/value7 = \d+/, `value7 = ${String(i % 1e6).padStart(6, '0')}`);
        const directWrite = await median(async (i) => {
          await bare.writeFile(abs, new TextEncoder().encode(content(i)));
        });
        const viaWrite = await median(async (i) => {
          const r = await ws.call('write_file', { path: 'src/small.ts', content: content(i) });
          if (!r.ok) throw new Error(JSON.stringify(r));
        });
        rows.push([
          `write_file (2 KB) on ${name}`,
          fmtMs(viaWrite),
          fmtMs(directWrite),
          fmtRatio(viaWrite / directWrite),
        ]);
      }
      const directEdit = await median(async (i) => {
        const text = new TextDecoder().decode(await bare.readFile(abs));
        const next = text.replace(/value7 = \d+/, `value7 = ${i}`);
        await bare.writeFile(abs, new TextEncoder().encode(next));
      });
      let current = new TextDecoder().decode(await fs.readFile(abs)).match(/value7 = \d+/)[0];
      const viaEdit = await median(async (i) => {
        const next = `value7 = ${1e6 + i}`;
        const r = await ws.call('edit_file', { path: 'src/small.ts', old_text: current, new_text: next });
        if (!r.ok) throw new Error(JSON.stringify(r));
        current = next;
      });
      rows.push([`edit_file (2 KB) on ${name}`, fmtMs(viaEdit), fmtMs(directEdit), fmtRatio(viaEdit / directEdit)]);
      const withSnapshots = createWorkspace({ fs, root, policy: { staleCheck: false } });
      const viaSnapshotEdit = await median(
        async (i) => {
          const next = `value7 = ${2e6 + i}`;
          const r = await withSnapshots.call('edit_file', { path: 'src/small.ts', old_text: current, new_text: next });
          if (!r.ok) throw new Error(JSON.stringify(r));
          current = next;
        },
        { runs: 100, warmup: 10 },
      );
      rows.push([
        `edit_file (2 KB) on ${name}, with its git snapshot`,
        fmtMs(viaSnapshotEdit),
        fmtMs(directEdit),
        fmtRatio(viaSnapshotEdit / directEdit),
      ]);
    }
  } finally {
    await rm(base, { recursive: true, force: true });
  }
  return table(
    'Contract overhead: call() against the bare backend (medians)',
    ['operation', 'through call()', 'direct on backend', 'ratio'],
    rows,
  );
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(await benchCore());
}
