/** One server-sent event: its `event:` name (default `message`) and its joined `data:` lines. */
export interface SseEvent {
  /** the event's name (`message` when the stream names none) */
  event: string;
  /** its data lines, joined */
  data: string;
}

/**
 * Read server-sent events from a fetch body as they arrive. Follows the HTML spec's framing:
 * lines end in LF, CRLF or CR (a chunk may split any of them), `:` starts a comment, several
 * `data:` lines join with LF, and a blank line ends an event.
 */
export async function* readSse(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let event = '';
  let data: string[] = [];
  let sawCr = false;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      // A CR at the end of one chunk and an LF at the start of the next are one line ending.
      if (sawCr && buffer.startsWith('\n')) buffer = buffer.slice(1);
      sawCr = false;
      let at: number;
      while ((at = buffer.search(/[\r\n]/)) !== -1) {
        const line = buffer.slice(0, at);
        if (buffer[at] === '\r' && at + 1 === buffer.length && !done) {
          sawCr = true;
          buffer = '';
        } else {
          buffer = buffer.slice(at + (buffer[at] === '\r' && buffer[at + 1] === '\n' ? 2 : 1));
        }
        if (line === '') {
          if (data.length > 0) yield { event: event || 'message', data: data.join('\n') };
          event = '';
          data = [];
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon === -1 ? line : line.slice(0, colon);
        let value = colon === -1 ? '' : line.slice(colon + 1);
        if (value.startsWith(' ')) value = value.slice(1);
        if (field === 'data') data.push(value);
        else if (field === 'event') event = value;
      }
      if (done) break;
    }
    // A stream that ends without the final blank line still delivers its last event.
    if (buffer !== '' && buffer.startsWith('data')) data.push(buffer.replace(/^data: ?/, ''));
    if (data.length > 0) yield { event: event || 'message', data: data.join('\n') };
  } finally {
    // A consumer that stops early (a stop, an error event) must not leave the connection open.
    await reader.cancel().catch(() => {});
  }
}
