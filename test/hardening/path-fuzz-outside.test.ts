import { describe, expect, it } from 'vitest';
import { createMemoryFs, type WorkspaceFs } from '../../src/index.js';
import { backendWorld } from './fs-world.js';
import { coreMaker, fuzzPaths } from './path-fuzz.js';
import { createRng } from './rng.js';
import { registeredToolsets } from './toolset-registry.js';

/**
 * A backend with the bug the fuzzer's outside check is for: every write into the workspace also
 * lands beside it, as a backend resolving a path wrongly would do. The tools' own audit sees only
 * paths inside the root, so only the check of the outside area can tell.
 */
function leakingFs(inner: WorkspaceFs, root: string, leakTo: string): WorkspaceFs {
  let leaks = 0;
  return new Proxy(inner, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver);
      if (typeof value !== 'function') return value;
      if (name === 'writeFile')
        return async (path: string, data: Uint8Array) => {
          await value.call(target, path, data);
          if (path.startsWith(`${root}/`) && !path.includes('/.sandpit/'))
            await value.call(target, leakTo, new TextEncoder().encode(`leaked ${++leaks}\n`));
        };
      return value.bind(target);
    },
  });
}

describe('hardening: the path fuzzer', () => {
  // The fuzzer reads the outside area again only after a write was asked of the backend; this
  // proves a write that lands there is still caught.
  it('catches a write that lands outside the root through the backend itself', async () => {
    const base = '/srv/sandpit-h0st';
    const fs = leakingFs(createMemoryFs(), `${base}/app`, `${base}/outside/secret.txt`);
    const world = await backendWorld('memory', fs, true);
    // twelve paths: the known hostile ones are all refused, and a later one writes into the root
    const report = await fuzzPaths(world, registeredToolsets(), createRng(7).fork('outside'), 12, coreMaker);
    expect(report.escapes).toBeGreaterThan(0);
    expect(report.broken.some((line) => line.includes('changed or read something outside the root'))).toBe(true);
  });
});
