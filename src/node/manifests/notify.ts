import { open } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import { parseNote, type NotifyNote } from '../../process/notify-note.js';

export { parseNote, type NotifyNote };

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

  constructor(
    private readonly file: string,
    private readonly deliver: (note: NotifyNote) => void,
  ) {}

  start(): void {
    this.timer = setInterval(() => {
      this.reading = this.reading.then(() => this.poll());
    }, POLL_MS);
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
