import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkspace } from '../../src/index.js';
import { createNodeFs } from '../../src/node/index.js';
import { buildCli, cliPath } from '../cli/built-cli.js';

const git = (gitdir: string, ...args: string[]) =>
  execFileSync('git', [`--git-dir=${gitdir}`, ...args], {
    encoding: 'utf8',
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: tmpdir() },
  });

let root: string;
beforeAll(async () => {
  await buildCli();
});
afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

const version = (n: number) => `version ${n}\n${'filler line\n'.repeat(n % 7)}`;

describe('sandpit mcp killed while snapshots go through spare object files', () => {
  it('leaves whole files and a shadow repository git fsck accepts, round after round', async () => {
    root = mkdtempSync(join(tmpdir(), 'sandpit-spares-kill-'));
    writeFileSync(join(root, 'f.txt'), version(0));
    const gitdir = join(root, '.sandpit', 'git');
    let n = 0;
    for (let round = 0; round < 8; round++) {
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [cliPath, 'mcp', '--root', root],
        stderr: 'ignore',
      });
      const client = new Client({ name: 'kill-test', version: '1.0.0' });
      await client.connect(transport);
      await client.callTool({ name: 'read_file', arguments: { path: 'f.txt' } });
      const killAt = 10 + ((round * 7) % 13);
      const inFlight: Array<Promise<unknown>> = [];
      for (let i = 0; i < killAt; i++) {
        const call = client.callTool({ name: 'write_file', arguments: { path: 'f.txt', content: version(n + 1) } });
        inFlight.push(call.catch(() => undefined));
        if (i < killAt - 1) {
          const r = await call;
          expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
          n++;
          // idle time: the server makes spares now, and the next writes use them
          await new Promise((r) => setTimeout(r, i % 3 === 0 ? 15 : 1));
        }
      }
      // the last write is in flight when the server dies
      process.kill(transport.pid!, 'SIGKILL');
      await Promise.all(inFlight);
      await client.close().catch(() => {});
      const text = readFileSync(join(root, 'f.txt'), 'utf8');
      expect([version(n), version(n + 1)]).toContain(text);
      if (text === version(n + 1)) n++;
      expect(git(gitdir, 'fsck', '--strict', '--no-dangling', '--no-progress')).toBe('');
      const garbage = git(gitdir, 'count-objects', '-v').match(/garbage: (\d+)/)![1];
      expect(garbage).toBe('0');
    }
    // a workspace opened on what the kills left behind snapshots the last version and carries on
    const ws = createWorkspace({ fs: createNodeFs(), root });
    const listed = await ws.call('list_snapshots', { limit: 1 });
    expect(listed.ok).toBe(true);
    expect(git(gitdir, 'show', 'HEAD:f.txt')).toBe(version(n));
    expect((await ws.call('write_file', { path: 'f.txt', content: 'after\n' })).ok).toBe(true);
    await ws.close();
    expect(git(gitdir, 'fsck', '--strict', '--no-dangling', '--no-progress')).toBe('');
    // spares a killed server left (so spares were in use) are git temporaries at the top of objects/, nowhere else
    const objects = join(gitdir, 'objects');
    expect(readdirSync(objects).some((name) => name.startsWith('tmp_obj_sandpit_'))).toBe(true);
    for (const d of readdirSync(objects).filter((name) => name.length === 2)) {
      expect(readdirSync(join(objects, d)).filter((f) => !/^[0-9a-f]{38}$/.test(f))).toEqual([]);
    }
  });
});
