import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** The files `entries` load before they run: themselves and every chunk they import statically, with each one's gzip size. */
async function closure(assetsDir, entries) {
  const sizes = new Map();
  const pending = [...entries];
  while (pending.length > 0) {
    const file = pending.pop();
    if (!file || sizes.has(file)) continue;
    const code = await readFile(join(assetsDir, file), 'utf8');
    sizes.set(file, gzipSync(code, { level: 9 }).length);
    for (const m of code.matchAll(/\bfrom\s*["']\.\/([\w.-]+\.js)["']|\bimport\s*["']\.\/([\w.-]+\.js)["']/g))
      pending.push(m[1] ?? m[2]);
  }
  return sizes;
}

/** The chunks a worker serving OPFS loads first: its entry chunk and the OPFS adapter chunk it imports when the workspace opens. */
async function opfsWorkerClosure(assetsDir) {
  const assets = await readdir(assetsDir);
  return closure(assetsDir, [
    assets.find((f) => /^worker-.*\.js$/.test(f)),
    assets.find((f) => /^opfs-.*\.js$/.test(f)),
  ]);
}

const sum = (sizes) => [...sizes.values()].reduce((a, b) => a + b, 0);

/**
 * The gzip size of what a worker serving OPFS loads: its entry chunk, the OPFS adapter chunk it
 * imports when the workspace opens, and every chunk those import statically. The memory and
 * IndexedDB adapters (memfs, lightning-fs) are chunks of their own that such a worker never loads.
 */
export async function opfsWorkerGzip(assetsDir) {
  return sum(await opfsWorkerClosure(assetsDir));
}

/**
 * The gzip size of what the shell adds to that worker on the first run_command: its own chunk
 * (`run-*.js`, the interpreter and the commands agents type most) and the chunks it imports that
 * the worker has not loaded yet. The rarer commands are chunks of their own, loaded on first use.
 */
export async function shellChunkGzip(assetsDir) {
  const worker = await opfsWorkerClosure(assetsDir);
  // the worker's own shell chunk: a page that runs the shell in-page too has a second `run-*.js`
  let run;
  for (const file of worker.keys()) {
    const code = await readFile(join(assetsDir, file), 'utf8');
    run ??= /\bimport\(\s*["'`]\.\/(run-[\w-]+\.js)["'`]\s*\)/.exec(code)?.[1];
  }
  if (!run) throw new Error('no run-*.js chunk is loaded by the worker');
  const shell = await closure(assetsDir, [run]);
  for (const file of worker.keys()) shell.delete(file);
  return sum(shell);
}
