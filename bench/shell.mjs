// The shell section of `npm run bench`: the browser shell (run_command over Sandpit's own
// interpreter, on memory) against Node's run_command with the real tools, on the same 1,000-file
// tree in one run; and `node -e 1` start latency in the page's worker (headless Chromium), on an
// empty workspace and on that tree.
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildTestPage, openChromium, serve } from './chromium-page.mjs';
import { fmtMs, fmtRatio, median, table } from './measure.mjs';

const LINES = ['grep -rn TODO .', "find . -name '*.ts' | wc -l"];

function tree(files) {
  const out = {};
  for (let i = 0; i < files; i++) {
    const ext = i % 3 === 0 ? 'js' : 'ts';
    const lines = Array.from({ length: 40 }, (_, n) =>
      n === i % 40 && i % 10 === 0 ? `// TODO item ${i}` : `export const v${n} = ${i * n};`,
    );
    out[`pkg${i % 25}/sub${i % 8}/file${i}.${ext}`] = `${lines.join('\n')}\n`;
  }
  return out;
}

/** `node -e 1` start latency in the page's worker: on an empty workspace, and on `seed` (the script's copy of it included). */
async function startLatency(seed) {
  const outDir = await mkdtemp(join(tmpdir(), 'sandpit-bench-shell-'));
  let server;
  const browser = await openChromium({ privateWindow: true });
  try {
    await buildTestPage(outDir);
    server = await serve(outDir);
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${server.address().port}/`);
    await page.waitForFunction(() => window.sandpit);
    return await page.evaluate(async (files) => {
      const medianStart = async (name, withFiles) => {
        const ws = await window.sandpit.connectWorkspace({ backend: 'memory', name });
        if (withFiles.length) {
          const encoder = new TextEncoder();
          const imported = await ws.importFiles(
            withFiles.map(([path, text]) => ({ path, bytes: encoder.encode(text) })),
          );
          if (!imported.ok) throw new Error(`import failed: ${JSON.stringify(imported.error)}`);
        }
        const first = await ws.call('run_command', { command: 'node -e 1' });
        if (!first.ok || first.result.exit_code !== 0 || first.result.stderr !== '')
          throw new Error(`node -e 1 failed: ${JSON.stringify(first)}`);
        const times = [];
        for (let i = 0; i < 15; i++) {
          const r = await ws.call('run_command', { command: 'node -e 1' });
          times.push(r.result.duration_ms);
        }
        await ws.close();
        times.sort((a, b) => a - b);
        return times[Math.floor(times.length / 2)];
      };
      return {
        empty: await medianStart(`bench-${Date.now()}`, []),
        full: await medianStart(`bench-full-${Date.now()}`, files),
      };
    }, Object.entries(seed));
  } finally {
    await browser.close();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve()));
    await rm(outDir, { recursive: true, force: true });
  }
}

export async function benchShell({ files = 1000 } = {}) {
  const { createWorkspace, createShellRunner } = await import('../dist/index.js');
  const { createMemoryFs } = await import('../dist/fs/memory.js');
  const { openNodeWorkspace } = await import('../dist/node/index.js');
  const seed = tree(files);
  const dir = await mkdtemp(join(tmpdir(), 'sandpit-bench-shell-tree-'));
  try {
    for (const [path, text] of Object.entries(seed)) {
      await mkdir(join(dir, path, '..'), { recursive: true });
      await writeFile(join(dir, path), text);
    }
    const mem = createMemoryFs(Object.fromEntries(Object.entries(seed).map(([p, t]) => [`/${p}`, t])));
    const browserShell = createWorkspace({ fs: mem, processRunner: createShellRunner(mem), snapshots: false });
    const node = openNodeWorkspace(dir, { snapshots: false });
    const rows = [];
    for (const line of LINES) {
      const a = await browserShell.call('run_command', { command: line });
      const b = await node.call('run_command', { command: ['sh', '-c', line] });
      if (!a.ok || !b.ok || a.result.stdout.split('\n').length !== b.result.stdout.split('\n').length)
        throw new Error(`the two disagree on ${line}`);
      const shellMs = await median(() => browserShell.call('run_command', { command: line }), { runs: 15, warmup: 2 });
      const realMs = await median(() => node.call('run_command', { command: ['sh', '-c', line] }), {
        runs: 15,
        warmup: 2,
      });
      rows.push([
        `\`${line}\`, ${files} files`,
        fmtMs(shellMs),
        fmtMs(realMs),
        fmtRatio(shellMs / realMs),
        'within 3x',
        shellMs <= 3 * realMs ? 'met' : 'missed',
      ]);
    }
    await node.close();
    const start = await startLatency(seed);
    rows.push([
      '`node -e 1` in a throwaway worker (Chromium, duration_ms, median of 15)',
      fmtMs(start.empty),
      '',
      '',
      'under 50 ms',
      start.empty < 50 ? 'met' : 'missed',
    ]);
    // The script's worker gets a copy of the workspace, so its start grows with the tree.
    rows.push([
      `\`node -e 1\`, ${files} files copied to the worker (Chromium, duration_ms, median of 15)`,
      fmtMs(start.full),
      '',
      '',
      '',
      '',
    ]);
    return table(
      'run_command: the browser shell on memory against the real tools (Node run_command, sh -c)',
      ['command', 'browser shell', 'real tools', 'ratio', 'target', ''],
      rows,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(await benchShell());
}
