import type { Workspace } from '../../src/workspace-core.js';
import { AheadLoad, nextUrlsOf, requestPathsOf, serveAhead } from './ahead.js';
import { createFileServer, type ServedFile } from './file-server.js';
import type { FileReply, LinkedBatch, LinkedFile, PreviewAnswerRequest, PreviewPort } from './messages.js';
import { previewEntryKind, readPreviewEntry } from './read-file.js';

/** One preview session's file server (its page load's caches, the import map it served last) and what that load was sent ahead. */
interface PreviewSession {
  server: ReturnType<typeof createFileServer>;
  load: AheadLoad;
  root: string;
  problems: string[];
}

/** Sessions by the workspace (or fork view) that answers them, then by URL prefix. */
const sessions = new WeakMap<object, Map<string, PreviewSession>>();
const NO_WORKSPACE = {};

function sessionFor(ws: Workspace | null, request: PreviewAnswerRequest): PreviewSession {
  const key = ws ?? NO_WORKSPACE;
  let byPrefix = sessions.get(key);
  if (!byPrefix) {
    byPrefix = new Map();
    sessions.set(key, byPrefix);
  }
  let session = byPrefix.get(request.prefix);
  if (!session) {
    const created: PreviewSession = {
      load: new AheadLoad(),
      root: request.root,
      problems: [],
      server: createFileServer({
        entry: (rel) => (ws ? readPreviewEntry(ws, rel) : Promise.resolve({ kind: 'missing' as const })),
        kind: (rel) => (ws ? previewEntryKind(ws, rel) : Promise.resolve('missing' as const)),
        root: () => created.root,
        onProblem: (problem) => created.problems.push(problem.message),
        playgroundOrigin: request.playgroundOrigin,
        prefix: request.prefix,
      }),
    };
    session = created;
    byPrefix.set(request.prefix, session);
  }
  session.root = request.root;
  return session;
}

/** The bytes of a served file, in a buffer of their own that can move to the Service Worker. */
function toReply(served: ServedFile, linked: string[]): FileReply {
  const body = served.body.buffer.slice(
    served.body.byteOffset,
    served.body.byteOffset + served.body.byteLength,
  ) as ArrayBuffer;
  return { status: served.status, headers: served.headers, body, ...(linked.length ? { linked } : {}) };
}

async function serveSafely(session: PreviewSession, path: string, referrer: string): Promise<ServedFile> {
  try {
    return await session.server.serve(path, referrer);
  } catch (error) {
    return {
      status: 500,
      headers: { 'content-type': 'text/plain; charset=utf-8' },
      body: new TextEncoder().encode(`The preview could not read this file: ${(error as Error).message}`),
    };
  }
}

/** A batch goes out once its first file has waited this long, or once it holds this many files. */
const BATCH_WAIT_MS = 25;
const BATCH_FILES = 48;

/**
 * Files finished close together go to the Service Worker as one message: each message has a fixed
 * cost on both ends. Serving a graph ahead runs as one long chain of promise callbacks (reads that
 * resolve at once, then a transpile each), where a timer would fire only after the last module:
 * so a batch also goes out from within that chain once it is old or full enough, and the browser
 * starts fetching and parsing the first modules while the worker transpiles the rest.
 */
function batched(port: PreviewPort): { send(file: LinkedFile): void; flush(): void } {
  let queue: LinkedFile[] = [];
  let firstAt = 0;
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (queue.length === 0) return;
    const files = queue;
    queue = [];
    const transfer = files.flatMap((file) => (file.reply?.body ? [file.reply.body] : []));
    const message: LinkedFile | LinkedBatch =
      files.length === 1 ? files[0]! : { type: 'sandpit-preview-linked-batch', files };
    port.postMessage(message, transfer);
  };
  return {
    send(file) {
      queue.push(file);
      if (queue.length === 1) firstAt = performance.now();
      if (queue.length >= BATCH_FILES || performance.now() - firstAt >= BATCH_WAIT_MS) return flush();
      if (!scheduled) {
        scheduled = true;
        setTimeout(flush, 0);
      }
    },
    flush,
  };
}

/**
 * Answer one request of the live preview on `port` (the Service Worker's end of its channel),
 * here where the workspace's files are, then serve ahead, on the same port, what it makes the
 * browser fetch next: a page's scripts and stylesheets and, level after level, the modules they
 * import. The Service Worker holds them for the document that asked, so neither a page's first
 * requests nor each level of its module graph waits for a trip through the playground's main
 * thread (which the previewed page's own loading shares) or for the browser to parse one level
 * before it asks for the next. A page's navigation starts a new load: what an earlier load had
 * still to send is not sent. Resolves, once everything is sent, with the problems found (a
 * syntax error, a missing file or package), in a person's words.
 */
export async function answerPreview(
  ws: Workspace | null,
  request: PreviewAnswerRequest,
  port: PreviewPort,
): Promise<string[]> {
  const session = sessionFor(ws, request);
  const path = String(request.path ?? '');
  if (request.navigation === true) {
    session.load.stale = true;
    session.load = new AheadLoad();
  }
  const load = session.load;
  const served = await serveSafely(session, path, String(request.referrer ?? ''));
  const linked = load.stale ? [] : load.claim(requestPathsOf(request.prefix, path, nextUrlsOf(served)));
  const reply = toReply(served, linked);
  port.postMessage(reply, reply.body ? [reply.body] : []);
  const out = batched(port);
  await serveAhead(
    load,
    request.prefix,
    linked,
    path.replace(/[?#].*$/, ''),
    (file, referrer) => serveSafely(session, file, referrer),
    (file, ahead, announced) =>
      out.send({ type: 'sandpit-preview-linked', path: file, reply: ahead ? toReply(ahead, announced) : null }),
  );
  out.flush();
  port.close();
  return session.problems.splice(0);
}

/**
 * A change's files were just written: transpile them for each preview of `ws`, with its JSX
 * settings, before the reload the change causes asks for them. What the reload serves is still
 * read afresh; a text transpiled here is used only if it is exactly what the reload reads.
 */
export async function prepareChanged(
  ws: Workspace,
  files: ReadonlyArray<{ path: string; after?: string | null | undefined }>,
): Promise<void> {
  const byPrefix = sessions.get(ws);
  if (!byPrefix) return;
  await Promise.all(
    [...byPrefix.values()].flatMap((session) =>
      files.flatMap((file) =>
        typeof file.after === 'string' ? [session.server.prepare(file.path, file.after).catch(() => {})] : [],
      ),
    ),
  );
}
