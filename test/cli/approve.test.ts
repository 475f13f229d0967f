import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { folderWith } from '../agent/fixture-folder.js';
import { buildCli, cliPath } from './built-cli.js';

const folders: string[] = [];
beforeAll(() => buildCli());
afterAll(async () => {
  for (const f of folders) await rm(f, { recursive: true, force: true });
});

// Runs argv on a pseudo-terminal (python3's pty module: no native dependency), answers the
// first [y/N] prompt with ANSWER, and prints everything the terminal showed.
const PTY = `
import os, pty, sys
answer, argv = sys.argv[1], sys.argv[2:]
pid, fd = pty.fork()
if pid == 0:
    os.execvp(argv[0], argv)
seen, sent = b'', False
while True:
    try:
        chunk = os.read(fd, 4096)
    except OSError:
        break
    if not chunk:
        break
    seen += chunk
    if not sent and b'[y/N]' in seen:
        os.write(fd, answer.encode() + b'\\r')
        sent = True
_, status = os.waitpid(pid, 0)
sys.stdout.write(seen.decode('utf8', 'replace'))
sys.exit(os.waitstatus_to_exitcode(status))
`;

async function project(): Promise<string> {
  const root = await folderWith({ 'a.txt': 'a\n' });
  folders.push(root);
  return root;
}

const deleteArgs = (root: string, extra: string[] = []) => [
  cliPath,
  'call',
  'delete_path',
  '{"path":"a.txt"}',
  '--root',
  root,
  '--toolset',
  'cowork',
  ...extra,
];

// The interpreter the terminal tests drive (another one can be named to try them, or their skip).
const PYTHON = process.env.SANDPIT_TEST_PYTHON ?? 'python3';

/** Why the terminal tests cannot run here (no python3, or one without pty and waitstatus_to_exitcode), or null. */
function whyNoTerminal(): string | null {
  const probe = spawnSync(PYTHON, ['-c', 'import os, pty; os.waitstatus_to_exitcode'], {
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (probe.error)
    return `${PYTHON} is not installed (${(probe.error as NodeJS.ErrnoException).code ?? probe.error.message}); the pseudo-terminal tests need python3 3.9 or later`;
  if (probe.status !== 0)
    return `${PYTHON} has no pty module or os.waitstatus_to_exitcode; the pseudo-terminal tests need python3 3.9 or later`;
  return null;
}
const noTerminal = whyNoTerminal();

function onTerminal(answer: string, args: string[]) {
  const run = spawnSync(PYTHON, ['-c', PTY, answer, process.execPath, ...args], { encoding: 'utf8', timeout: 300_000 });
  return { code: run.status, output: run.stdout };
}

describe('the CLI asks before a confirmation', () => {
  it('on a terminal: y approves, and the prompt names the tool and the paths', async (ctx) => {
    ctx.skip(noTerminal !== null, noTerminal ?? '');
    const root = await project();
    const run = onTerminal('y', deleteArgs(root));
    expect(run.output).toContain('Allow delete_path to delete:');
    expect(run.output).toContain('  a.txt');
    expect(run.output).toMatch(/"ok":true,"tool":"delete_path"/);
    expect(existsSync(join(root, 'a.txt'))).toBe(false);
  });

  it('on a terminal: anything but y refuses, and nothing changes', async (ctx) => {
    ctx.skip(noTerminal !== null, noTerminal ?? '');
    const root = await project();
    const run = onTerminal('n', deleteArgs(root));
    expect(run.output).toContain('[y/N]');
    expect(run.output).toMatch(/"code":"CONFIRMATION_DENIED"/);
    expect(existsSync(join(root, 'a.txt'))).toBe(true);
  });

  it('not on a terminal: refused with a hint naming --approve all; with --approve all, allowed', async () => {
    const root = await project();
    const piped = spawnSync(process.execPath, deleteArgs(root), { encoding: 'utf8', input: 'y\n' });
    const envelope = JSON.parse(piped.stdout);
    expect(envelope).toMatchObject({ ok: false, error: { code: 'CONFIRMATION_DENIED' } });
    expect(envelope.error.hint).toContain('--approve all');
    expect(piped.stderr).not.toContain('[y/N]');
    expect(existsSync(join(root, 'a.txt'))).toBe(true);
    const approved = spawnSync(process.execPath, deleteArgs(root, ['--approve', 'all']), {
      encoding: 'utf8',
      input: '',
    });
    expect(JSON.parse(approved.stdout)).toMatchObject({ ok: true, tool: 'delete_path' });
    expect(existsSync(join(root, 'a.txt'))).toBe(false);
    const wrong = spawnSync(process.execPath, deleteArgs(root, ['--approve', 'some']), { encoding: 'utf8' });
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toContain('--approve takes only all');
  });
});
