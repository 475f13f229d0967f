import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/**
 * The gzip size of what a worker serving OPFS loads: its entry chunk, the OPFS adapter chunk it
 * imports when the workspace opens, and every chunk those import statically. The memory and
 * IndexedDB adapters (memfs, lightning-fs) are chunks of their own that such a worker never loads.
 */
export async function opfsWorkerGzip(assetsDir) {
  const assets = await readdir(assetsDir);
  const text = async (f) => readFile(join(assetsDir, f), 'utf8');
  const pending = [assets.find((f) => /^worker-.*\.js$/.test(f)), assets.find((f) => /^opfs-.*\.js$/.test(f))];
  const seen = new Set();
  let total = 0;
  while (pending.length > 0) {
    const file = pending.pop();
    if (!file || seen.has(file)) continue;
    seen.add(file);
    const code = await text(file);
    total += gzipSync(code, { level: 9 }).length;
    for (const m of code.matchAll(/\bfrom\s*["']\.\/([\w.-]+\.js)["']|\bimport\s*["']\.\/([\w.-]+\.js)["']/g))
      pending.push(m[1] ?? m[2]);
  }
  return total;
}
