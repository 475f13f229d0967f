/** Bytes kept of each stream when the host names no cap, as on Node (head and tail). */
export const DEFAULT_SHELL_OUTPUT_CAP = 16 * 1024;

/** Keeps the first and last halves of a stream once it grows past the cap, with a marker between. */
export class OutputCap {
  private head = '';
  private tail = '';
  private dropped = 0;

  constructor(private readonly cap = DEFAULT_SHELL_OUTPUT_CAP) {}

  get truncated(): boolean {
    return this.dropped > 0;
  }

  write(text: string): void {
    const half = this.cap >> 1;
    if (this.dropped === 0 && this.head.length + text.length <= this.cap) {
      this.head += text;
      return;
    }
    if (this.dropped === 0) {
      const all = this.head + text;
      this.head = all.slice(0, half);
      this.tail = all.slice(half);
      this.dropped = 0;
    } else this.tail += text;
    if (this.tail.length > half) {
      this.dropped += this.tail.length - half;
      this.tail = this.tail.slice(-half);
    }
    if (this.dropped === 0) this.dropped = 1;
  }

  text(): string {
    return this.dropped ? `${this.head}\n[... ${this.dropped} characters left out ...]\n${this.tail}` : this.head;
  }
}
