import { createMemoryFs } from '../../src/index.js';
import type { BackendUnderTest } from './backend.js';

export const memoryBackend: BackendUnderTest = {
  name: 'memory',
  symlinks: true,
  async make(seed = {}, needs) {
    const files: Record<string, string | Uint8Array> =
      needs?.escapeTargets === false ? {} : { '/outside/secret.txt': 'top secret\n', '/ws2/sibling.txt': 'sibling\n' };
    for (const [path, content] of Object.entries(seed)) files[`/ws/${path}`] = content;
    const fs = createMemoryFs(files);
    await fs.mkdir('/ws', { recursive: true });
    return { fs, root: '/ws', outside: '/outside', cleanup: async () => {} };
  },
};
