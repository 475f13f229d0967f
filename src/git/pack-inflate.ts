// @ts-expect-error pako's zlib port (pako is isomorphic-git's inflater, already in every bundle), which ships no types
import zlibUntyped from 'pako/lib/zlib/inflate.js';
// @ts-expect-error as above
import ZStreamUntyped from 'pako/lib/zlib/zstream.js';
import { platformNative } from '../fs/platform-native.js';
import { yieldToHost } from '../workspace/host-yield.js';

/** pako's zlib port, driven directly: one stream state reset per object instead of a new one. */
interface ZStream {
  input: Uint8Array | null;
  next_in: number;
  avail_in: number;
  total_in: number;
  output: Uint8Array | null;
  next_out: number;
  avail_out: number;
  total_out: number;
  msg: string;
}
const zlib = zlibUntyped as {
  inflateInit2(strm: ZStream, windowBits: number): number;
  inflateReset(strm: ZStream): number;
  inflate(strm: ZStream, flush: number): number;
};
const ZStreamClass = ZStreamUntyped as new () => ZStream;

/** The part of pako 1's inflate state a reset sets (lib/zlib/inflate.js, inflateReset and inflateResetKeep). */
interface InflateState {
  wsize: number;
  whave: number;
  wnext: number;
  total: number;
  wrap: number;
  mode: number;
  last: number;
  havedict: number;
  dmax: number;
  head: unknown;
  hold: number;
  bits: number;
  lencode: Int32Array;
  lendyn: Int32Array;
  distcode: Int32Array;
  distdyn: Int32Array;
  sane: number;
  back: number;
}
/** pako's HEAD: waiting for the zlib header */
const HEAD = 1;

/**
 * pako's inflateReset without the two code tables it allocates anew on every reset (zlib in C
 * keeps its tables; every block that uses them builds them first): in a browser, allocating them
 * cost a small object about as much as inflating it. A state not shaped as expected is reset by pako.
 */
function resetKeepingTables(strm: ZStream): void {
  const state = (strm as ZStream & { state?: InflateState }).state;
  if (!(state?.lendyn instanceof Int32Array && state.distdyn instanceof Int32Array && state.mode !== undefined)) {
    zlib.inflateReset(strm);
    return;
  }
  state.wsize = state.whave = state.wnext = 0;
  strm.total_in = strm.total_out = state.total = 0;
  strm.msg = '';
  if (state.wrap) (strm as ZStream & { adler: number }).adler = state.wrap & 1;
  state.mode = HEAD;
  state.last = state.havedict = 0;
  state.dmax = 32768;
  state.head = null;
  state.hold = state.bits = 0;
  state.lencode = state.lendyn;
  state.distcode = state.distdyn;
  state.sane = 1;
  state.back = -1;
}
const Z_STREAM_END = 1;

const Z_BUF_ERROR = -5;

/** Output of one step: the piece a sink sees; zeros inflate about a thousandfold, so input does not bound it. */
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

/** A zlib stream state over the pack's bytes from `start` to its end. */
function streamAt(pack: Uint8Array, start: number): ZStream {
  const strm = new ZStreamClass();
  zlib.inflateInit2(strm, 15);
  strm.input = pack;
  strm.next_in = start;
  strm.avail_in = pack.length - start;
  return strm;
}

/** One call of zlib's inflate writing at most `room` bytes into `output` from `at`: its status and the bytes made. */
function step(strm: ZStream, output: Uint8Array, at: number, room: number): { status: number; made: number } {
  strm.output = output;
  strm.next_out = at;
  strm.avail_out = room;
  const status = zlib.inflate(strm, 0);
  return { status, made: room - strm.avail_out };
}

/** The error for a step that made nothing and did not end the stream. */
function stuck(strm: ZStream, status: number, start: number): Error {
  if (status === Z_BUF_ERROR || (status >= 0 && strm.avail_in === 0))
    return new Error(`the pack ends inside the object at offset ${start}`);
  return new Error(`the object at offset ${start} does not inflate: ${strm.msg || status}`);
}

/**
 * Inflate the zlib stream that starts at `start` in `pack`, handing each piece of output to
 * `sink` as it comes. A piece is valid only during the call (the next one is written over it):
 * nothing is allocated per piece, so an object's size decides neither the memory held nor the
 * garbage made. Stops at the stream's end, or with an error once the output passes `limit`.
 */
export async function inflateAt(
  pack: Uint8Array,
  start: number,
  sink: (piece: Uint8Array) => void,
  limit = Infinity,
): Promise<Inflated> {
  const strm = streamAt(pack, start);
  const piece = new Uint8Array(SLICE);
  let length = 0;
  let sinceYield = 0;
  for (;;) {
    const { status, made } = step(strm, piece, 0, SLICE);
    length += made;
    // a stream that inflates past its header's size is corrupt or hostile: stop, whatever it holds
    if (length > limit) throw new Error(`the object at offset ${start} inflates past its stated ${limit} bytes`);
    if (made > 0) sink(piece.subarray(0, made));
    if (status === Z_STREAM_END) return { end: strm.next_in, length };
    if (status < 0 || made === 0) throw stuck(strm, status, start);
    sinceYield += made;
    if (sinceYield >= YIELD_EVERY) {
      sinceYield = 0;
      await yieldToHost();
    }
  }
}

/**
 * Inflate a stream whose length is known straight into one buffer of exactly that length: no
 * piece is made and copied, so a big object costs one copy of itself, not two and its garbage.
 */
export async function inflateWhole(pack: Uint8Array, start: number, size: number): Promise<Uint8Array> {
  const strm = streamAt(pack, start);
  const out = new Uint8Array(size);
  let at = 0;
  while (at < size) {
    const { status, made } = step(strm, out, at, Math.min(size - at, YIELD_EVERY));
    at += made;
    if (status === Z_STREAM_END) {
      if (at !== size) throw new Error(`the object at offset ${start} inflates to ${at} bytes, not its stated ${size}`);
      return out;
    }
    if (status < 0 || made === 0) throw stuck(strm, status, start);
    if (at < size) await yieldToHost();
  }
  // full: the stream must end here, with not one byte more
  const { status, made } = step(strm, new Uint8Array(1), 0, 1);
  if (made > 0) throw new Error(`the object at offset ${start} inflates past its stated ${size} bytes`);
  if (status !== Z_STREAM_END) throw stuck(strm, status, start);
  return out;
}

/** Objects up to this size inflate whole, in one step, into a buffer of their size (see WholeInflater). */
export const WHOLE_LIMIT = 1024 * 1024;

/**
 * Inflates many small zlib streams of one pack, each whole into a buffer of its stated size: the
 * host's zlib where an entry installed it (Node), else one pako stream state reset for every
 * object. A new pako inflater per object allocated its 64 KiB output buffer and its window each
 * time, which was most of a clone's inflate time for source files of a kilobyte. Only for sizes up
 * to WHOLE_LIMIT: bigger objects go through `inflateAt`, a piece at a time.
 */
export class WholeInflater {
  private strm: ZStream | null = null;
  private readonly native = platformNative()?.inflatePrefix;

  /** The stream at `start` inflated into exactly `size` bytes, and the offset just past it. */
  inflate(pack: Uint8Array, start: number, size: number): { data: Uint8Array; end: number } {
    if (this.native) {
      let out: { bytes: Uint8Array; read: number };
      try {
        out = this.native(pack.subarray(start), size);
      } catch (error) {
        throw new Error(`the object at offset ${start} does not inflate to its stated ${size} bytes: ${String(error)}`);
      }
      if (out.bytes.length !== size)
        throw new Error(`the object at offset ${start} inflates to ${out.bytes.length} bytes, not its stated ${size}`);
      return { data: out.bytes, end: start + out.read };
    }
    const strm = this.strm ?? this.open();
    resetKeepingTables(strm);
    const data = new Uint8Array(size);
    strm.input = pack;
    strm.next_in = start;
    strm.avail_in = pack.length - start;
    strm.output = data;
    strm.next_out = 0;
    strm.avail_out = size;
    // all of the object's input and room for all of its output: one call inflates it whole, so
    // no back-reference reaches past this call's output into the (reset) window
    const status = zlib.inflate(strm, 0);
    const end = strm.next_in;
    const left = strm.avail_out;
    strm.input = strm.output = null;
    if (status === Z_STREAM_END && left === 0) return { data, end };
    if (status === Z_STREAM_END)
      throw new Error(`the object at offset ${start} inflates to ${size - left} bytes, not its stated ${size}`);
    if (status >= 0 && left === 0)
      throw new Error(`the object at offset ${start} inflates past its stated ${size} bytes`);
    if (status >= 0) throw new Error(`the pack ends inside the object at offset ${start}`);
    throw new Error(`the object at offset ${start} does not inflate: ${strm.msg || status}`);
  }

  private open(): ZStream {
    const strm = new ZStreamClass();
    zlib.inflateInit2(strm, 15);
    this.strm = strm;
    return strm;
  }
}
