import { resolve } from 'node:path';
import type { SnapshotOptions } from '../../snapshots/store.js';
import { UsageError, workspaceSource, type ParsedArgs } from '../cli/args.js';
import { cliToolsetName, openCliWorkspace } from '../cli/open.js';
import { ALLOW_BROAD_ROOT, BroadRootError, refuseBroadRoot } from '../cli/broad-root.js';
import { packageVersion, type EarlyStart } from './fast-start.js';
import { serveFixedStdio } from './stdio-fixed.js';
import type { ServedWorkspace } from './types.js';
import { ToolError } from '../../contract/index.js';
import { McpLogHub } from './log.js';
import { cliSecret } from '../process/sandbox-relaunch.js';
import { httpAuth, httpLimits, httpOption } from './cli-http.js';
import type { EarlyHttp } from './http-early.js';

export { httpOption };
import type { GitAuth } from '../../git/index.js';
import type { NodeWorkspace } from '../open.js';
import type { ProcessTaskRegistry } from '../process/tasks.js';
import type { Workspace } from '../../workspace-core.js';
import { toToolError } from '../../fs/tool-error.js';
import { toolsetInstructions } from '../../toolsets/instructions.js';

const SNAPSHOT_MODES = ['call', 'batch', 'manual', 'off'] as const;

/**
 * What manifest tools are told the model takes. A server cannot know its client's model, and the
 * client decides what it forwards, so images and audio go out as MCP blocks rather than being
 * dropped here; PDF and video have no MCP block and stay as the manifest layer's default.
 */
const MCP_CAPS = { vision: true, audio: true } as const;

/**
 * --snapshots call|batch|manual|off (default call: one snapshot per mutating call). The server
 * commits after answering: a model thinks between calls, and the next call waits for the commit.
 */
function snapshotsOption(value: string | undefined, log: McpLogHub): SnapshotOptions | false {
  if (value !== undefined && !(SNAPSHOT_MODES as readonly string[]).includes(value))
    throw new UsageError(`--snapshots takes ${SNAPSHOT_MODES.join(', ')}`);
  if (value === 'off') return false;
  const onError = (error: unknown) =>
    log.emit({
      level: 'error',
      logger: 'snapshots',
      data: `a snapshot failed (the change itself is made, and the next snapshot includes it): ${toToolError(error).message}`,
    });
  return { when: (value ?? 'call') as 'call' | 'batch' | 'manual', afterReply: true, onError };
}

/** Tell every session what a person at a terminal would have been shown: broken manifests, task exits. */
function logWorkspaceEvents(log: McpLogHub, ws: Workspace, tasks: ProcessTaskRegistry | null): void {
  const manifests = (ws as Partial<NodeWorkspace>).manifests;
  if (manifests?.folderProblem)
    log.atStart({
      level: 'warning',
      logger: 'manifests',
      data: `no manifest tools loaded: ${manifests.folderProblem}`,
    });
  for (const report of manifests?.reports ?? []) {
    if (report.status === 'skipped' && !report.otherPlatform)
      log.atStart({
        level: 'warning',
        logger: 'manifests',
        data: `the tool ${report.name} was not loaded: ${report.problems.join('; ')}`,
      });
  }
  tasks?.onEvent((event) => {
    if (event.type !== 'task_exit') return;
    log.emit({
      level: event.status === 'exited' && event.exit_code === 0 ? 'info' : 'warning',
      logger: 'tasks',
      data: { task_id: event.task_id, status: event.status, exit_code: event.exit_code },
    });
  });
}

/** --git: the git tools, with the token `sandpit clone` and `push` read too (SANDPIT_GIT_TOKEN), kept from the model. */
function gitToolsOption(): { auth?: GitAuth } {
  const token = cliSecret('SANDPIT_GIT_TOKEN');
  return token ? { auth: () => ({ token }) } : {};
}

/** --max-message-bytes N: the largest JSON-RPC message read (default 64 MiB); a bigger one is answered with an error. */
function maxMessageBytes(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < 1024)
    throw new UsageError('--max-message-bytes takes a whole number of bytes, at least 1024');
  return n;
}

/**
 * `sandpit mcp [--root DIR] [--toolset NAME] [--tools DIR] [--artifacts DIR] [--snapshots MODE] [--http [HOST:]PORT]`:
 * an MCP server over stdio or HTTP. Without --root it serves the client's first file:// root.
 */
export async function mcpCommand(args: ParsedArgs, early?: EarlyStart, earlyHttp?: EarlyHttp): Promise<void> {
  if (args.positionals.length > 1) throw new UsageError('mcp takes no arguments, only --root DIR and options');
  if (args.flags.has('pretty')) throw new UsageError('mcp speaks JSON-RPC on stdout; --pretty does not apply');
  cliToolsetName(args.options.get('toolset'));
  const http = args.options.has('http') ? httpOption(args.options.get('http')!) : null;
  const auth = httpAuth(args);
  const limits = httpLimits(args);
  const fixedRoot = args.options.has('root');
  // Without --root the folder comes from the client; the rest of the options are checked as if one were given.
  const source = workspaceSource(fixedRoot ? args : { ...args, options: new Map([...args.options, ['root', '.']]) });
  if (source.backend !== 'node')
    throw new UsageError('mcp serves a real folder: use --root DIR, or let the client name its root');
  // Before anything answers the client: a server on the whole machine must not look ready.
  if (fixedRoot) refuseBroadRoot(resolve(source.root), '--root', source.allowBroadRoot === true);
  const approve = args.options.get('approve');
  if (approve !== undefined && approve !== 'all')
    throw new UsageError('--approve takes only all (allow every confirmation without asking)');
  const log = new McpLogHub();
  const git = args.flags.has('git') ? gitToolsOption() : undefined;
  // stdin carries JSON-RPC, so no terminal can be asked: the client's person is asked by elicitation, unless --approve all.
  const open = async (root: string): Promise<ServedWorkspace> => {
    const { ws, set, tasks } = await openCliWorkspace(
      { ...source, root },
      {
        toolset: args.options.get('toolset'),
        artifactDir: args.options.get('artifacts'),
        snapshots: snapshotsOption(args.options.get('snapshots'), log),
        caps: MCP_CAPS,
        ...(approve === 'all' ? { confirm: () => true } : {}),
        ...(git ? { gitTools: git } : {}),
      },
    );
    logWorkspaceEvents(log, ws, tasks);
    return { ws, set };
  };
  // The SDK and the roots-following server load only when there is no --root (see stdio-fixed.ts).
  const rootsServer = async () => {
    const { createRootsMcpServer, WorkspacePool } = await import('./roots.js');
    const pool = new WorkspacePool(async (folder) =>
      open(folder).catch((error) => {
        if (error instanceof BroadRootError)
          throw new ToolError(
            'PERMISSION_DENIED',
            `the client's first root is ${error.kind}, which this server does not serve`,
            {
              hint: `Add a project folder as the client's root, or start sandpit mcp with --root /absolute/path/to/project (--${ALLOW_BROAD_ROOT} serves such a folder anyway).`,
            },
          );
        throw new ToolError('NOT_FOUND', "the client's first root is not a folder this server can open", {
          hint: 'Check the root the client names exists and is readable.',
        });
      }),
    );
    return { pool, createRootsMcpServer };
  };
  const fixed = fixedRoot ? await open(resolve(source.root)) : null;
  // The roots-following server has no toolset until a client names its root, so it is told the guidance.
  const options = {
    version: packageVersion(),
    log,
    instructions: toolsetInstructions(cliToolsetName(args.options.get('toolset'))),
  };
  const framing = { maxMessageBytes: maxMessageBytes(args.options.get('max-message-bytes')) };
  if (!http) {
    if (fixed) return serveFixedStdio(fixed, { log, ...framing }, early);
    const { pool, createRootsMcpServer } = await rootsServer();
    await (await import('./server.js')).serveStdio(createRootsMcpServer(pool, options), early, framing);
    return pool.closeAll();
  }
  const httpOptions = { ...http, ...auth, ...limits, ...options };
  const { serveMcpHttp, serveMcpHttpRoots } = await import('./http.js');
  const roots = fixed ? null : await rootsServer();
  const server = fixed
    ? await serveMcpHttp(fixed.ws, fixed.set, httpOptions, earlyHttp)
    : await serveMcpHttpRoots(roots!.pool, httpOptions, earlyHttp);
  if (!earlyHttp && auth.authToken === undefined)
    process.stderr.write(
      'sandpit: --no-auth: anyone who can reach this port can use every tool, run_command included\n',
    );
  if (!earlyHttp) process.stderr.write(`sandpit: MCP over HTTP at ${server.url}\n`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await server.close();
  await fixed?.ws.close();
  await roots?.pool.closeAll();
}
