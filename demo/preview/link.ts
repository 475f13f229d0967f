import { createFileServer, type PreviewProblem, type ServedFile } from '../../web/preview/file-server.js';
import {
  BRIDGE_PATH,
  PREVIEW_PREFIX,
  type FileReply,
  type FileRequest,
  type LinkedFile,
  type PageReport,
} from '../../web/preview/messages.js';
import type { PreviewEntry } from '../../web/preview/read-file.js';

/**
 * Where previews are served: the same host on the next port (`npm start` serves both), or the
 * origin or port named by `?preview=` in the playground's address. A separate origin, so the
 * previewed code cannot read this page's storage.
 */
export function previewOrigin(): string {
  const named = new URL(location.href).searchParams.get('preview');
  if (named && /^\d{2,5}$/.test(named)) return `${location.protocol}//${location.hostname}:${named}`;
  if (named) {
    try {
      return new URL(named).origin;
    } catch {
      // fall through to the default
    }
  }
  const port = Number(location.port || (location.protocol === 'https:' ? 443 : 80));
  return `${location.protocol}//${location.hostname}:${port + 1}`;
}

export interface PreviewLinkOptions {
  entry(rel: string): Promise<PreviewEntry>;
  root(): string;
  onProblem(problem: PreviewProblem): void;
  onReport(report: PageReport): void;
}

/**
 * The playground's end of the preview: a hidden bridge page on the preview origin, the sandboxed
 * frame that shows the page, and the file server that answers the bridge's requests. Messages
 * are taken only from those two windows, and the bridge may only ask for files.
 */
export class PreviewLink {
  readonly origin = previewOrigin();
  readonly session = crypto.randomUUID().replace(/-/g, '');
  readonly prefix = `${PREVIEW_PREFIX}${this.session}/`;
  private bridge: HTMLIFrameElement | null = null;
  private ready: Promise<void> | null = null;
  private settle: { resolve: () => void; reject: (error: Error) => void } | null = null;
  private readonly server;

  constructor(
    private readonly frame: HTMLIFrameElement,
    private readonly host: HTMLElement,
    private readonly options: PreviewLinkOptions,
  ) {
    this.server = createFileServer({
      entry: options.entry,
      root: options.root,
      onProblem: options.onProblem,
      playgroundOrigin: location.origin,
      prefix: this.prefix,
    });
    window.addEventListener('message', (event) => this.receive(event));
  }

  /** Start the bridge once; resolves when its Service Worker answers, rejects when the preview server does not. */
  start(): Promise<void> {
    this.ready ??= new Promise<void>((resolve, reject) => {
      this.settle = { resolve, reject };
      const bridge = document.createElement('iframe');
      bridge.className = 'preview-bridge';
      bridge.title = 'Preview file bridge';
      bridge.tabIndex = -1;
      bridge.setAttribute('aria-hidden', 'true');
      bridge.src = `${this.origin}${BRIDGE_PATH}?session=${this.session}&parent=${encodeURIComponent(location.origin)}`;
      this.bridge = bridge;
      this.host.append(bridge);
      setTimeout(
        () =>
          reject(
            new Error(
              `the preview server at ${this.origin} did not answer. \`npm start\` serves it on the port after the playground's; start the playground that way, or name another with ?preview=PORT.`,
            ),
          ),
        10_000,
      );
    }).catch((error: Error) => {
      this.bridge?.remove();
      this.bridge = null;
      this.ready = null;
      throw error;
    });
    return this.ready;
  }

  /** Show `path` (below the previewed folder) in the frame; the same path again reloads it. */
  show(path: string): void {
    this.frame.src = `${this.origin}${this.prefix}${path.replace(/^\/+/, '')}`;
  }

  private receive(event: MessageEvent): void {
    if (event.origin !== this.origin) return;
    if (this.bridge && event.source === this.bridge.contentWindow) {
      const data = event.data as { type?: string; message?: string } | FileRequest;
      if (data?.type === 'sandpit-preview-ready') this.settle?.resolve();
      else if (data?.type === 'sandpit-preview-failed')
        this.settle?.reject(new Error(`the preview could not start: ${(data as { message?: string }).message}`));
      else if (data?.type === 'sandpit-preview-request' && event.ports[0])
        void this.answer(data as FileRequest, event.ports[0]);
      return;
    }
    if (event.source === this.frame.contentWindow && (event.data as PageReport)?.sandpitPreview === true)
      this.options.onReport(event.data as PageReport);
  }

  /**
   * Answer one request on its port. A page loaded by a navigation is followed, on the same port,
   * by the files it links: the Service Worker holds them for that page alone, so its first
   * requests wait for no trip through this page's main thread, which the page's own loading and
   * this playground's redraws share.
   */
  private async answer(request: FileRequest, port: MessagePort): Promise<void> {
    const path = String(request.path ?? '');
    const served = await this.serve(path, String(request.referrer ?? ''));
    const linked =
      request.navigation === true && served.status === 200 ? this.linkedPaths(path, served.links ?? []) : [];
    const reply = toReply(served, linked);
    port.postMessage(reply, reply.body ? [reply.body] : []);
    const page = path.replace(/[?#].*$/, '');
    await Promise.all(
      linked.map(async (file) => {
        const message: LinkedFile = {
          type: 'sandpit-preview-linked',
          path: file,
          reply: toReply(await this.serve(file, page), []),
        };
        port.postMessage(message, message.reply.body ? [message.reply.body] : []);
      }),
    );
    port.close();
  }

  private async serve(path: string, referrer: string): Promise<ServedFile> {
    try {
      return await this.server.serve(path, referrer);
    } catch (error) {
      return {
        status: 500,
        headers: { 'content-type': 'text/plain; charset=utf-8' },
        body: new TextEncoder().encode(`The preview could not read this file: ${(error as Error).message}`),
      };
    }
  }

  /** The request paths the Service Worker will ask for the URLs a page links, as it names them; other origins' are left out. */
  private linkedPaths(pagePath: string, links: string[]): string[] {
    const base = new URL(`${this.prefix}${pagePath}`, 'http://preview.invalid');
    const paths = new Set<string>();
    for (const link of links) {
      let url: URL;
      try {
        url = new URL(link, base);
      } catch {
        continue;
      }
      if (url.origin !== base.origin) continue;
      // Root-relative URLs mean the previewed folder's root, as the Service Worker reads them.
      if (url.pathname.startsWith(this.prefix)) paths.add(url.pathname.slice(this.prefix.length) + url.search);
      else if (!url.pathname.startsWith(PREVIEW_PREFIX)) paths.add(url.pathname.slice(1) + url.search);
    }
    return [...paths];
  }
}

/** The bytes of a served file, in a buffer of their own that can move to the Service Worker. */
function toReply(served: ServedFile, linked: string[]): FileReply {
  const body = served.body.buffer.slice(
    served.body.byteOffset,
    served.body.byteOffset + served.body.byteLength,
  ) as ArrayBuffer;
  return { status: served.status, headers: served.headers, body, ...(linked.length ? { linked } : {}) };
}
