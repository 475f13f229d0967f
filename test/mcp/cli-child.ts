import { randomBytes } from 'node:crypto';
import { spawn, type ChildProcessByStdio, type ChildProcessWithoutNullStreams } from 'node:child_process';
import type { Readable } from 'node:stream';
import { Client, type ClientOptions } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { cliPath } from '../cli/built-cli.js';
import { sharedSchemaValidator } from './shared-validator.js';

/** Where `sandpit mcp` runs for a test: a fresh stdio child per client, or one HTTP child many clients share. */
export interface McpChild {
  /** A client of this server, connected (stdio: a child of its own, started with `args`). */
  connect(options?: ClientOptions, setup?: (client: Client) => void): Promise<Client>;
  /** Close every client and stop the children. */
  close(): Promise<void>;
}

/** `sandpit mcp ARGS` over stdio: each client gets its own child, as a real client starts one. */
export function stdioChild(args: string[]): McpChild {
  const clients: Client[] = [];
  return {
    async connect(options = {}, setup) {
      const client = new Client(
        { name: 'stdio-child-test', version: '1.0.0' },
        { jsonSchemaValidator: sharedSchemaValidator, ...options },
      );
      setup?.(client);
      await client.connect(
        new StdioClientTransport({ command: process.execPath, args: [cliPath, 'mcp', ...args], stderr: 'pipe' }),
      );
      clients.push(client);
      return client;
    },
    async close() {
      for (const c of clients) await c.close().catch(() => {});
    },
  };
}

/** Where a `sandpit mcp --http` child says it listens; rejects with its stderr when it exits first. */
export function listeningUrl(
  child: ChildProcessWithoutNullStreams | ChildProcessByStdio<null, null, Readable>,
): Promise<string> {
  let stderr = '';
  return new Promise<string>((resolve, reject) => {
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      const m = /MCP over HTTP at (\S+)/.exec(stderr);
      if (m) resolve(m[1]!);
    });
    child.once('exit', () => reject(new Error(`sandpit mcp --http exited early: ${stderr}`)));
  });
}

/**
 * `sandpit mcp --http 127.0.0.1:0 ARGS` as one child, with a fresh bearer token its clients send;
 * resolves once it says where it listens.
 */
export async function httpChild(args: string[]): Promise<McpChild & { url: string; token: string }> {
  const token = randomBytes(24).toString('hex');
  const child = spawn(
    process.execPath,
    [cliPath, 'mcp', '--http', '127.0.0.1:0', '--auth-token-env', 'SANDPIT_TEST_MCP_TOKEN', ...args],
    { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, SANDPIT_TEST_MCP_TOKEN: token } },
  );
  const url = await listeningUrl(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const clients: Client[] = [];
  return {
    url,
    token,
    async connect(options = {}, setup) {
      const client = new Client(
        { name: 'http-child-test', version: '1.0.0' },
        { jsonSchemaValidator: sharedSchemaValidator, ...options },
      );
      setup?.(client);
      await client.connect(
        new StreamableHTTPClientTransport(new URL(url), {
          requestInit: { headers: { Authorization: `Bearer ${token}` } },
        }),
      );
      clients.push(client);
      return client;
    },
    async close() {
      for (const c of clients) await c.close().catch(() => {});
      child.kill('SIGTERM');
      await exited;
    },
  };
}
