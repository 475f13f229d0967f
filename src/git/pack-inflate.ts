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
