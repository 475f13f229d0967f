import { readFileSync } from 'node:fs';
import { PassThrough, Transform, type Readable, type Writable } from 'node:stream';
import { discoverError, initializeResult, requestedVersion } from './capabilities.js';
import type { EarlyTools } from './early-tools.js';

/** The streams the SDK's stdio transport reads and writes once the server is loaded. */
export interface EarlyStdio {
  /** where the client's messages arrive (stdin, less what was answered early) */
  input: Readable;
  /** where answers go (stdout) */
  output: Writable;
}

/** The answers sent before the server has loaded, and the streams to hand the server after. */
export interface EarlyStart {
  /** the streams the server reads and writes */
  ready: Promise<EarlyStdio>;
  /** stop reading stdin (the server will not start) */
  abandon(): void;
  /**
   * Answer `ping`, `tools/list` and `tools/call` with `tools` until the server has handled
   * initialize; calls started before then finish here, cancellations included. `null`: the server
   * answers them (those that waited for this go to it).
   */
  serveTools(tools: EarlyTools | null): void;
  /**
   * Resolves when the server is needed: a message came that only it answers (or a reply to one
   * of its requests), the early answers have gone idle (nothing asked of them for
   * `EARLY_IDLE_MS` (100 ms) after a tools/list or tools/call was answered), or stdin ended.
   */
  serverWanted: Promise<void>;
}

/** This package's version, as the server tells clients (read without loading anything else). */
export function packageVersion(): string {
  try {
    return (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string })
      .version;
  } catch {
    return '0.0.0';
  }
}

/** How the early stdio answers. */
export interface EarlyOptions {
  /**
   * {@link EarlyStart.serveTools} will be called (the workspace is opening): tools/list and
   * tools/call that arrive before it wait for it rather than for the server.
   */
  toolsComing?: boolean;
}

/**
 * How long the early answers wait, after answering tools/list or a tools/call, for the client's next
 * request before they call the server wanted. Its load (the SDK, zod, ajv: tens of ms of compiling
 * and evaluating) then lands in the client's pause, not on a call: a client's next request follows
 * an answer within a few ms when it comes at once, and a model thinks for seconds.
 */
export const EARLY_IDLE_MS = 100;

/** Lines longer than this are not looked into here; they go to the server's transport, which has the size limit. */
const PARSE_LIMIT = 1024 * 1024;

type Message = { method?: unknown; id?: unknown; params?: any; result?: unknown; error?: unknown };

/**
 * Answer what a client sends first while the SDK and the server's modules are still loading, so
 * its start-up waits for a bare Node process and the workspace, not for all of Sandpit:
 * `initialize` (the answer the SDK server would give, same capabilities and version negotiation;
 * the request still goes on to the server, so it learns the client's capabilities, and its own
 * answer is dropped), `server/discover` (error -32022 naming the handshake versions, as the SDK answers a version it does not serve), `ping`, and, once
 * {@link EarlyStart.serveTools} is given the workspace's tools, `tools/list` and `tools/call`.
 * Everything else goes to the server in order; what follows initialize waits until the server
 * has handled it. `instructions` is the toolset's guidance, as the server would send it.
 */
export function answerInitializeEarly(
  stdin: Readable = process.stdin,
  stdout: Writable = process.stdout,
  instructions = '',
  options: EarlyOptions = {},
): EarlyStart {
  const input = new PassThrough();
  let dropId: unknown;
  let dropping = false;
  let pending = '';
  const output = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (!dropping) return done(null, chunk);
      pending += chunk.toString('utf8');
      let at: number;
      const kept: string[] = [];
      while (dropping && (at = pending.indexOf('\n')) !== -1) {
        const line = pending.slice(0, at + 1);
        pending = pending.slice(at + 1);
        if (isAnswerTo(line, dropId)) {
          dropping = false;
          handOver();
        } else kept.push(line);
      }
      if (!dropping && pending) {
        kept.push(pending);
        pending = '';
      }
      done(null, kept.join(''));
    },
  });
  output.pipe(stdout);

  let initialized = false;
  let canElicit = false;
  /** the server has handled initialize: every message is its own from here */
  let handed = false;
  let direct = false;
  let ended = false;
  let tools: EarlyTools | null | undefined;
  const awaiting: Array<{ message: Message; line: Buffer }> = [];
  const held: Buffer[] = [];
  const running = new Map<unknown, AbortController>();
  let parts: Buffer[] = [];
  let size = 0;
  let wantServer!: () => void;
  const serverWanted = new Promise<void>((resolve) => {
    wantServer = resolve;
  });
  let wanted = false;
  void serverWanted.then(() => {
    wanted = true;
    clearTimeout(idle);
  });
  let idle: ReturnType<typeof setTimeout> | undefined;
  /** An early answer went out: the server is wanted once nothing else is asked or running for a moment. */
  const goingIdle = () => {
    clearTimeout(idle);
    if (wanted || running.size > 0) return;
    idle = setTimeout(wantServer, EARLY_IDLE_MS);
    idle.unref?.();
  };
  const send = (message: Record<string, unknown>) =>
    stdout.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  const toServer = (line: Buffer) => {
    if (dropping) held.push(line);
    else input.write(line);
  };
  const handOver = () => {
    handed = true;
    for (const line of held.splice(0)) input.write(line);
    goDirect();
  };
  // Once the server has taken over and no early call can still be cancelled, stdin flows to it untouched.
  const goDirect = () => {
    if (!handed || running.size > 0 || direct) return;
    direct = true;
    stdin.off('data', onData);
    stdin.off('end', onEnd);
    if (size > 0) input.write(Buffer.concat(parts));
    parts = [];
    size = 0;
    if (ended) input.end();
    else stdin.pipe(input);
  };
  const call = (id: unknown, params: Message['params']) => {
    const controller = new AbortController();
    running.set(id, controller);
    tools!
      .call({
        params,
        signal: controller.signal,
        canElicit,
        progress: (progress) => send({ method: 'notifications/progress', params: progress }),
      })
      .then(
        (result) => {
          // A cancelled request gets no answer (as the SDK server does).
          if (!controller.signal.aborted) send({ id, result });
        },
        (error: unknown) => {
          if (!controller.signal.aborted)
            send({ id, error: { code: -32603, message: error instanceof Error ? error.message : 'internal error' } });
        },
      )
      .finally(() => {
        running.delete(id);
        goingIdle();
        goDirect();
      });
  };
  /** Whether the message was answered (or consumed) here. */
  const answered = (m: Message, line: Buffer): boolean => {
    const isRequest = typeof m.method === 'string' && (typeof m.id === 'string' || typeof m.id === 'number');
    if (m.method === 'notifications/cancelled' && running.has(m.params?.requestId)) {
      running.get(m.params.requestId)!.abort();
      return true;
    }
    if (handed || !isRequest) return false;
    // a request: whoever answers it, the early answers are not idle
    clearTimeout(idle);
    const { id, method, params } = m;
    if (method === 'server/discover') send({ id, error: discoverError(requestedVersion(params)) });
    else if (method === 'ping') send({ id, result: {} });
    else if (!initialized || tools === null || (!tools && !options.toolsComing)) return false;
    else if (!tools && (method === 'tools/list' || method === 'tools/call')) awaiting.push({ message: m, line });
    else if (method === 'tools/list' && (params === undefined || isObject(params))) {
      send({ id, result: tools!.list() });
      goingIdle();
    } else if (method === 'tools/call' && isCallParams(params) && !running.has(id)) call(id, params);
    else return false;
    return true;
  };
  const onLine = (line: Buffer) => {
    const message = line.length <= PARSE_LIMIT ? parse(line) : null;
    if (message && !handed && !initialized && message.method === 'initialize' && message.id !== undefined) {
      initialized = true;
      canElicit = isObject(message.params?.capabilities) && message.params.capabilities.elicitation !== undefined;
      send({
        id: message.id,
        result: initializeResult(message.params?.protocolVersion, packageVersion(), instructions),
      });
      input.write(line);
      dropId = message.id;
      dropping = true;
      return;
    }
    if (message && answered(message, line)) return;
    // A request or a reply only the server can deal with: time it loaded.
    if (!message || message.id !== undefined) wantServer();
    toServer(line);
  };
  const onData = (chunk: Buffer) => {
    let bytes = chunk;
    for (let nl = bytes.indexOf(10); nl !== -1 && !direct; nl = bytes.indexOf(10)) {
      parts.push(bytes.subarray(0, nl + 1));
      const line = Buffer.concat(parts);
      parts = [];
      size = 0;
      bytes = bytes.subarray(nl + 1);
      onLine(line);
    }
    if (bytes.length === 0) return;
    if (direct) input.write(bytes);
    else {
      parts.push(bytes);
      size += bytes.length;
    }
  };
  const onEnd = () => {
    ended = true;
    wantServer();
    if (!dropping) {
      handed = true;
      goDirect();
    }
  };
  stdin.on('data', onData);
  stdin.once('end', onEnd);
  return {
    ready: Promise.resolve({ input, output }),
    serveTools: (given) => {
      tools = given;
      for (const { message, line } of awaiting.splice(0)) {
        if (answered(message, line)) continue;
        wantServer();
        toServer(line);
      }
    },
    serverWanted,
    abandon: () => {
      stdin.off('data', onData);
      stdin.off('end', onEnd);
      stdin.pause();
      (stdin as { unref?: () => void }).unref?.();
    },
  };
}

const isObject = (value: unknown): value is Record<string, any> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** tools/call params the early answer takes; anything else goes to the server, which says what is wrong. */
function isCallParams(params: unknown): boolean {
  return (
    isObject(params) &&
    typeof params.name === 'string' &&
    (params.arguments === undefined || isObject(params.arguments))
  );
}

function parse(line: Buffer): Message | null {
  try {
    const value = JSON.parse(line.toString('utf8')) as unknown;
    return isObject(value) && value.jsonrpc === '2.0' ? (value as Message) : null;
  } catch {
    return null;
  }
}

function isAnswerTo(line: string, id: unknown): boolean {
  try {
    const message = JSON.parse(line) as { id?: unknown; result?: unknown; error?: unknown };
    return message.id === id && (message.result !== undefined || message.error !== undefined);
  } catch {
    return false;
  }
}
