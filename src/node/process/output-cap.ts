/** Bytes of each stream a result keeps by default (head and tail together). */
export const DEFAULT_OUTPUT_CAP = 16 * 1024;

/** A capped stream as a result shows it. */
export interface CappedText {
  text: string;
  truncated: boolean;
  total_bytes: number;
}

/**
 * Collects a stream of any size in bounded memory: the first half of the cap and a rolling
 * last half, so a command that prints 100 MB costs 16 KiB and still shows how it began and ended.
 */
export class CappedOutput {
  private readonly headCap: number;
  private readonly tailCap: number;
  private head: Buffer[] = [];
  private headLen = 0;
  private tail: Buffer[] = [];
  private tailLen = 0;
  private total = 0;

  constructor(cap: number = DEFAULT_OUTPUT_CAP) {
    this.headCap = Math.ceil(cap / 2);
    this.tailCap = cap - this.headCap;
  }

  get totalBytes(): number {
    return this.total;
  }

  push(chunk: Buffer): void {
    this.total += chunk.length;
    let rest = chunk;
    if (this.headLen < this.headCap) {
      const take = Math.min(this.headCap - this.headLen, rest.length);
      this.head.push(rest.subarray(0, take));
      this.headLen += take;
      rest = rest.subarray(take);
    }
    if (rest.length === 0) return;
    if (rest.length > this.tailCap) rest = rest.subarray(rest.length - this.tailCap);
    this.tail.push(rest);
    this.tailLen += rest.length;
    // Drop whole chunks only while what is left still fills the tail.
    while (this.tail.length > 1 && this.tailLen - this.tail[0]!.length >= this.tailCap) {
      this.tailLen -= this.tail.shift()!.length;
    }
  }

  /** The text so far; a cut is marked in the text itself, with how much was left out. */
  read(): CappedText {
    const head = Buffer.concat(this.head);
    const tailAll = Buffer.concat(this.tail);
    if (this.total <= this.headCap + this.tailCap) {
      return { text: Buffer.concat([head, tailAll]).toString('utf8'), truncated: false, total_bytes: this.total };
    }
    const headBytes = head.subarray(0, completeUtf8Length(head));
    let tail = tailAll.subarray(tailAll.length - this.tailCap);
    let skip = 0;
    while (skip < tail.length && skip < 4 && (tail[skip]! & 0xc0) === 0x80) skip++;
    tail = tail.subarray(skip);
    const cut = this.total - headBytes.length - tail.length;
    const marker = `\n[... ${cut} bytes cut: the stream was ${this.total} bytes; its first and last parts are shown ...]\n`;
    return {
      text: headBytes.toString('utf8') + marker + tail.toString('utf8'),
      truncated: true,
      total_bytes: this.total,
    };
  }

  /** Start over (for "new output since the last read"). */
  reset(): void {
    this.head = [];
    this.headLen = 0;
    this.tail = [];
    this.tailLen = 0;
    this.total = 0;
  }
}

// Length of `bytes` without a multi-byte character cut off at its end.
function completeUtf8Length(bytes: Buffer): number {
  let i = bytes.length;
  let back = 0;
  while (i > 0 && back < 4 && (bytes[i - 1]! & 0xc0) === 0x80) {
    i--;
    back++;
  }
  if (i === 0) return bytes.length;
  const lead = bytes[i - 1]!;
  const need = lead >= 0xf0 ? 3 : lead >= 0xe0 ? 2 : lead >= 0xc0 ? 1 : 0;
  return need > back ? i - 1 : bytes.length;
}
