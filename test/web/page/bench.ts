import { wrap } from 'comlink';
import { connectWorkspace, type RemoteWorkspace } from '../../../web/client.js';
import type { BackendKind } from '../../../web/protocol.js';
import { backendOf } from '../../../src/fs/backends.js';
import type { RawBench } from './bench-worker.js';

const SMALL =
  Array.from({ length: 40 }, (_, i) => `export const value${i} = ${i}; // a typical short source line`).join('\n') +
  '\n';

function median(times: number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function must(ws: RemoteWorkspace, tool: string, args: unknown) {
  const env = await ws.call(tool, args);
  if (!env.ok) throw new Error(`${tool}: ${JSON.stringify(env.error)}`);
  return env.result as Record<string, unknown>;
}

async function removeStorage(backend: BackendKind, name: string) {
  await backendOf(backend)!.destroy(name);
}

export interface BrowserBenchResult {
  roundTripMs: number;
  files: Record<BackendKind, { writeMs: number; readMs: number }>;
  snapshot: Record<BackendKind, { firstMs: number; afterEditMs: number }>;
  raw: Record<string, { writeMs: number; readMs: number }>;
}

/**
 * The browser section of `npm run bench`, run inside the built test page. `filesOnly` runs just
 * the 1,000-file rows (for the private-window comparison).
 */
export async function runBenchmarks({ files = 1000, runs = 300, filesOnly = false } = {}): Promise<BrowserBenchResult> {
  const stamp = Date.now().toString(36);
  const times: number[] = [];
  if (!filesOnly) {
    const rt = await connectWorkspace({
      backend: 'memory',
      name: 'bench-rt',
      snapshots: false,
      policy: { staleCheck: false },
    });
    await must(rt, 'write_file', { path: 'small.ts', content: SMALL });
    for (let i = -30; i < runs; i++) {
      const t = performance.now();
      await must(rt, 'read_file', { path: 'small.ts' });
      if (i >= 0) times.push(performance.now() - t);
    }
    await rt.close();
  }

  const result: BrowserBenchResult = {
    roundTripMs: times.length ? median(times) : NaN,
    files: {} as never,
    snapshot: {} as never,
    raw: {},
  };
  for (const backend of ['memory', 'opfs', 'indexeddb'] as const) {
    const name = `bench-files-${backend}-${stamp}`;
    const ws = await connectWorkspace({ backend, name, snapshots: false });
    let t = performance.now();
    for (let i = 0; i < files; i++)
      await must(ws, 'write_file', { path: `src/d${i % 20}/f${i}.ts`, content: `export const v${i} = ${i};\n` });
    const writeMs = performance.now() - t;
    t = performance.now();
    for (let i = 0; i < files; i++) await must(ws, 'read_file', { path: `src/d${i % 20}/f${i}.ts` });
    result.files[backend] = { writeMs, readMs: performance.now() - t };
    await ws.close();
    await removeStorage(backend, name);
  }

  if (filesOnly) return result;

  for (const backend of ['memory', 'opfs', 'indexeddb'] as const) {
    const name = `bench-snap-${backend}-${stamp}`;
    const ws = await connectWorkspace({ backend, name, snapshots: { when: 'manual' } });
    for (let i = 0; i < files; i++)
      await must(ws, 'write_file', { path: `src/d${i % 20}/f${i}.ts`, content: `export const v${i} = ${i};\n` });
    let t = performance.now();
    await must(ws, 'snapshot', { message: 'all files' });
    const firstMs = performance.now() - t;
    const edits: number[] = [];
    for (let round = 0; round < 9; round++) {
      await must(ws, 'edit_file', {
        path: 'src/d7/f7.ts',
        old_text: `= ${round === 0 ? 7 : 1000 + round - 1};`,
        new_text: `= ${1000 + round};`,
      });
      t = performance.now();
      await must(ws, 'snapshot', { message: `edit ${round}` });
      edits.push(performance.now() - t);
    }
    result.snapshot[backend] = { firstMs, afterEditMs: median(edits) };
    await ws.close();
    await removeStorage(backend, name);
  }

  const raw = wrap<RawBench>(new Worker(new URL('./bench-worker.ts', import.meta.url), { type: 'module' }));
  for (const kind of ['opfs-packed', 'opfs-tree-sync', 'opfs-tree-async', 'indexeddb', 'memory'] as const)
    result.raw[kind] = await raw.run(kind, files, stamp);
  return result;
}
