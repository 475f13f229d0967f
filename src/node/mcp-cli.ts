import { resolve } from 'node:path';
import type { SnapshotOptions } from '../snapshots/store.js';
import { UsageError, workspaceSource, type ParsedArgs } from './cli-args.js';
import { cliToolsetName, openCliWorkspace } from './cli-open.js';
import { serveMcpStdio } from './mcp.js';

const SNAPSHOT_MODES = ['call', 'batch', 'manual', 'off'] as const;

/**
 * --snapshots call|batch|manual|off (default call: one snapshot per mutating call). The server
 * commits after answering: a model thinks between calls, and the next call waits for the commit.
 */
function snapshotsOption(value: string | undefined): SnapshotOptions | false {
  if (value !== undefined && !(SNAPSHOT_MODES as readonly string[]).includes(value)) throw new UsageError(`--snapshots takes ${SNAPSHOT_MODES.join(', ')}`);
  return value === 'off' ? false : { when: (value ?? 'call') as 'call' | 'batch' | 'manual', afterReply: true };
}

/** --max-message-bytes N: the largest JSON-RPC message read (default 64 MiB); a bigger one is answered with an error. */
function maxMessageBytes(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < 1024) throw new UsageError('--max-message-bytes takes a whole number of bytes, at least 1024');
  return n;
}

/** `sandpit mcp --root DIR [--toolset NAME] [--tools DIR] [--artifacts DIR] [--snapshots MODE] [--max-message-bytes N]`: an MCP server over stdio. */
export async function mcpCommand(args: ParsedArgs): Promise<void> {
  if (args.positionals.length > 1) throw new UsageError('mcp takes no arguments, only --root DIR and options');
  if (!args.options.has('root')) throw new UsageError('mcp needs --root DIR');
  if (args.flags.has('pretty')) throw new UsageError('mcp speaks JSON-RPC on stdout; --pretty does not apply');
  cliToolsetName(args.options.get('toolset'));
  const source = workspaceSource(args);
  if (source.backend !== 'node') throw new UsageError('mcp serves a real folder: use --root DIR');
  const { ws, set } = await openCliWorkspace({ ...source, root: resolve(source.root) }, {
    toolset: args.options.get('toolset'), artifactDir: args.options.get('artifacts'), snapshots: snapshotsOption(args.options.get('snapshots')),
  });
  await serveMcpStdio(ws, set, { maxMessageBytes: maxMessageBytes(args.options.get('max-message-bytes')) });
}
