import type { WorkspaceFs } from '../index.js';

/**
 * Lay out the tree every backend under test starts with: the root `/ws` holding `seed`, plus
 * `/outside/secret.txt` and `/ws2/sibling.txt` beside it for escape tests. `escapeTargets: false`
 * leaves those two out, for a test that never looks beside the root (see `ConformanceBackend.make`).
 */
export async function seedTree(
  fs: WorkspaceFs,
  seed: Record<string, string | Uint8Array>,
  needs: { escapeTargets?: boolean } = {},
): Promise<void> {
  const files: Record<string, string | Uint8Array> =
    needs.escapeTargets === false ? {} : { '/outside/secret.txt': 'top secret\n', '/ws2/sibling.txt': 'sibling\n' };
  for (const [path, content] of Object.entries(seed)) files[`/ws/${path}`] = content;
  await fs.mkdir('/ws', { recursive: true });
  for (const [path, content] of Object.entries(files)) {
    await fs.mkdir(path.slice(0, path.lastIndexOf('/')), { recursive: true });
    await fs.writeFile(path, typeof content === 'string' ? new TextEncoder().encode(content) : content);
  }
}
