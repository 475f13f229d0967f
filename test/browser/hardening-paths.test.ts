import '../../web/polyfills.js';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { commands } from 'vitest/browser';
import { createIndexedDbFs } from '../../src/fs/indexeddb.js';
import { createOpfsFs } from '../../src/fs/opfs.js';
import type { WorkspaceFs } from '../../src/index.js';
import { backendWorld, type World } from '../hardening/fs-world.js';
import { coreMaker, fuzzPaths } from '../hardening/path-fuzz.js';
import { createRng } from '../hardening/rng.js';
import { registeredToolsets } from '../hardening/toolset-registry.js';
import { workerBackend } from './worker-backend.js';

/** The path fuzzer's slice in real Chromium: the two browser backends, the same oracle and audit. */
const { full, seed } = inject('hardening');
const replay = (area: string) =>
  `[hardening ${area}] mode=${full ? 'full' : 'slice'} seed=${seed} (replay: HARDENING_SEED=${seed}${full ? ' HARDENING=full' : ''})`;

const unique = (kind: string) =>
  `sandpit-hardening-${kind}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

/** OPFS walks are slow enough that the `npm test` slice stays small there. `opfs` is the tree layout the page itself opens. */
const backends: Array<{
  name: 'opfs' | 'opfs-packed' | 'indexeddb';
  symlinks: boolean;
  paths: number;
  open(): Promise<{
    fs: WorkspaceFs;
    remove(): Promise<void>;
    /** where the backend lives apart from the page: the world's outside walk, run there in one go */
    readOutside?: (base: string, root: string) => Promise<Record<string, string>>;
  }>;
}> = [
  {
    name: 'opfs',
    symlinks: false,
    paths: full ? 1_000 : 12,
    async open() {
      const name = unique('opfs');
      return {
        fs: await createOpfsFs({ name }),
        remove: async () => (await navigator.storage.getDirectory()).removeEntry(name, { recursive: true }),
      };
    },
  },
  {
    // The layout a new OPFS workspace gets in a worker; every operation crosses to the worker as plain JSON.
    name: 'opfs-packed',
    symlinks: false,
    paths: full ? 1_000 : 12,
    async open() {
      const made = await workerBackend(
        'opfs',
        () => new Worker(new URL('./fixtures/fs-worker.ts', import.meta.url), { type: 'module' }),
      ).make();
      return { fs: made.fs, remove: made.cleanup, readOutside: made.outsideState };
    },
  },
  {
    name: 'indexeddb',
    symlinks: true,
    paths: full ? 1_000 : 16,
    async open() {
      const name = unique('idb');
      return {
        fs: createIndexedDbFs({ name, wipe: true }),
        remove: async () => {
          indexedDB.deleteDatabase(name);
        },
      };
    },
  },
];

describe('hardening: hostile paths in Chromium', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const c of cleanups) await c().catch(() => undefined);
  });

  for (const backend of backends) {
    it(
      `${backend.name}: ${backend.paths} generated paths through every path-taking slot of every toolset`,
      async () => {
        console.log(replay(`paths/${backend.name}`));
        const { fs, remove, readOutside } = await backend.open();
        cleanups.push(remove);
        const world: World = await backendWorld(backend.name, fs, backend.symlinks, readOutside);
        const toolsets = registeredToolsets();
        const report = await fuzzPaths(
          world,
          toolsets,
          createRng(seed).fork(`paths/${backend.name}`),
          backend.paths,
          coreMaker,
        );
        console.log(
          `[hardening paths/${backend.name}] calls=${report.calls} escapes=${report.escapes} uncaught=${report.uncaught} partial=${report.partial} not-supported=${report.unsupported.join(',') || 'none'}`,
        );
        await commands.recordHardeningFigures({
          area: 'path fuzzing',
          backend: backend.name,
          attempts: report.calls,
          escapes: report.escapes,
          uncaught: report.uncaught,
          partial: report.partial,
          lost: 0,
          torn: 0,
          note: `${report.paths.toLocaleString('en-US')} paths x ${report.uses} path slots, ${toolsets.length} toolsets, in Chromium${backend.symlinks ? '' : ' (no symlinks on this backend)'}`,
        });
        expect(report.broken, replay(`paths/${backend.name}`)).toEqual([]);
        expect(report.paths).toBe(backend.paths);
        expect(report.calls).toBeGreaterThan(backend.paths * 10);
      },
      full ? 3_600_000 : 180_000,
    );
  }
});
