import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { broadRootKind } from '../../src/node/cli/broad-root.js';
import { buildCli, cliPath } from '../cli/built-cli.js';

// A client starts its servers in its own working folder, often `/`, with a small environment.
let home: string;
const clientEnv = () => ({ PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home });

beforeAll(async () => {
  await buildCli();
  home = realpathSync(mkdtempSync(join(tmpdir(), 'sandpit-home-')));
  mkdirSync(join(home, 'project'));
  writeFileSync(join(home, 'project', 'a.txt'), 'inside\n');
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

/** `sandpit mcp ARGS` started as a client starts it; sends initialize and waits for the exit or the answer. */
function startAsClient(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [cliPath, 'mcp', ...args], { cwd: '/', env: clientEnv() });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
      // An answer means the server took the folder: stop it, the test reads what it said.
      if (stdout.includes('\n')) child.kill();
    });
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => done({ code, stdout, stderr }));
    child.stdin.on('error', () => {});
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } })}\n`,
    );
  });
}

describe('a root that is the whole machine, the home folder or a system folder', () => {
  it('is refused when a client starts `mcp --root .` in /, before initialize is answered, with how to fix it', async () => {
    const r = await startAsClient(['--root', '.']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain("--root names the file system's root");
    expect(r.stderr).toContain('--root /absolute/path/to/project');
    expect(r.stderr).toContain('--allow-broad-root');
  });

  it.each([
    ['the home folder', () => home],
    ['a folder above the home folder', () => join(home, '..')],
    ['a system folder', () => '/etc'],
    ['a system folder', () => '/usr/lib'],
    ['a system folder', () => '/var'],
  ])('refuses %s', async (kind, root) => {
    const r = await startAsClient(['--root', root()]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`--root names ${kind}`);
  });

  it('serves the home folder when told --allow-broad-root, and a project inside it without the flag', async () => {
    for (const args of [
      ['--root', home, '--allow-broad-root', '--snapshots', 'off'],
      ['--root', join(home, 'project'), '--snapshots', 'off'],
    ]) {
      const client = new Client({ name: 'broad-root-test', version: '1.0.0' });
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [cliPath, 'mcp', ...args],
          cwd: '/',
          env: clientEnv(),
        }),
      );
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('read_file');
      const read = (await client.callTool({ name: 'exists', arguments: { path: 'a.txt' } })) as any;
      expect(read.isError).toBeFalsy();
      await client.close();
    }
  });

  it("refuses a client's root of / with PERMISSION_DENIED naming no host path", async () => {
    const client = new Client({ name: 'roots-test', version: '1.0.0' }, { capabilities: { roots: {} } });
    client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: pathToFileURL('/').href }] }));
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [cliPath, 'mcp'], cwd: '/', env: clientEnv() }),
    );
    const r = (await client.callTool({ name: 'read_file', arguments: { path: 'etc/hostname' } })) as any;
    expect(r.isError).toBe(true);
    expect(r.structuredContent).toMatchObject({ code: 'PERMISSION_DENIED' });
    expect(r.structuredContent.message).toContain("the client's first root is the file system's root");
    expect(r.structuredContent.hint).toContain('--root /absolute/path/to/project');
    expect(JSON.stringify(r)).not.toContain(home);
    await client.close();
  });

  it('refuses `call --root /` and `agent --root ~` the same way', async () => {
    const run = (args: string[]) =>
      new Promise<{ code: number | null; stderr: string }>((done) => {
        const child = spawn(process.execPath, [cliPath, ...args], {
          cwd: '/',
          env: clientEnv(),
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let stderr = '';
        child.stderr.on('data', (d) => (stderr += d));
        child.on('close', (code) => done({ code, stderr }));
      });
    const call = await run(['call', 'list_directory', '{}', '--root', '/']);
    expect(call.code).toBe(2);
    expect(call.stderr).toContain("--root names the file system's root");
    const agent = await run(['agent', '--root', home, '--endpoint', 'http://127.0.0.1:9/v1', '--model', 'm', 'task']);
    expect(agent.code).toBe(2);
    expect(agent.stderr).toContain('--root names the home folder');
  });
});

describe('broadRootKind', () => {
  it('tells the machine and the home folder from projects', () => {
    expect(broadRootKind('/', '/home/u')).toBe("the file system's root");
    expect(broadRootKind('/home/u', '/home/u')).toBe('the home folder');
    expect(broadRootKind('/home', '/home/u')).toBe('a folder above the home folder');
    expect(broadRootKind('/etc/nginx', '/home/u')).toBe('a system folder');
    expect(broadRootKind('/var', '/home/u')).toBe('a system folder');
    expect(broadRootKind('/tmp', '/home/u')).toBe('a system folder');
    expect(broadRootKind('/home/u/app', '/home/u')).toBeNull();
    expect(broadRootKind('/var/www/site', '/home/u')).toBeNull();
    expect(broadRootKind('/srv/app', '/home/u')).toBeNull();
    expect(broadRootKind(home, '/home/u')).toBeNull();
  });
});
