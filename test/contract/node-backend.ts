import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createNodeFs } from '../../src/fs/node.js';
import type { BackendUnderTest } from './backend.js';

export const nodeBackend: BackendUnderTest = {
  name: 'node',
  symlinks: true,
  async make(seed = {}, needs) {
    const base = await mkdtemp(join(tmpdir(), 'sandpit-contract-'));
    const root = join(base, 'ws');
    await mkdir(root);
    await mkdir(join(base, 'outside'));
    if (needs?.escapeTargets !== false) {
      await writeFile(join(base, 'outside', 'secret.txt'), 'top secret\n');
      await mkdir(join(base, 'ws2'));
      await writeFile(join(base, 'ws2', 'sibling.txt'), 'sibling\n');
    }
    for (const [path, content] of Object.entries(seed)) {
      await mkdir(dirname(join(root, path)), { recursive: true });
      await writeFile(join(root, path), content);
    }
    return {
      fs: createNodeFs(),
      root,
      outside: join(base, 'outside'),
      cleanup: () => rm(base, { recursive: true, force: true }),
    };
  },
};
