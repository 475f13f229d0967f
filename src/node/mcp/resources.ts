import {
  McpError,
  ErrorCode as RpcCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type Resource,
} from '@modelcontextprotocol/sdk/types.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ToolError } from '../../contract/index.js';
import { toToolError } from '../../fs/tool-error.js';
import { walk } from '../../search/walk.js';
import { decodeText, isDecodeFailure, looksBinary } from '../../text/codec.js';
import type { Workspace } from '../../workspace-core.js';
import type { RequestSender } from './call.js';
import { displayPath, PathResolver } from '../../workspace/paths.js';

/** Workspace files are resources under this prefix, never as host `file://` paths. */
export const RESOURCE_PREFIX = 'sandpit://workspace/';
/** Resources per resources/list page. */
export const RESOURCE_PAGE = 200;

const MIME: Record<string, string> = {
  txt: 'text/plain',
  md: 'text/markdown',
  json: 'application/json',
  js: 'text/javascript',
  mjs: 'text/javascript',
  cjs: 'text/javascript',
  ts: 'text/x-typescript',
  tsx: 'text/x-typescript',
  jsx: 'text/javascript',
  html: 'text/html',
  css: 'text/css',
  csv: 'text/csv',
  xml: 'application/xml',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  py: 'text/x-python',
  sh: 'text/x-shellscript',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  pdf: 'application/pdf',
  wav: 'audio/wav',
  mp3: 'audio/mpeg',
  zip: 'application/zip',
};

export const resourceUri = (rel: string): string => RESOURCE_PREFIX + rel.split('/').map(encodeURIComponent).join('/');

function mimeOf(rel: string): string | undefined {
  const dot = rel.lastIndexOf('.');
  return dot > rel.lastIndexOf('/') ? MIME[rel.slice(dot + 1).toLowerCase()] : undefined;
}

function relOf(uri: string): string {
  if (!uri.startsWith(RESOURCE_PREFIX))
    throw new McpError(RpcCode.InvalidParams, `resources of this server start with ${RESOURCE_PREFIX}`);
  try {
    return uri.slice(RESOURCE_PREFIX.length).split('/').map(decodeURIComponent).join('/');
  } catch {
    throw new McpError(RpcCode.InvalidParams, 'the resource URI is not well encoded');
  }
}

/**
 * The one URI a file is announced under, however the client spelled it: percent-escapes decoded
 * (`notes%2Etxt`), `.` and empty segments dropped, as the path resolves in the workspace (so a
 * change event's path, made into a URI, meets it).
 */
async function canonicalUri(ws: Workspace, uri: string): Promise<string> {
  const rel = relOf(uri);
  try {
    return resourceUri((await new PathResolver(ws.fs, ws.root).resolve(rel, '', 'read')).rel);
  } catch (error) {
    throw asRpcError(error);
  }
}

/** A tool failure as the protocol error a resource request answers with (its code kept in `data`). */
function asRpcError(error: unknown): McpError {
  if (error instanceof McpError) return error;
  const body = toToolError(error).toJSON();
  return new McpError(body.code === 'NOT_FOUND' ? -32002 : RpcCode.InvalidParams, body.message, body);
}

/**
 * Serve the workspace's files as resources: listed in walk order (hidden, ignored and build
 * folders left out) a page at a time, read through the same confined resolution as the tools
 * (links checked on every component, `.sandpit` refused, hard-linked files refused), text with
 * its mimeType and anything else as a blob; a subscribed file changed by a tool or a rescan is
 * announced with `notifications/resources/updated`.
 */
export function serveResources(server: Server, current: (request: RequestSender) => Promise<Workspace>): () => void {
  // by the file's canonical URI, the spellings the client subscribed under (each announced as it was given)
  const subscribed = new Map<string, Set<string>>();
  const watched = new WeakSet<Workspace>();
  const detach: Array<() => void> = [];
  const watch = (ws: Workspace) => {
    if (watched.has(ws)) return;
    watched.add(ws);
    const announce = (paths: string[]) => {
      for (const rel of paths) {
        for (const uri of subscribed.get(resourceUri(rel)) ?? [])
          void server.sendResourceUpdated({ uri }).catch(() => {});
      }
    };
    detach.push(ws.changes.onChange((event) => announce(event.paths)));
    if (ws.snapshots) detach.push(ws.snapshots.onRescan(announce));
  };
  const workspace = async (extra: RequestSender) => {
    const ws = await current(extra);
    watch(ws);
    return ws;
  };

  server.setRequestHandler(ListResourcesRequestSchema, async (request, extra) => {
    const ws = await workspace(extra);
    const paths = new PathResolver(ws.fs, ws.root);
    const after = request.params?.cursor;
    const resources: Resource[] = [];
    let more = false;
    for await (const entry of walk(
      ws.fs,
      paths,
      { rel: '', realRel: '' },
      { gitignore: true, links: 'follow', ...(after ? { resumeAt: after } : {}) },
    )) {
      if (entry.type !== 'file' || entry.rel === after) continue;
      if (resources.length === RESOURCE_PAGE) {
        more = true;
        break;
      }
      const mimeType = mimeOf(entry.rel);
      resources.push({ uri: resourceUri(entry.rel), name: displayPath(entry.rel), ...(mimeType ? { mimeType } : {}) });
    }
    return { resources, ...(more ? { nextCursor: resources[resources.length - 1]!.name } : {}) };
  });

  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: [
      {
        uriTemplate: `${RESOURCE_PREFIX}{+path}`,
        name: 'workspace file',
        description: 'Any file of the workspace by its root-relative path.',
      },
    ],
  }));

  server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
    const ws = await workspace(extra);
    const uri = request.params.uri;
    try {
      const rel = relOf(uri);
      const path = await new PathResolver(ws.fs, ws.root).resolve(rel, '', 'read');
      const shown = displayPath(path.rel);
      if (!path.stat) throw new ToolError('NOT_FOUND', `'${shown}' does not exist`);
      if (path.stat.type !== 'file') throw new ToolError('NOT_A_FILE', `'${shown}' is not a file`);
      if ((path.stat.nlink ?? 1) > 1 && !ws.policy.allowHardLinks)
        throw new ToolError('OUTSIDE_WORKSPACE', `'${shown}' has more than one hard link, so it is not read`);
      if (path.stat.size > ws.policy.limits.maxReadBytes)
        throw new ToolError('TOO_LARGE', `'${shown}' is over the read limit`);
      const bytes = await ws.fs.readFile(path.abs);
      const mimeType = mimeOf(path.rel);
      const decoded = looksBinary(bytes) ? null : decodeText(bytes);
      if (
        decoded &&
        !isDecodeFailure(decoded) &&
        !(mimeType && /^(image|audio|video)\/|^application\/(pdf|zip)/.test(mimeType) && mimeType !== 'image/svg+xml')
      ) {
        return { contents: [{ uri, mimeType: mimeType ?? 'text/plain', text: decoded.text }] };
      }
      return {
        contents: [
          { uri, mimeType: mimeType ?? 'application/octet-stream', blob: Buffer.from(bytes).toString('base64') },
        ],
      };
    } catch (error) {
      throw asRpcError(error);
    }
  });

  server.setRequestHandler(SubscribeRequestSchema, async (request, extra) => {
    const uri = request.params.uri;
    const canonical = await canonicalUri(await workspace(extra), uri);
    const spellings = subscribed.get(canonical) ?? new Set<string>();
    subscribed.set(canonical, spellings.add(uri));
    return {};
  });
  server.setRequestHandler(UnsubscribeRequestSchema, async (request, extra) => {
    subscribed.delete(await canonicalUri(await workspace(extra), request.params.uri));
    return {};
  });
  return () => {
    for (const stop of detach.splice(0)) stop();
  };
}
