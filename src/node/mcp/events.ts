import type { EventId, EventStore, StreamId } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** How much of its SSE streams a session keeps for a client that reconnects with `Last-Event-ID`. */
export interface ReplayLimits {
  /** messages kept per session (default 1,000) */
  maxMessages?: number;
  /** bytes kept per session, counted as the messages' JSON length (default 32 MiB) */
  maxBytes?: number;
}

/** Defaults of the replay buffers: per session, and for all sessions of a server together. */
// A read at the 10 MiB limit answers about 20 MiB (the text and structuredContent both carry it):
// 32 MiB keeps a session's newest such answer replayable, 128 MiB four sessions' at once.
export const REPLAY_DEFAULTS = {
  maxMessages: 1000,
  maxBytes: 32 * 1024 * 1024,
  totalBytes: 128 * 1024 * 1024,
} as const;

interface StoredEvent {
  id: EventId;
  stream: StreamId;
  message: JSONRPCMessage;
  bytes: number;
  /** when it was stored, across every session of the server (which is oldest overall) */
  order: number;
}

/**
 * The bytes every session's replay buffer holds together. Over `maxBytes`, the oldest message of
 * any session goes first, so a burst of big answers in one session cannot grow the server's heap
 * without bound however many sessions there are.
 */
export class ReplayBudget {
  private held = 0;
  private clock = 0;
  private readonly stores = new Set<SessionEventStore>();

  constructor(readonly maxBytes: number = REPLAY_DEFAULTS.totalBytes) {}

  /** Bytes held by every session's buffer now. */
  get bytes(): number {
    return this.held;
  }

  /** @internal */
  join(store: SessionEventStore): void {
    this.stores.add(store);
  }

  /** @internal */
  leave(store: SessionEventStore, bytes: number): void {
    this.stores.delete(store);
    this.held -= bytes;
  }

  /** @internal */
  added(bytes: number): number {
    this.held += bytes;
    return this.clock++;
  }

  /** @internal */
  dropped(bytes: number): void {
    this.held -= bytes;
  }

  /** @internal Drop the oldest messages of any session until the total fits. */
  trim(): void {
    while (this.held > this.maxBytes) {
      let oldest: SessionEventStore | undefined;
      for (const store of this.stores) {
        const order = store.oldestOrder();
        if (order !== undefined && (oldest === undefined || order < oldest.oldestOrder()!)) oldest = store;
      }
      if (!oldest) return;
      oldest.dropOldest();
    }
  }
}

/**
 * The last messages of one session's SSE streams, so a client that lost its connection can
 * reconnect with `Last-Event-ID` and get what it missed (the SDK's resumability). Bounded in
 * messages and in bytes, per session and (through a shared {@link ReplayBudget}) for the whole
 * server. Always the oldest goes first, so what is kept is an unbroken tail: a resume from a kept
 * id gets everything after it, and a resume from a dropped id is refused rather than given a gap.
 */
export class SessionEventStore implements EventStore {
  private readonly events: StoredEvent[] = [];
  private head = 0;
  private held = 0;
  private next = 0;
  private readonly maxMessages: number;
  private readonly maxBytes: number;

  constructor(
    limits: ReplayLimits = {},
    private readonly budget: ReplayBudget = new ReplayBudget(Number.POSITIVE_INFINITY),
  ) {
    this.maxMessages = limits.maxMessages ?? REPLAY_DEFAULTS.maxMessages;
    this.maxBytes = limits.maxBytes ?? REPLAY_DEFAULTS.maxBytes;
    budget.join(this);
  }

  /** Bytes of JSON this session keeps now. */
  get bytes(): number {
    return this.held;
  }

  /** Messages this session keeps now. */
  get size(): number {
    return this.events.length - this.head;
  }

  async storeEvent(stream: StreamId, message: JSONRPCMessage): Promise<EventId> {
    const id = `${stream}_${(this.next++).toString(36)}`;
    const bytes = jsonSize(message);
    this.events.push({ id, stream, message, bytes, order: this.budget.added(bytes) });
    this.held += bytes;
    while (this.size > 0 && (this.size > this.maxMessages || this.held > this.maxBytes)) this.dropOldest();
    this.budget.trim();
    return id;
  }

  async getStreamIdForEventId(id: EventId): Promise<StreamId | undefined> {
    return this.find(id)?.stream;
  }

  async replayEventsAfter(
    lastEventId: EventId,
    { send }: { send: (id: EventId, message: JSONRPCMessage) => Promise<void> },
  ): Promise<StreamId> {
    const event = this.find(lastEventId);
    if (!event) return '';
    const after = this.events.slice(this.events.indexOf(event, this.head) + 1);
    for (const later of after) if (later.stream === event.stream) await send(later.id, later.message);
    return event.stream;
  }

  /** Forget everything (the session ended): its bytes leave the server's budget. */
  dispose(): void {
    this.budget.leave(this, this.held);
    this.events.length = 0;
    this.head = 0;
    this.held = 0;
  }

  /** @internal */
  oldestOrder(): number | undefined {
    return this.events[this.head]?.order;
  }

  /** @internal */
  dropOldest(): void {
    const event = this.events[this.head];
    if (!event) return;
    this.events[this.head++] = undefined as unknown as StoredEvent;
    this.held -= event.bytes;
    this.budget.dropped(event.bytes);
    // compact now and then rather than shifting on every drop
    if (this.head > 64 && this.head * 2 > this.events.length) {
      this.events.splice(0, this.head);
      this.head = 0;
    }
  }

  private find(id: EventId): StoredEvent | undefined {
    for (let i = this.head; i < this.events.length; i++) if (this.events[i]!.id === id) return this.events[i];
    return undefined;
  }
}

/**
 * The length of `value` as JSON, less the escapes, counted without serialising it: a big answer's
 * strings are only measured, so the count costs a walk over its structure rather than another
 * copy of a message that may be tens of megabytes.
 */
export function jsonSize(value: unknown): number {
  let size = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === 'string') size += item.length + 2;
    else if (typeof item === 'number' || typeof item === 'boolean') size += String(item).length;
    else if (item === null || item === undefined) size += 4;
    else if (Array.isArray(item)) {
      size += 2 + Math.max(0, item.length - 1);
      for (const element of item) stack.push(element);
    } else if (typeof item === 'object') {
      const entries = Object.entries(item);
      size += 2 + Math.max(0, entries.length - 1);
      for (const [key, element] of entries) {
        size += key.length + 3;
        stack.push(element);
      }
    }
  }
  return size;
}
