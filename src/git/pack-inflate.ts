// @ts-expect-error pako (isomorphic-git's inflater, already in every bundle) ships no types; its shape is named below
import pakoUntyped from 'pako';

interface PakoInflate {
  push(data: Uint8Array, mode?: boolean | number): boolean;
  onData(chunk: Uint8Array): void;
  onEnd(status: number): void;
  ended: boolean;
  msg: string;
  strm: { avail_in: number };
}
const pako = pakoUntyped as { Inflate: new (options?: { chunkSize?: number }) => PakoInflate };

/** Input handed to the inflater per step; zeros inflate about a thousandfold, so this bounds one step's output too. */
const SLICE = 64 * 1024;
/** Output between two yields to the event loop, so one big object does not stall every other call. */
const YIELD_EVERY = 16 * 1024 * 1024;

/** Where one zlib stream in a pack ends, and how many bytes it inflated to. */
export interface Inflated {
  /** offset in the pack just past the compressed data */
  end: number;
  /** inflated length */
  length: number;
}

/**
 * Inflate the zlib stream that starts at `start` in `pack`, handing each piece of output to
 * `sink` as it comes (pieces are fresh buffers the sink may keep). Nothing is held beyond one
 * piece, so an object's size does not decide the memory used. Stops at the stream's end, or
 * with an error once the output passes `limit`.
 */
export async function inflateAt(
  pack: Uint8Array,
  start: number,
  sink: (piece: Uint8Array) => void,
  limit = Infinity,
): Promise<Inflated> {
  const inflator = new pako.Inflate({ chunkSize: SLICE });
  let length = 0;
  let sinceYield = 0;
  inflator.onData = (piece) => {
    length += piece.length;
    // a stream that inflates past its header's size is corrupt or hostile: stop, whatever it holds
    if (length > limit) throw new Error(`the object at offset ${start} inflates past its stated ${limit} bytes`);
    sinceYield += piece.length;
    sink(piece);
  };
  let status = 0;
  inflator.onEnd = (s) => {
    status = s;
  };
  let at = start;
  while (!inflator.ended) {
    if (at >= pack.length) throw new Error(`the pack ends inside the object at offset ${start}`);
    const slice = pack.subarray(at, Math.min(at + SLICE, pack.length));
    inflator.push(slice, false);
    if (inflator.ended) {
      if (status !== 0) throw new Error(`the object at offset ${start} does not inflate: ${inflator.msg || status}`);
      return { end: at + slice.length - inflator.strm.avail_in, length };
    }
    at += slice.length;
    if (sinceYield >= YIELD_EVERY) {
      sinceYield = 0;
      await new Promise((r) => setTimeout(r, 0));
    }
  }
  throw new Error(`the object at offset ${start} does not inflate`);
}

/** Inflate a stream whose length is known into one buffer of exactly that length. */
export async function inflateWhole(pack: Uint8Array, start: number, size: number): Promise<Uint8Array> {
  const out = new Uint8Array(size);
  let at = 0;
  await inflateAt(
    pack,
    start,
    (piece) => {
      out.set(piece, at);
      at += piece.length;
    },
    size,
  );
  if (at !== size) throw new Error(`the object at offset ${start} inflates to ${at} bytes, not its stated ${size}`);
  return out;
}

/**
 * Apply a git delta to `base`, handing the result to `sink` in pieces that are views of the
 * base and the delta: the result itself is never built, so hashing a huge one costs nothing
 * beyond its inputs. Returns the result's length.
 */
export function applyDelta(base: Uint8Array, delta: Uint8Array, sink: (piece: Uint8Array) => void): number {
  let at = 0;
  const varint = () => {
    let value = 0;
    let scale = 1;
    let byte: number;
    do {
      byte = delta[at++]!;
      value += (byte & 0x7f) * scale;
      scale *= 128;
    } while (byte & 0x80);
    return value;
  };
  if (varint() !== base.length) throw new Error('a delta does not match the size of its base');
  const resultSize = varint();
  let written = 0;
  while (at < delta.length) {
    const op = delta[at++]!;
    if (op & 0x80) {
      let offset = 0;
      let size = 0;
      for (let bit = 0; bit < 4; bit++) if (op & (1 << bit)) offset += delta[at++]! * 2 ** (8 * bit);
      for (let bit = 0; bit < 3; bit++) if (op & (0x10 << bit)) size += delta[at++]! << (8 * bit);
      if (size === 0) size = 0x10000;
      if (offset + size > base.length) throw new Error('a delta copies past the end of its base');
      sink(base.subarray(offset, offset + size));
      written += size;
    } else if (op > 0) {
      if (at + op > delta.length) throw new Error('a delta inserts past its own end');
      sink(delta.subarray(at, at + op));
      at += op;
      written += op;
    } else throw new Error('a delta holds the reserved opcode 0');
  }
  if (written !== resultSize) throw new Error('a delta makes a different size than it states');
  return written;
}

/** The result size a delta states, from its first inflated bytes. */
export function deltaResultSize(head: Uint8Array): number {
  let at = 0;
  const varint = () => {
    let value = 0;
    let scale = 1;
    let byte: number;
    do {
      byte = head[at++] ?? 0;
      value += (byte & 0x7f) * scale;
      scale *= 128;
    } while (byte & 0x80 && at < head.length);
    return value;
  };
  varint();
  return varint();
}
