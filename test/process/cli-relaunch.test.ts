import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { descendantsOf } from '../../src/node/process/spawn.js';
import { buildCli, cliPath, runCli } from '../cli/built-cli.js';
import { alive, eventually } from './support.js';

let root: string;
const SECRETS = {
  SANDPIT_GIT_TOKEN: 'ghp-cli-secret-1',
  OPENAI_API_KEY: 'sk-cli-secret-2',
  DATABASE_URL: 'postgres://app:cli-secret-3@db/app',
  NPM_CONFIG__AUTH: 'cli-secret-4',
  SLACK_ALERTS: 'https://hooks.slack.com/services/T0/B0/cli-secret-5',
};

beforeAll(async () => {
  await buildCli();
  root = await mkdtemp(join(tmpdir(), 'sandpit-relaunch-'));
});
afterAll(() => rm(root, { recursive: true, force: true }));

const call = (command: string[], sandbox: 'os' | 'none') =>
  runCli(
    ['call', 'run_command', JSON.stringify({ command }), '--root', root, '--sandbox', sandbox, '--snapshots', 'off'],
    {
      env: { ...SECRETS, RELAUNCH_MARK: 'visible' },
    },
  );

describe('the CLI keeps credentials out of the process that runs programs', () => {
  it('without the OS sandbox, /proc/$PPID/environ (the CLI) holds no credential, only the rest', async () => {
    const run = await call(['sh', '-c', 'tr "\\0" "\\n" < /proc/$PPID/environ'], 'none');
    expect(run.code).toBe(0);
    const envelope = JSON.parse(run.stdout) as { ok: boolean; result: { stdout: string } };
    expect(envelope.ok).toBe(true);
    expect(envelope.result.stdout).toContain('RELAUNCH_MARK=visible');
    for (const value of Object.values(SECRETS)) expect(envelope.result.stdout).not.toContain(value);
  });

  it('in the OS sandbox, the workspace is /workspace and no credential is anywhere in /proc', async () => {
    const run = await call(['sh', '-c', 'pwd; cat /proc/*/environ'], 'os');
    const envelope = JSON.parse(run.stdout) as { ok: boolean; result: { stdout: string } };
    expect(envelope.ok).toBe(true);
    expect(envelope.result.stdout.startsWith('/workspace\n')).toBe(true);
    expect(envelope.result.stdout).not.toContain('RELAUNCH_MARK');
    for (const value of Object.values(SECRETS)) expect(envelope.result.stdout).not.toContain(value);
  });

  it('refuses an unknown --sandbox mode, and --sandbox without a real folder', async () => {
    const bad = await runCli(['call', 'exists', '{"path":"a"}', '--root', root, '--sandbox', 'maybe']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--sandbox takes os or none');
    const memory = await runCli(['call', 'exists', '{"path":"a"}', '--sandbox', 'os']);
    expect(memory.code).toBe(2);
  });

  /** An MCP server with credentials (so relaunched) whose parent gets `signal`: its children end too. */
  async function childrenEndWhenParentGets(signal: 'SIGTERM' | 'SIGKILL'): Promise<void> {
    // The client still holds the server's stdin open, as a client that lost only the parent would.
    const parent = spawn(process.execPath, [cliPath, 'mcp', '--root', root], {
      env: { ...process.env, ...SECRETS },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let children: number[] = [];
    expect(await eventually(() => (children = descendantsOf(parent.pid!)).length > 0)).toBe(true);
    const exited = new Promise<string | null>((resolve) => parent.once('exit', (_code, signal) => resolve(signal)));
    parent.kill(signal);
    expect(await exited).toBe(signal);
    for (const pid of children) expect(await eventually(async () => !(await alive(pid)))).toBe(true);
    parent.stdin.destroy();
  }

  it('passes SIGTERM on to the relaunched CLI, so an MCP server with credentials still stops', () =>
    childrenEndWhenParentGets('SIGTERM'));

  it('stops the relaunched CLI when its parent is killed outright, which no signal relay can see', () =>
    childrenEndWhenParentGets('SIGKILL'));
});
