import { fileURLToPath } from 'node:url';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ListRootsResultSchema, RootsListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { ToolError } from '../../contract/index.js';
import { buildMcpServer } from './build.js';
import type { RequestSender } from './call.js';
import type { McpServerHandle, McpServerOptions, ServedWorkspace } from './types.js';

/** Opens the workspace over a host folder a client's root names; a folder it cannot serve is a ToolError. */
export type FolderOpener = (folder: string) => Promise<ServedWorkspace>;

/**
 * One workspace per folder, shared by every session whose client names that folder as its first
 * root (so calls on one path are serialised across sessions, as with `--root`).
 */
export class WorkspacePool {
  private readonly opened = new Map<string, Promise<ServedWorkspace>>();

  constructor(private readonly open: FolderOpener) {}

  /** The workspace over `folder`, opened on first use and shared after. */
  get(folder: string): Promise<ServedWorkspace> {
    let served = this.opened.get(folder);
    if (!served) {
      served = this.open(folder);
      this.opened.set(folder, served);
      // A folder that failed to open may be fixed and named again.
      served.catch(() => {
        this.opened.delete(folder);
      });
    }
    return served;
  }

  /** Close every workspace opened (their background tasks end). */
  async closeAll(): Promise<void> {
    const all = [...this.opened.values()];
    this.opened.clear();
    for (const served of all) await served.then(({ ws }) => ws.close()).catch(() => {});
  }
}

const NO_ROOT_HINT = 'Start sandpit mcp with --root DIR, or add a folder as a root in the MCP client.';

/**
 * A server started without `--root`: on its first request that needs the workspace it asks the
 * client `roots/list` (on that request's stream, which over HTTP is sure to be open), serves the
 * first `file://` root, and asks again after `notifications/roots/list_changed` (later calls go
 * to the new folder). A client without roots, or with no `file://` root, gets one clear error on
 * every call. The folder's host path never reaches a result or an error.
 */
export function createRootsMcpServer(pool: WorkspacePool, options: McpServerOptions = {}): McpServerHandle {
  let server!: Server;
  let current: Promise<ServedWorkspace> | null = null;
  return buildMcpServer(
    (request) => {
      if (!current) {
        current = firstRoot(server, pool, request);
        // A failure is answered to every call until the client's roots change.
        current.catch(() => {});
      }
      return current;
    },
    options,
    (built) => {
      server = built;
      server.setNotificationHandler(RootsListChangedNotificationSchema, async () => {
        current = null;
      });
    },
  );
}

async function firstRoot(server: Server, pool: WorkspacePool, request: RequestSender): Promise<ServedWorkspace> {
  if (!server.getClientCapabilities()?.roots) {
    throw new ToolError(
      'NOT_FOUND',
      'this server was started without --root and the client offers no roots, so there is no workspace',
      { hint: NO_ROOT_HINT },
    );
  }
  let roots: Array<{ uri: string }>;
  try {
    roots = (await request.sendRequest({ method: 'roots/list' }, ListRootsResultSchema, { timeout: 30_000 })).roots;
  } catch {
    throw new ToolError('NOT_FOUND', 'the client did not answer roots/list, so there is no workspace', {
      hint: NO_ROOT_HINT,
    });
  }
  const root = roots.find((r) => r.uri.startsWith('file://'));
  if (!root)
    throw new ToolError(
      'NOT_FOUND',
      `the client's roots hold no file:// folder (${roots.length} root(s) given), so there is no workspace`,
      { hint: NO_ROOT_HINT },
    );
  let folder: string;
  try {
    folder = fileURLToPath(root.uri);
  } catch {
    throw new ToolError('NOT_FOUND', "the client's first file:// root is not a local folder", { hint: NO_ROOT_HINT });
  }
  return pool.get(folder);
}
