import { readFileSync } from 'node:fs';
import { PassThrough, Transform, type Readable, type Writable } from 'node:stream';
import { initializeResult } from './capabilities.js';

/** The streams the SDK's stdio transport reads and writes once the server is loaded. */
export interface EarlyStdio {
  /** where the client's messages arrive (stdin, or what is left of it after the early answer) */
  input: Readable;
  /** where answers go (stdout) */
  output: Writable;
}

/** An initialize answer sent before the server has loaded, and the streams to hand the server after. */
export interface EarlyStart {
  /** resolves once the first message has been read (or stdin ended before one) */
  ready: Promise<EarlyStdio>;
  /** stop reading stdin (the server will not start) */
  abandon(): void;
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

/**
 * Answer the client's `initialize` as soon as it arrives, while the SDK, the workspace and its
 * snapshot store are still loading: a client's start-up then waits for a bare Node process, not
 * for all of Sandpit. The answer is the one the SDK server would give (same capabilities, same
 * version negotiation); the request is still passed on to the server, so it learns the client's
 * capabilities, and the server's own answer to it is dropped. Any other first message passes
 * through untouched. `instructions` is the toolset's guidance, as the server would send it.
 */
export function answerInitializeEarly(
  stdin: Readable = process.stdin,
  stdout: Writable = process.stdout,
  instructions = '',
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
          release();
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
  let resolveReady!: (io: EarlyStdio) => void;
  const ready = new Promise<EarlyStdio>((resolve) => {
    resolveReady = resolve;
  });
  let head = Buffer.alloc(0);
  // What the client sent after initialize waits until the server has handled initialize itself
  // (the client did not wait for it, since it had its answer): handlers then see its capabilities.
  let rest = Buffer.alloc(0);
  const release = () => {
    input.write(rest);
    stdin.pipe(input);
  };
  const hand = (at: number) => {
    stdin.off('data', onData);
    stdin.off('end', onEnd);
    if (dropping) {
      input.write(head.subarray(0, at + 1));
      rest = head.subarray(at + 1);
      stdin.pause();
    } else {
      input.write(head);
      stdin.pipe(input);
    }
    resolveReady({ input, output });
  };
  const onData = (chunk: Buffer) => {
    head = Buffer.concat([head, chunk]);
    const at = head.indexOf(10);
    if (at === -1) return;
    const initialize = initializeRequest(head.subarray(0, at).toString('utf8'));
    if (initialize) {
      dropId = initialize.id;
      dropping = true;
      stdout.write(
        `${JSON.stringify({
          jsonrpc: '2.0',
          id: initialize.id,
          result: initializeResult(initialize.version, packageVersion(), instructions),
        })}\n`,
      );
    }
    hand(at);
  };
  const onEnd = () => {
    stdin.off('data', onData);
    input.end(head);
    resolveReady({ input, output });
  };
  stdin.on('data', onData);
  stdin.once('end', onEnd);
  return {
    ready,
    abandon: () => {
      stdin.off('data', onData);
      stdin.off('end', onEnd);
      stdin.pause();
      (stdin as { unref?: () => void }).unref?.();
    },
  };
}

function initializeRequest(line: string): { id: unknown; version: unknown } | null {
  try {
    const message = JSON.parse(line) as { method?: unknown; id?: unknown; params?: { protocolVersion?: unknown } };
    if (message.method !== 'initialize' || message.id === undefined) return null;
    return { id: message.id, version: message.params?.protocolVersion };
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
