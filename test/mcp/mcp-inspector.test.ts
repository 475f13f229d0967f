import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openNodeWorkspace, serveMcpHttp, type McpHttpServer } from '../../src/node/index.js';
import { buildCli, cliPath } from '../cli/built-cli.js';

// A third-party client: the MCP Inspector's CLI mode (it declares Node 22, and runs on 20 in this mode).
const inspector = fileURLToPath(new URL('../../node_modules/.bin/mcp-inspector', import.meta.url));
const dirs: string[] = [];
let http: McpHttpServer;
let httpDir: string;
let closeWs: () => Promise<void>;

function folder(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'sandpit-inspector-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'a.txt'), text);
  return dir;
}

/** Run the inspector CLI; its catalog goes to a temp file, never the user's home. */
function inspect(args: string[]): Promise<Record<string, any>> {
  const catalog = join(dirs[0]!, 'catalog.json');
  return new Promise((resolve, reject) => {
    execFile(
      inspector,
      ['--cli', ...args],
      { env: { ...process.env, MCP_CATALOG_PATH: catalog }, timeout: 60_000 },
      (error, stdout, stderr) => {
        if (error) return reject(new Error(`inspector failed: ${stderr.slice(0, 500)} ${stdout.slice(0, 500)}`));
        resolve(JSON.parse(stdout));
      },
    );
  });
}

beforeAll(async () => {
  await buildCli();
  httpDir = folder('over http\n');
  const ws = openNodeWorkspace(httpDir, { snapshots: false });
  http = await serveMcpHttp(ws, ws.toolset, { port: 0 });
  closeWs = async () => {
    await http.close();
    await ws.close();
  };
});
afterAll(async () => {
  await closeWs?.();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('@modelcontextprotocol/inspector --cli', () => {
  it('lists and calls the tools over stdio', async () => {
    const dir = folder('over stdio\n');
    const listed = await inspect(['--method', 'tools/list', '--', process.execPath, cliPath, 'mcp', '--root', dir]);
    expect(listed.tools.map((t: { name: string }) => t.name)).toEqual(
      expect.arrayContaining(['read_file', 'edit_file', 'apply_patch']),
    );
    const edited = await inspect([
      '--method',
      'tools/call',
      '--tool-name',
      'edit_file',
      '--tool-arg',
      'path=a.txt',
      'old_text=stdio',
      'new_text=the inspector',
      '--',
      process.execPath,
      cliPath,
      'mcp',
      '--root',
      dir,
      '--snapshots',
      'off',
    ]);
    expect(edited.structuredContent).toMatchObject({ path: 'a.txt', replacements: 1 });
    expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('over the inspector\n');
  });

  it('lists and calls the tools over Streamable HTTP', async () => {
    const listed = await inspect(['--method', 'tools/list', '--transport', 'http', '--server-url', http.url]);
    expect(listed.tools.map((t: { name: string }) => t.name)).toContain('read_file');
    const read = await inspect([
      '--method',
      'tools/call',
      '--transport',
      'http',
      '--server-url',
      http.url,
      '--tool-name',
      'read_file',
      '--tool-arg',
      'path=a.txt',
    ]);
    expect(read.structuredContent).toMatchObject({ content: 'over http\n' });
  });
});
