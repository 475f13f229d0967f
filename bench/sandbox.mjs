// run_command "true" through call(), without and with the OS sandbox (bubblewrap), against a
// plain spawn of the same program. Median of 50 runs each, in turns so a busy machine slows
// them alike. Needs `npm run build` first. Run alone with `node bench/sandbox.mjs`.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fmtMs, fmtRatio, table } from './measure.mjs';

const RUNS = 50;
const WARMUP = 5;

function plainSpawn(cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn('true', [], { cwd, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    child.once('error', reject);
    child.once('close', resolve);
  });
}

async function interleaved(contenders) {
  const times = contenders.map(() => []);
  for (let i = -WARMUP; i < RUNS; i++) {
    for (const [k, [, fn]] of contenders.entries()) {
      const t = performance.now();
      await fn();
      if (i >= 0) times[k].push(performance.now() - t);
    }
  }
  return times.map((list) => list.sort((a, b) => a - b)[Math.floor(list.length / 2)]);
}

export async function benchSandbox() {
  const { openNodeWorkspace } = await import('../dist/node/index.js');
  const { bwrapProblem } = await import('../dist/node/process/sandbox.js');
  const dir = mkdtempSync(join(tmpdir(), 'sandpit-bench-sandbox-'));
  const problem = await bwrapProblem();
  const plain = openNodeWorkspace(dir, { sandbox: 'none', snapshots: false });
  const boxed = problem === null ? openNodeWorkspace(dir, { sandbox: 'os', snapshots: false }) : null;
  const run = (ws) => async () => {
    const envelope = await ws.call('run_command', { command: 'true' });
    if (!envelope.ok || envelope.result.exit_code !== 0)
      throw new Error(`run_command failed: ${JSON.stringify(envelope).slice(0, 300)}`);
  };
  try {
    const contenders = [
      ['plain spawn', () => plainSpawn(dir)],
      ['run_command, sandbox none', run(plain)],
    ];
    if (boxed) contenders.push(['run_command, sandbox os (bwrap)', run(boxed)]);
    const medians = await interleaved(contenders);
    const rows = contenders.map(([name], k) => [name, fmtMs(medians[k]), fmtRatio(medians[k] / medians[0])]);
    if (boxed) rows.push(['sandbox cost (os - none)', fmtMs(medians[2] - medians[1]), '']);
    else rows.push(['sandbox os', `not measured: ${problem}`, '']);
    return table(`run_command "true" (median of ${RUNS})`, ['how', 'median', 'vs plain spawn'], rows);
  } finally {
    await plain.close();
    await boxed?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await benchSandbox());
