import type { PreviewProblem } from '../../web/preview/file-server.js';
import {
  BRIDGE_PATH,
  PREVIEW_PREFIX,
  type ChannelOffer,
  type ChannelReady,
  type FileReply,
  type FileRequest,
  type PageReport,
  type PreviewAnswerRequest,
  type PreviewChannelContext,
} from '../../web/preview/messages.js';

/**
 * The longest a reload waits for the Service Worker to confirm a new direct channel: one that does
 * not (an older Service Worker still active) is answered over the bridge as before.
 */
const CHANNEL_READY_WITHIN_MS = 1_000;

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
  /** answer a request on the Service Worker's port (the workspace worker's file server does); resolves with the problems found */
  answer(request: PreviewAnswerRequest, port: MessagePort): Promise<string[]>;
  /** give the workspace worker its end of a direct channel to the Service Worker (see `previewConnect`); the problems it finds go to `onProblems` */
  connect(port: MessagePort, context: PreviewChannelContext, onProblems: (problems: string[]) => void): Promise<void>;
  root(): string;
  onProblem(problem: PreviewProblem): void;
  onReport(report: PageReport): void;
}

/**
 * The playground's end of the preview: a hidden bridge page on the preview origin, the sandboxed
 * frame that shows the page, and the hand-over of the bridge's requests to the file server in the
 * workspace's worker. Messages are taken only from those two windows, and the bridge may only ask
 * for files.
 */
export class PreviewLink {
  readonly origin = previewOrigin();
  readonly session = crypto.randomUUID().replace(/-/g, '');
  readonly prefix = `${PREVIEW_PREFIX}${this.session}/`;
  private bridge: HTMLIFrameElement | null = null;
  private ready: Promise<void> | null = null;
  private settle: { resolve: () => void; reject: (error: Error) => void } | null = null;
  /** The direct channel the Service Worker confirmed, and the folder its worker end serves. */
  private channel: { id: string; root: string } | null = null;
  /** The folder a channel was last tried for: a channel that failed is not tried again before each reload. */
  private triedRoot: string | null = null;
  private connecting: Promise<void> | null = null;
  private channelReady = new Map<string, () => void>();
  private bridged = 0;
  private shown = 0;

  constructor(
    private readonly frame: HTMLIFrameElement,
    private readonly host: HTMLElement,
    private readonly options: PreviewLinkOptions,
  ) {
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

  /**
   * Show `path` (below the previewed folder) in the frame; the same path again reloads it. Its
   * requests go on the direct channel: a first one, or one for a folder picked since, is made first.
   */
  show(path: string): void {
    const address = `${this.origin}${this.prefix}${path.replace(/^\/+/, '')}`;
    const root = this.options.root();
    if (this.channel?.root !== root && this.triedRoot !== root && !this.connecting) void this.connect();
    if (!this.connecting) {
      this.frame.src = address;
      return;
    }
    const shown = ++this.shown;
    void this.connecting.then(() => {
      if (shown === this.shown) this.frame.src = address;
    });
  }

  /** The workspace worker was replaced (a backend switch): the next reload makes a new channel to the new one. */
  disconnect(): void {
    this.channel = null;
    this.triedRoot = null;
  }

  /**
   * Make a direct channel: one end to the workspace worker, the other through the bridge to the
   * Service Worker. Resolves once the Service Worker confirms it, or after CHANNEL_READY_WITHIN_MS
   * (the requests then go over the bridge, which asks for a channel again).
   */
  private connect(): Promise<void> {
    this.connecting ??= (async () => {
      const root = this.options.root();
      this.triedRoot = root;
      const bridge = this.bridge?.contentWindow;
      if (!bridge) return;
      const id = crypto.randomUUID();
      const { port1, port2 } = new MessageChannel();
      try {
        await this.options.connect(
          port1,
          { root, prefix: this.prefix, playgroundOrigin: location.origin },
          (problems) => {
            for (const message of problems) this.options.onProblem({ message });
          },
        );
      } catch {
        // No workspace to connect (still opening, or closed): the bridge answers until the next try.
        port2.close();
        return;
      }
      const confirmed = new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), CHANNEL_READY_WITHIN_MS);
        this.channelReady.set(id, () => {
          clearTimeout(timer);
          resolve(true);
        });
      });
      const offer: ChannelOffer = { type: 'sandpit-preview-channel', session: this.session, id };
      bridge.postMessage(offer, this.origin, [port2]);
      const ok = await confirmed;
      this.channelReady.delete(id);
      if (!ok) return;
      this.channel = { id, root };
      this.frame.dataset.channel = id;
    })().finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  private receive(event: MessageEvent): void {
    if (event.origin !== this.origin) return;
    if (this.bridge && event.source === this.bridge.contentWindow) {
      const data = event.data as { type?: string; message?: string } | FileRequest;
      if (data?.type === 'sandpit-preview-ready') this.settle?.resolve();
      else if (data?.type === 'sandpit-preview-failed')
        this.settle?.reject(new Error(`the preview could not start: ${(data as { message?: string }).message}`));
      else if (data?.type === 'sandpit-preview-channel-ready')
        this.channelReady.get(String((data as ChannelReady).id))?.();
      else if (data?.type === 'sandpit-preview-request' && event.ports[0]) {
        this.bridgedRequest(data as FileRequest);
        void this.answer(data as FileRequest, event.ports[0]);
      }
      return;
    }
    if (event.source === this.frame.contentWindow && (event.data as PageReport)?.sandpitPreview === true)
      this.options.onReport(event.data as PageReport);
  }

  /**
   * A request came over the bridge: counted (a test reads the count), and when the Service Worker
   * says it holds no channel, or another than the one made last (it was restarted, or the worker at
   * the channel's end stopped answering), a new one is made for the next requests.
   */
  private bridgedRequest(request: FileRequest): void {
    this.bridged += 1;
    this.frame.dataset.bridged = String(this.bridged);
    if (this.connecting || this.triedRoot === null) return;
    if (request.channel && request.channel === this.channel?.id) return;
    this.channel = null;
    void this.connect();
  }

  /**
   * Pass one request to the workspace's worker, which answers it on the Service Worker's port
   * itself, with what it leads to served ahead (see web/preview/answer.ts): the files and the
   * work stay off this main thread, which the previewed page's own loading shares.
   */
  private async answer(request: FileRequest, port: MessagePort): Promise<void> {
    let problems: string[];
    try {
      problems = await this.options.answer(
        {
          path: String(request.path ?? ''),
          referrer: String(request.referrer ?? ''),
          navigation: request.navigation === true,
          root: this.options.root(),
          prefix: this.prefix,
          playgroundOrigin: location.origin,
        },
        port,
      );
    } catch (error) {
      // The worker is gone or still opening: the Service Worker gets an answer, not a wait.
      const reply: FileReply = {
        status: 503,
        headers: { 'content-type': 'text/plain; charset=utf-8' },
        body: new TextEncoder().encode('The workspace is not open: reload the preview.').buffer as ArrayBuffer,
      };
      port.postMessage(reply, [reply.body!]);
      problems = [`The preview could not answer: ${(error as Error).message}`];
    }
    for (const message of problems) this.options.onProblem({ message });
  }
}
