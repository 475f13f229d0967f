/// <reference lib="es2022" />
// The preview origin's Service Worker. It answers the previewed page's requests by asking the
// workspace worker for the workspace's bytes: on the direct channel the playground hands it, else
// through the bridge page beside it and the playground. It keeps no copy: the files a page links,
// sent with the page, are held only until that one page asks for them.
import {
  BRIDGE_PATH,
  splitPreviewPath,
  type ChannelOffer,
  type ChannelReady,
  type FileReply,
  type FileRequest,
  type LinkedBatch,
  type LinkedFile,
} from '../web/preview/messages.js';

/** The few Service Worker globals used here (the page's DOM types do not describe a worker). */
interface WindowClientLike {
  id?: string;
  url: string;
  postMessage(message: unknown, transfer: Transferable[]): void;
}
interface FetchEventLike extends Event {
  request: Request;
  clientId: string;
  resultingClientId: string;
  respondWith(response: Promise<Response>): void;
}
interface WorkerScope {
  location: Location;
  clients: {
    get(id: string): Promise<WindowClientLike | undefined>;
    matchAll(options: { type: 'window'; includeUncontrolled: boolean }): Promise<WindowClientLike[]>;
    claim(): Promise<void>;
  };
  skipWaiting(): Promise<void>;
  addEventListener(type: string, listener: (event: any) => void): void;
}
const worker = globalThis as unknown as WorkerScope;
const ANSWER_WITHIN_MS = 15_000;
/**
 * How long a request on the direct channel waits for the workspace worker to take it (it
 * acknowledges each request as it arrives, before reading anything). A worker that has not by
 * then is gone or stuck: the request goes over the bridge, which also brings a new channel.
 */
const TAKEN_WITHIN_MS = 2_000;
/** How long the files sent with a page wait for it to ask; a page that never does lets them go. */
const LINKED_KEPT_MS = 20_000;

/**
 * The files sent ahead (a page's linked files, then the modules they import, level after level),
 * by the client id of the document being loaded, then by request path. A new load is a new
 * document with a new id, so it can never be answered with what an earlier load was sent; each
 * file answers one request and is dropped.
 */
const linkedByPage = new Map<string, Map<string, Promise<FileReply | null>>>();

function takeLinked(clientId: string, path: string): Promise<FileReply | null> | undefined {
  const files = linkedByPage.get(clientId);
  const file = files?.get(path);
  if (!files || !file) return undefined;
  files.delete(path);
  if (files.size === 0) linkedByPage.delete(clientId);
  return file;
}

/**
 * Hold the files announced on a port for the document `clientId` until they arrive, and the files
 * each of them announces in turn (the modules it imports, served ahead); what the document never
 * asks for is dropped after its time.
 */
function expectLinked(clientId: string, paths: readonly string[], port: MessagePort): void {
  const settle = new Map<string, (reply: FileReply | null) => void>();
  const heldFiles = () => {
    let files = linkedByPage.get(clientId);
    if (!files) {
      const created = new Map<string, Promise<FileReply | null>>();
      linkedByPage.set(clientId, created);
      setTimeout(() => {
        if (linkedByPage.get(clientId) === created) linkedByPage.delete(clientId);
      }, LINKED_KEPT_MS);
      files = created;
    }
    return files;
  };
  const announce = (list: readonly string[]) => {
    const files = heldFiles();
    for (const path of list)
      if (!files.has(path) && !settle.has(path))
        files.set(path, new Promise<FileReply | null>((resolve) => settle.set(path, resolve)));
  };
  announce(paths);
  if (settle.size === 0) {
    port.close();
    return;
  }
  const stopWaiting = () => {
    clearTimeout(waiting);
    for (const resolve of settle.values()) resolve(null);
    settle.clear();
    port.close();
  };
  const waiting = setTimeout(stopWaiting, ANSWER_WITHIN_MS);
  port.onmessage = (message) => {
    const data = message.data as LinkedFile | LinkedBatch;
    const files =
      data?.type === 'sandpit-preview-linked-batch'
        ? data.files
        : data?.type === 'sandpit-preview-linked'
          ? [data]
          : [];
    for (const linked of files) {
      // What a file announces is held before the file itself is handed out, so the browser never asks first.
      if (linked.reply?.linked?.length) announce(linked.reply.linked);
      settle.get(linked.path)?.(linked.reply);
      settle.delete(linked.path);
    }
    if (files.length > 0 && settle.size === 0) stopWaiting();
  };
}

/** The session and path a request belongs to, or null for the bridge's own files. */
async function target(event: FetchEventLike): Promise<{ session: string; path: string; referrer: string } | null> {
  const url = new URL(event.request.url);
  const referrerPath = (() => {
    try {
      return event.request.referrer ? new URL(event.request.referrer).pathname : '';
    } catch {
      return '';
    }
  })();
  const direct = splitPreviewPath(url.pathname);
  const fromReferrer = splitPreviewPath(referrerPath);
  if (direct) return { session: direct.session, path: direct.rest + url.search, referrer: fromReferrer?.rest ?? '' };
  // A root-relative URL (`/style.css`) from a previewed page means the previewed folder's root.
  const client = event.clientId ? await worker.clients.get(event.clientId) : undefined;
  const owner = (client && splitPreviewPath(new URL(client.url).pathname)) ?? fromReferrer;
  if (!owner) return null;
  return {
    session: owner.session,
    path: url.pathname.slice(1) + url.search,
    referrer: fromReferrer?.rest ?? owner.rest,
  };
}

/**
 * The direct channel to the workspace worker, by session, as the playground handed it over the
 * bridge. Held only in this thread: a Service Worker the browser stopped starts again without it,
 * asks over the bridge, and the playground hands it a new one.
 */
const channels = new Map<string, { id: string; port: MessagePort }>();

worker.addEventListener('message', (event: MessageEvent & { source: WindowClientLike | null }) => {
  const offer = event.data as ChannelOffer;
  const port = event.ports[0];
  if (offer?.type !== 'sandpit-preview-channel' || !port || !event.source) return;
  // Only a session's own bridge may hand its channel: a previewed page shares this origin.
  const from = new URL(event.source.url);
  if (from.pathname !== BRIDGE_PATH || from.searchParams.get('session') !== offer.session) {
    port.close();
    return;
  }
  channels.get(offer.session)?.port.close();
  channels.set(offer.session, { id: String(offer.id), port });
  const ready: ChannelReady = { type: 'sandpit-preview-channel-ready', id: String(offer.id) };
  event.source.postMessage(ready, []);
});

async function bridgeFor(session: string): Promise<WindowClientLike | undefined> {
  const windows = await worker.clients.matchAll({ type: 'window', includeUncontrolled: true });
  return windows.find((client) => {
    const url = new URL(client.url);
    return url.pathname === BRIDGE_PATH && url.searchParams.get('session') === session;
  });
}

const page = (status: number, message: string) =>
  new Response(`<!doctype html><meta charset="utf-8"><body style="font:14px system-ui;margin:2rem"><p>${message}</p>`, {
    status,
    headers: { 'content-type': 'text/html; charset=utf-8' },
  });

/**
 * A body that streams out of the Service Worker. Chromium turns a Response made from an
 * ArrayBuffer into a blob, and registers each blob with the browser process by a synchronous
 * call: with a page's two hundred modules that was most of a second of this thread blocked.
 */
function streamed(bytes: ArrayBuffer): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      if (bytes.byteLength > 0) controller.enqueue(new Uint8Array(bytes));
      controller.close();
    },
  });
}

function respond(event: FetchEventLike, served: FileReply): Response {
  const headers = new Headers(served.headers);
  const location = headers.get('location');
  if (served.status >= 300 && served.status < 400 && location)
    return Response.redirect(new URL(location, event.request.url).href, served.status);
  const body = served.body && served.status !== 204 ? streamed(served.body) : null;
  return new Response(body, { status: served.status, headers });
}

/** An answer and the port it came on, which then brings the files served ahead; null for no answer in time. */
interface Asked {
  served: FileReply | null;
  port: MessagePort;
}

/**
 * Post `request` with a new reply port through `send`, and wait until `deadline` for its answer.
 * With `takenWithin`, the other end must first acknowledge it within that time, else this resolves
 * with 'not taken' at once (the channel's worker is gone).
 */
function ask(
  send: (request: FileRequest, port: MessagePort) => void,
  request: FileRequest,
  deadline: number,
  takenWithin?: number,
): Promise<Asked | 'not taken'> {
  const channel = new MessageChannel();
  return new Promise((resolve) => {
    const late = () => resolve({ served: null, port: channel.port1 });
    let timer =
      takenWithin === undefined
        ? setTimeout(late, deadline - Date.now())
        : setTimeout(() => {
            channel.port1.close();
            resolve('not taken');
          }, takenWithin);
    channel.port1.onmessage = (message) => {
      const type = String((message.data as LinkedFile)?.type);
      if (type === 'sandpit-preview-taken') {
        clearTimeout(timer);
        timer = setTimeout(late, deadline - Date.now());
        return;
      }
      if (/^sandpit-preview-linked/.test(type)) return;
      clearTimeout(timer);
      resolve({ served: message.data as FileReply, port: channel.port1 });
    };
    send(request, channel.port2);
  });
}

/** Ask on the session's direct channel, else (none, or its worker did not take the request) through the bridge. */
async function askWorkspace(session: string, request: FileRequest): Promise<Asked | 'no bridge'> {
  const deadline = Date.now() + ANSWER_WITHIN_MS;
  const direct = channels.get(session);
  if (direct) {
    const asked = await ask((r, port) => direct.port.postMessage(r, [port]), request, deadline, TAKEN_WITHIN_MS);
    if (asked !== 'not taken') return asked;
    if (channels.get(session) === direct) {
      channels.delete(session);
      direct.port.close();
    }
  }
  const bridge = await bridgeFor(session);
  if (!bridge) return 'no bridge';
  const bridged = { ...request, channel: channels.get(session)?.id ?? null };
  return (await ask((r, port) => bridge.postMessage(r, [port]), bridged, deadline)) as Asked;
}

async function answer(
  event: FetchEventLike,
  where: { session: string; path: string; referrer: string },
): Promise<Response> {
  const sent = event.clientId ? takeLinked(event.clientId, where.path) : undefined;
  const early = sent && (await sent);
  if (early) return respond(event, early);
  const navigation = event.request.mode === 'navigate' && Boolean(event.resultingClientId);
  const request: FileRequest = {
    type: 'sandpit-preview-request',
    path: where.path,
    referrer: where.referrer,
    destination: event.request.destination,
    navigation,
  };
  const asked = await askWorkspace(where.session, request);
  if (asked === 'no bridge')
    return page(503, 'The playground that showed this preview is closed. Open the Preview panel again.');
  const { served, port } = asked;
  // A page's files are held for the document it becomes; a module's imports for the document that asked.
  const holder = navigation ? event.resultingClientId : event.clientId;
  if (served && holder && served.linked?.length) expectLinked(holder, served.linked, port);
  else port.close();
  if (!served) return page(504, 'The playground did not answer in time. Reload the preview.');
  return respond(event, served);
}

worker.addEventListener('fetch', (event: FetchEventLike) => {
  const url = new URL(event.request.url);
  if (url.origin !== worker.location.origin || event.request.method !== 'GET') return;
  event.respondWith(target(event).then((where) => (where ? answer(event, where) : fetch(event.request))));
});
