// The openai toolset's apply_patch (one V4A update_file operation per call, as the Responses API
// sends them) against the canonical apply_patch (one envelope for all 100 files), on memory.
// Needs `npm run build` first. Run alone with `node bench/native.mjs`, or import benchNative().
import { createMemoryFs, createWorkspace, toolset } from '../dist/index.js';
import { fmtMs, fmtRatio, table } from './measure.mjs';
import { makePatch, seedFiles } from './patch.mjs';

/** The 100-file patch split into the per-file operations the Responses API emits. */
function operations(patch) {
  const ops = [];
  for (const line of patch.split('\n').slice(1)) {
    const header = /^\*\*\* Update File: (.+)$/.exec(line);
    if (header) ops.push({ type: 'update_file', path: header[1], diff: [] });
    else if (line === '*** End Patch') break;
    else ops.at(-1).diff.push(line);
  }
  return ops.map((op) => ({ ...op, diff: `${op.diff.join('\n')}\n` }));
}

async function timed(runs, makeWorkspace, apply) {
  const times = [];
  for (let i = 0; i < runs + 1; i++) {
    const ws = makeWorkspace();
    const start = performance.now();
    await apply(ws);
    if (i > 0) times.push(performance.now() - start);
    await ws.close();
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

export async function benchNative() {
  const patch = makePatch();
  const ops = operations(patch);
  const runs = 5;
  const canonical = await timed(
    runs,
    () => createWorkspace({ fs: createMemoryFs(seedFiles()) }),
    async (ws) => {
      const r = await ws.call('apply_patch', { patch });
      if (!r.ok) throw new Error(JSON.stringify(r.error));
    },
  );
  const native = await timed(
    runs,
    () => createWorkspace({ fs: createMemoryFs(seedFiles()), tools: toolset('openai').tools }),
    async (ws) => {
      for (const operation of ops) {
        const r = await ws.call('apply_patch', { operation });
        if (!r.ok) throw new Error(JSON.stringify(r.error));
      }
    },
  );
  return table(
    'Native tools: a 100-file, 1,000-chunk patch on memory (median of 5)',
    ['path', 'calls', 'time', 'vs canonical'],
    [
      ['canonical apply_patch (one envelope)', '1', fmtMs(canonical), '1.00x'],
      [
        'openai toolset apply_patch (V4A, one operation per call)',
        String(ops.length),
        fmtMs(native),
        fmtRatio(native / canonical),
      ],
    ],
  );
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await benchNative());
