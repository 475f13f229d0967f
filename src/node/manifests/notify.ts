import { open } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';

/** One line a tool appended to its notify file. */
export interface NotifyNote {
  text: string;
  /** JSON lines may ask to wake an idle agent */
  wake: boolean;
}

/** A plain line is a note; a JSON object line gives `text` and `wake`. */
export function parseNote(line: string): NotifyNote | null {
  const trimmed = line.trim();
  if (trimmed === '') return null;
  if (trimmed.startsWith('{')) {
    try {
      const value = JSON.parse(trimmed) as { text?: unknown; wake?: unknown };
      if (typeof value.text === 'string') return { text: value.text, wake: value.wake === true };
    } catch {
      // Not JSON after all: deliver it as written.
    }
  }
  return { text: trimmed, wake: false };
}

const POLL_MS = 100;

/**
 * Follow a notify file while a tool runs, delivering each complete line. Polling keeps it
 * portable (file watchers differ by platform and miss appends on some filesystems).
 */
export class NotifyTail {
  private offset = 0;
  private partial = '';
  private readonly decoder = new StringDecoder('utf8');
  private timer: NodeJS.Timeout | null = null;
  private reading: Promise<void> = Promise.resolve();

  constructor(private readonly file: string, private readonly deliver: (note: NotifyNote) => void) {}

  start(): void {
    this.timer = setInterval(() => { this.reading = this.reading.then(() => this.poll()); }, POLL_MS);
  }

  /** Stop following; lines written before this are still delivered. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.reading = this.reading.then(() => this.poll());
    await this.reading;
    if (this.partial !== '') this.emit(this.partial);
    this.partial = '';
  }

  private async poll(): Promise<void> {
    let handle;
    try {
      handle = await open(this.file, 'r');
    } catch {
      return;
    }
    try {
      for (;;) {
        const buffer = Buffer.alloc(64 * 1024);
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, this.offset);
        if (bytesRead === 0) break;
        this.offset += bytesRead;
        const lines = (this.partial + this.decoder.write(buffer.subarray(0, bytesRead))).split('\n');
        this.partial = lines.pop() ?? '';
        for (const line of lines) this.emit(line);
      }
    } finally {
      await handle.close();
    }
  }

  private emit(line: string): void {
    const note = parseNote(line);
    if (note) this.deliver(note);
  }
}
