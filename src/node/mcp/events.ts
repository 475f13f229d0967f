import type { EventId, EventStore, StreamId } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/**
 * The last messages of one session's SSE streams, so a client that lost its connection can
 * reconnect with `Last-Event-ID` and get what it missed (the SDK's resumability). Bounded: a
 * session keeps at most `max` messages, oldest dropped first.
 */
export class SessionEventStore implements EventStore {
  private readonly events: Array<{ id: EventId; stream: StreamId; message: JSONRPCMessage }> = [];
  private next = 0;

  constructor(private readonly max = 1000) {}

  async storeEvent(stream: StreamId, message: JSONRPCMessage): Promise<EventId> {
    const id = `${stream}_${(this.next++).toString(36)}`;
    this.events.push({ id, stream, message });
    if (this.events.length > this.max) this.events.shift();
    return id;
  }

  async getStreamIdForEventId(id: EventId): Promise<StreamId | undefined> {
    return this.events.find((e) => e.id === id)?.stream;
  }

  async replayEventsAfter(
    lastEventId: EventId,
    { send }: { send: (id: EventId, message: JSONRPCMessage) => Promise<void> },
  ): Promise<StreamId> {
    const at = this.events.findIndex((e) => e.id === lastEventId);
    if (at === -1) return '';
    const stream = this.events[at]!.stream;
    for (const event of this.events.slice(at + 1)) if (event.stream === stream) await send(event.id, event.message);
    return stream;
  }
}
