import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alive, eventually } from './support.js';

// The host must be a separate Node process, so process.ts and what it imports are transpiled for it.
const SOURCES = [
  'node/process/spawn.ts',
  'node/process/output-cap.ts',
  'fs/node-builtin.ts',
  'fs/tool-error.ts',
  'fs/errors.ts',
  ...readdirSync('src/contract').map((f) => `contract/${f}`),
];
let out: string;

beforeAll(async () => {
  out = await mkdtemp(join(tmpdir(), 'sandpit-host-'));
  for (const rel of SOURCES) {
    const source = await readFile(join('src', rel), 'utf8');
    const js = ts.transpileModule(source, {
      compilerOptions: { module: ts.ModuleKind.ES2022, target: ts.ScriptTarget.ES2022 },
    }).outputText;
    await mkdir(dirname(join(out, rel)), { recursive: true });
    await writeFile(join(out, rel.replace(/\.ts$/, '.js')), js);
  }
  await writeFile(join(out, 'package.json'), '{"type":"module"}');
  // Starts a program whose child sleeps, prints that child's pid, then ends as `how` says.
  await writeFile(
    join(out, 'host.js'),
    `import { startProcess } from './node/process/spawn.js';
    const p = await startProcess({ argv: ['sh', '-c', 'sleep 60 & echo $!; wait'], cwd: process.cwd(), env: process.env, timeoutMs: null });
    p.onOutput((_, chunk) => {
      process.stdout.write(chunk);
      if (process.argv[2] === 'exit') process.exit(0);
      else process.kill(process.pid, 'SIGTERM');
    });
    setInterval(() => {}, 1000);`,
  );
});
afterAll(() => rm(out, { recursive: true, force: true }));

async function hostThat(how: 'exit' | 'signal'): Promise<{ grandchild: number; signal: string | null }> {
  const host = spawn(process.execPath, [join(out, 'host.js'), how], { stdio: ['ignore', 'pipe', 'inherit'] });
  let text = '';
  host.stdout.on('data', (d: Buffer) => {
    text += d.toString();
  });
  const signal = await new Promise<string | null>((resolve) => host.on('exit', (_code, sig) => resolve(sig)));
  return { grandchild: Number(text.trim()), signal };
}

describe('a host that ends without closing its workspaces', () => {
  it('takes its programs with it when it exits', async () => {
    const { grandchild } = await hostThat('exit');
    expect(grandchild).toBeGreaterThan(0);
    expect(await eventually(async () => !(await alive(grandchild)))).toBe(true);
  });

  it('takes its programs with it on SIGTERM, and still dies of the signal', async () => {
    const { grandchild, signal } = await hostThat('signal');
    expect(signal).toBe('SIGTERM');
    expect(grandchild).toBeGreaterThan(0);
    expect(await eventually(async () => !(await alive(grandchild)))).toBe(true);
  });
});
