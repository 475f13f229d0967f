import type { StdioFramerOptions } from './framing.js';
import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ClientRequestSchema, JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** Default largest message: well above what a tool call with a big file in it needs. */
export const DEFAULT_MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

/** Bytes of an oversized message kept to find its id, so the caller waiting on it gets an answer. */
const HEAD_KEPT = 64 * 1024;

export type { StdioFramerOptions };

type RequestId = string | number;
type Problem = { code: number; message: string; id: RequestId | null };

/**
 * An MCP stdio transport that never goes quiet. The SDK's own closes the stream on a message over
 * its 10 MiB buffer and silently drops lines that are not valid JSON-RPC, so the caller waits
 * forever. This one answers each such line with the JSON-RPC error the spec names (-32700 parse
 * error, -32600 invalid request, -32602 invalid params; -32601 stays with the server) and keeps
 * reading. Chunks are kept as a list and joined once per line, so a big message costs linear time.
 */
export class StdioFramedTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;
  private readonly limit: number;
  private parts: Buffer[] = [];
  private size = 0;
  /** while skipping the rest of an oversized line: its first bytes and its full size so far */
  private oversized: { head: Buffer; size: number } | null = null;

  constructor(
    private readonly input: Readable = process.stdin,
    private readonly output: Writable = process.stdout,
    options: StdioFramerOptions = {},
  ) {
    this.limit = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  }

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('error', this.onInputError);
  }

  async close(): Promise<void> {
    this.input.off('data', this.onData);
    this.input.off('error', this.onInputError);
    if (this.input.listenerCount('data') === 0) this.input.pause();
    this.parts = [];
    this.onclose?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.output.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.output.once('drain', resolve);
    });
  }

  private readonly onInputError = (error: Error) => this.onerror?.(error);

  private readonly onData = (chunk: Buffer | string) => {
    let bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    for (let nl = bytes.indexOf(10); nl !== -1; nl = bytes.indexOf(10)) {
      this.take(bytes.subarray(0, nl));
      this.endLine();
      bytes = bytes.subarray(nl + 1);
    }
    if (bytes.length > 0) this.take(bytes);
  };

  private take(bytes: Buffer): void {
    if (this.oversized) {
      this.oversized.size += bytes.length;
      return;
    }
    if (this.size + bytes.length > this.limit) {
      const head = Buffer.concat([...this.parts, bytes]).subarray(0, HEAD_KEPT);
      this.oversized = { head: Buffer.from(head), size: this.size + bytes.length };
      this.parts = [];
      this.size = 0;
      return;
    }
    this.parts.push(bytes);
    this.size += bytes.length;
  }

  private endLine(): void {
    if (this.oversized) {
      const { head, size } = this.oversized;
      this.oversized = null;
      const id = idFromHead(head.toString('utf8'));
      this.reply({
        code: -32600,
        id,
        message: `the message is ${size} bytes, over this server's limit of ${this.limit} bytes, so it was not read`,
      });
      return;
    }
    const line = Buffer.concat(this.parts).toString('utf8').replace(/\r$/, '');
    this.parts = [];
    this.size = 0;
    if (line.trim() === '') return;
    const checked = checkMessage(line);
    if ('code' in checked) this.reply(checked);
    else this.onmessage?.(checked.message);
  }

  private reply(problem: Problem): void {
    this.send({
      jsonrpc: '2.0',
      id: problem.id,
      error: { code: problem.code, message: problem.message },
    } as unknown as JSONRPCMessage).catch((error: unknown) =>
      this.onerror?.(error instanceof Error ? error : new Error(String(error))),
    );
  }
}

/** One line, parsed and checked far enough to say which JSON-RPC error it earns, if any. */
export function checkMessage(line: string): { message: JSONRPCMessage } | Problem {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return {
      code: -32700,
      id: null,
      message: `parse error: the message is not JSON (${error instanceof Error ? error.message : 'it does not parse'})`,
    };
  }
  if (Array.isArray(value))
    return {
      code: -32600,
      id: null,
      message: 'invalid request: batches (JSON arrays) are not supported; send one request object per line',
    };
  if (value === null || typeof value !== 'object')
    return { code: -32600, id: null, message: 'invalid request: a message must be a JSON object' };
  const msg = value as Record<string, unknown>;
  const hasId = 'id' in msg;
  const idOk = typeof msg.id === 'string' || (typeof msg.id === 'number' && Number.isInteger(msg.id));
  const id = idOk ? (msg.id as RequestId) : null;
  const invalid = (why: string): Problem => ({ code: -32600, id, message: `invalid request: ${why}` });
  if (hasId && !idOk) return invalid('id must be a string or an integer');
  if (msg.jsonrpc !== '2.0') return invalid('jsonrpc must be "2.0"');
  if (!('method' in msg)) {
    if (hasId && ('result' in msg || 'error' in msg)) return pass(msg, id);
    return invalid('method is missing');
  }
  if (typeof msg.method !== 'string') return invalid('method must be a string');
  if ('params' in msg && (msg.params === null || typeof msg.params !== 'object' || Array.isArray(msg.params))) {
    return { code: -32602, id, message: `invalid params: params of ${msg.method} must be an object when present` };
  }
  if (hasId) {
    const known = requestSchemaOf(msg.method);
    if (known) {
      const parsed = known.safeParse({ method: msg.method, params: msg.params });
      if (!parsed.success) {
        const issue = parsed.error.issues.find((i) => i.path[0] === 'params') ?? parsed.error.issues[0];
        const where = issue?.path.slice(1).join('.') || 'params';
        return {
          code: -32602,
          id,
          message: `invalid params for ${msg.method}: ${where}: ${issue?.message ?? 'does not match the schema'}`,
        };
      }
    }
  }
  return pass(msg, id);
}

// One request's own schema: the union of them all tries each in turn, ten times the cost per call.
const requestSchemas = new Map<string, (typeof ClientRequestSchema.options)[number]>(
  ClientRequestSchema.options.map((o) => [o.shape.method.value, o]),
);
const requestSchemaOf = (method: string) => requestSchemas.get(method);

function pass(msg: Record<string, unknown>, id: RequestId | null): { message: JSONRPCMessage } | Problem {
  const parsed = JSONRPCMessageSchema.safeParse(msg);
  if (parsed.success) return { message: parsed.data };
  const issue = parsed.error.issues[0];
  return {
    code: -32600,
    id,
    message: `invalid request: ${issue ? `${issue.path.join('.') || 'message'}: ${issue.message}` : 'not a JSON-RPC 2.0 message'}`,
  };
}

/** The id of a message too big to parse, from its first bytes, when it names one near the top. */
function idFromHead(head: string): RequestId | null {
  const m = /^\s*\{(?:[^{}[\]]*?,)?\s*"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")/.exec(head);
  if (!m) return null;
  try {
    return JSON.parse(m[1]!) as RequestId;
  } catch {
    return null;
  }
}
