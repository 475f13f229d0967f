/**
 * The process the crash test kills: it opens a workspace on a real folder and changes files in a
 * loop (write_file, edit_file, apply_patch), logging each change to a journal before and after it,
 * with synchronous appends, so the parent knows which versions a file may hold when SIGKILL lands.
 * Run as: node crash-child.mjs <root> <journal> <seed>
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { createWorkspace } from '../../src/index.js';
import { createNodeFs } from '../../src/fs/node.js';
import { createRng } from './rng.js';
import { FILES, parseVersion, render } from './crash-format.js';

const [root, journal, seedText] = process.argv.slice(2) as [string, string, string];
const rng = createRng(Number(seedText));
const ws = createWorkspace({ fs: createNodeFs(), root });
const log = (line: string) => appendFileSync(journal, `${line}\n`);

async function main(): Promise<void> {
  const state = new Map<string, { h: number; b: number }>();
  let next = 1;
  for (const name of FILES) {
    const v = parseVersion(name, readText(`${root}/${name}`));
    if (v) {
      state.set(name, v);
      next = Math.max(next, v.h + 1, v.b + 1);
    }
  }
  log(`S ${process.pid}`);
  for (;;) {
    const name = rng.pick(FILES);
    const cur = state.get(name);
    const v = next++;
    const op = !cur ? 'write' : rng.pick(['write', 'write', 'edit', 'patch'] as const);
    const after = op === 'write' || !cur ? { h: v, b: v } : { h: v, b: cur.b };
    log(`B ${name} ${after.h} ${after.b}`);
    let env;
    if (op === 'write') {
      await ws.call('read_file', { path: name, max_chars: 1 });
      env = await ws.call('write_file', { path: name, content: render(name, after.h, after.b) });
    } else if (op === 'edit') {
      await ws.call('read_file', { path: name });
      env = await ws.call('edit_file', {
        path: name,
        old_text: `${name} version ${cur!.h}\n`,
        new_text: `${name} version ${after.h}\n`,
      });
    } else {
      env = await ws.call('apply_patch', {
        patch: `*** Begin Patch\n*** Update File: ${name}\n@@\n-${name} version ${cur!.h}\n+${name} version ${after.h}\n*** End Patch\n`,
      });
    }
    if (env.ok) {
      state.set(name, after);
      log(`E ${name} ${after.h} ${after.b}`);
    } else log(`F ${name} ${env.error.code} ${env.error.message.replace(/\n/g, ' ').slice(0, 200)}`);
  }
}

function readText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

main().catch((error) => {
  log(`X ${String(error)}`);
  process.exit(3);
});
