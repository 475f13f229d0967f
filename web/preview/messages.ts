/**
 * The messages of the live preview. Three parties: the playground page (which holds the
 * workspace), the bridge page on the preview's own origin (which registers the Service Worker and
 * passes requests up), and the Service Worker (which answers the previewed page's requests).
 * A request travels SW → bridge → playground with a MessagePort; the playground answers on the
 * port, straight back to the Service Worker.
 */

/** The folder of the preview origin's URL space under which each playground tab's files appear. */
export const PREVIEW_PREFIX = '/preview/';
/** The bridge page's path on the preview origin. */
export const BRIDGE_PATH = '/preview-bridge.html';

/** SW → bridge → playground: the bytes for one URL path, relative to the preview root. */
export interface FileRequest {
  type: 'sandpit-preview-request';
  /** URL path below `/preview/<session>/`, still URL-encoded, with its query */
  path: string;
  /** the path of the page or module that asked, below the same prefix, when known */
  referrer: string;
  /** the request's destination: document, script, style, image, … ('' for fetch()) */
  destination: string;
  /** a frame's navigation: the Service Worker can hold what the new page links until it asks */
  navigation?: boolean;
  /**
   * Over the bridge only: the id of the direct channel the Service Worker holds, null when it has
   * none (it was restarted, or the channel's worker stopped answering). The playground then hands
   * it a new one.
   */
  channel?: string | null;
}

/** playground → SW, on the request's port. */
export interface FileReply {
  status: number;
  headers: Record<string, string>;
  body: ArrayBuffer | null;
  /**
   * The request paths (as a FileRequest names them) of the files the browser fetches next because
   * of this one (a page's scripts and stylesheets, a module's static imports), whose LinkedFile
   * messages follow on the same port: the Service Worker holds them for the document that asked,
   * so its next requests need no round trip through the playground's busy main thread, and a
   * module graph arrives in one pass instead of a trip per level of imports.
   */
  linked?: string[];
}

/** playground → SW, after a FileReply that announced it on the same port: one file served ahead (null: ask again). */
export interface LinkedFile {
  type: 'sandpit-preview-linked';
  path: string;
  reply: FileReply | null;
}

/** playground → SW: several LinkedFile messages at once, in the order they were served. */
export interface LinkedBatch {
  type: 'sandpit-preview-linked-batch';
  files: LinkedFile[];
}

/**
 * The part of the DOM's `MessagePort` the preview's answers use: pass the Service Worker's port.
 * Declared here so that code importing `sandpit-workspace/web` type-checks without the DOM library.
 */
export interface PreviewPort {
  /** send a message, moving the buffers in `transfer` */
  postMessage(message: unknown, transfer: unknown[]): void;
  /** end the channel */
  close(): void;
}

/**
 * The workspace worker's end of a direct channel (see PreviewChannelContext): it hears the Service
 * Worker's requests, each with its reply port. Declared here, like PreviewPort, for code built
 * without the DOM library; pass a `MessagePort`.
 */
export interface PreviewChannelPort {
  /** the worker hears each message: a FileRequest with the request's reply port in `ports` */
  addEventListener(type: 'message', listener: (event: { data: unknown; ports: readonly PreviewPort[] }) => void): void;
  /** start delivering the messages heard */
  start(): void;
  /** end the channel */
  close(): void;
}

/**
 * playground → workspace worker: a FileRequest to answer on the Service Worker's port, with what
 * the worker's file server needs to know of the playground: the previewed folder, the session's
 * URL prefix and the playground's origin (for the hook injected into pages).
 */
export interface PreviewAnswerRequest {
  /** URL path below `/preview/<session>/`, still URL-encoded, with its query */
  path: string;
  /** the path of the page or module that asked, below the same prefix, when known */
  referrer: string;
  /** a frame's navigation to a page: it starts a new page load */
  navigation?: boolean;
  /** the previewed folder, root-relative ('' is the workspace root) */
  root: string;
  /** `/preview/<session>/` */
  prefix: string;
  /** the playground's origin: the only one the hook injected into served pages reports to */
  playgroundOrigin: string;
}

/**
 * The direct channel (a MessageChannel): the Service Worker posts each FileRequest on it, with the
 * request's own reply port, straight to the workspace worker, so neither the bridge nor the
 * playground's main thread relays it. This is what the worker's end needs to answer on its own:
 * the fields of a PreviewAnswerRequest that do not come with each request.
 */
export interface PreviewChannelContext {
  /** the previewed folder, root-relative ('' is the workspace root) */
  root: string;
  /** `/preview/<session>/` */
  prefix: string;
  /** the playground's origin: the only one the hook injected into served pages reports to */
  playgroundOrigin: string;
}

/** workspace worker → SW, on a request's reply port as soon as the request arrives: the channel's worker is there. */
export interface RequestTaken {
  type: 'sandpit-preview-taken';
}

/** playground → bridge → SW, with the Service Worker's end of a new direct channel as the message's port. */
export interface ChannelOffer {
  type: 'sandpit-preview-channel';
  /** the playground tab's session: the channel answers only its requests */
  session: string;
  /** names this channel in the FileRequests that still come over the bridge */
  id: string;
}

/** SW → bridge → playground: the Service Worker holds the channel `id` and sends its requests on it. */
export interface ChannelReady {
  type: 'sandpit-preview-channel-ready';
  id: string;
}

/** bridge → playground: the Service Worker is active and answers requests for this session. */
export interface BridgeReady {
  type: 'sandpit-preview-ready';
}

/** previewed page → playground, sent by the script injected into every served HTML page. */
export type PageReport =
  | { sandpitPreview: true; kind: 'console'; level: 'log' | 'info' | 'warn' | 'error' | 'debug'; text: string }
  | { sandpitPreview: true; kind: 'load' | 'location'; path: string };

/** Where a path sits in the preview URL space: `/preview/<session>/<rest>` → its session and rest. */
export function splitPreviewPath(pathname: string): { session: string; rest: string } | null {
  if (!pathname.startsWith(PREVIEW_PREFIX)) return null;
  const tail = pathname.slice(PREVIEW_PREFIX.length);
  const slash = tail.indexOf('/');
  if (slash <= 0) return null;
  return { session: tail.slice(0, slash), rest: tail.slice(slash + 1) };
}
