// Blame of a 2,000-line file that 100 changes wrote, against `git blame` on the same history.
// Needs `npm run build` first. Run alone with `node bench/blame.mjs`, or import benchBlame().
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createMemoryFs, createWorkspace } from '../dist/index.js';
import { fmtMs, fmtRatio, median, table } from './measure.mjs';

const LINES = 2000;
const CHANGES = 100;

/** The same 100 one-line edits, in the same order, for Sandpit and for git (a fixed-seed LCG). */
function edits() {
  let seed = 35;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  return Array.from({ length: CHANGES }, (_, i) => ({ line: Math.floor(next() * LINES), text: `changed ${i}` }));
}

export async function benchBlame() {
  const lines = Array.from({ length: LINES }, (_, i) => `line ${i} of the file`);
  const plan = edits();
  const fs = createMemoryFs({ 'big.txt': `${lines.join('\n')}\n` });
  const ws = createWorkspace({ fs, snapshots: false });
  const current = [...lines];
  const startChanges = performance.now();
  for (const [i, edit] of plan.entries()) {
    await ws.call('read_file', { path: 'big.txt' });
    const old = current[edit.line];
    current[edit.line] = edit.text;
    const r = await ws.call(
      'edit_file',
      { path: 'big.txt', old_text: `${old}\n`, new_text: `${edit.text}\n` },
      { actor: `a${i % 3}` },
    );
    if (!r.ok) throw new Error(r.error.message);
  }
  const changesMs = performance.now() - startChanges;
  const first = await ws.blame('big.txt');
  if (!first.ok) throw new Error(first.error.message);
  const sandpit = await median(() => ws.blame('big.txt'), { runs: 50, warmup: 5 });

  const dir = await mkdtemp(join(tmpdir(), 'sandpit-bench-blame-'));
  try {
    const git = (...args) => execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8' });
    git('init', '-q');
    git('config', 'user.email', 'b@example.com');
    git('config', 'user.name', 'bench');
    const gitLines = [...lines];
    await writeFile(join(dir, 'big.txt'), `${gitLines.join('\n')}\n`);
    git('add', '.');
    git('commit', '-qm', 'start');
    for (const edit of plan) {
      gitLines[edit.line] = edit.text;
      await writeFile(join(dir, 'big.txt'), `${gitLines.join('\n')}\n`);
      git('commit', '-qam', edit.text);
    }
    const gitMs = await median(() => git('blame', '--porcelain', 'big.txt'), { runs: 10, warmup: 2 });
    return table(
      `Blame of a ${LINES.toLocaleString('en')}-line file written by ${CHANGES} changes`,
      ['what', 'time', 'vs git blame'],
      [
        ['ws.blame (memory backend, attribution kept per change)', fmtMs(sandpit), fmtRatio(sandpit / gitMs)],
        ['git blame --porcelain (real repository, 101 commits)', fmtMs(gitMs), '1.00x'],
        [`the ${CHANGES} edit_file calls that built the history, tracking included`, fmtMs(changesMs), ''],
        [`ranges answered`, String(first.result.ranges.length), ''],
      ],
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(await benchBlame());
