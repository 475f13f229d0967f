import type { GitHttpRequest, GitHttpResponse, HttpClient } from 'isomorphic-git';
import type { WorkspaceFs } from '../fs/types.js';
import { PackIndexer, type IndexedPack, type IndexPackOptions } from './index-pack.js';
import { packObjectSizes } from './pack-sizes.js';
import { http } from './transport.js';
import { Sha1Stream } from './sha1-stream.js';

/** An HTTP client for one fetch that keeps the pack for Sandpit's own indexer. */
export interface PackCapture {
  http: HttpClient;
  /** the pack the fetch received (null when it received none), once the fetch has returned */
  pack(): Uint8Array | null;
  /** the pack indexed (its entries read while it arrived), once the fetch has returned; null without a pack */
  indexed(): Promise<IndexedPack> | null;
}

const EMPTY_PACK = (() => {
  const head = new Uint8Array([0x50, 0x41, 0x43, 0x4b, 0, 0, 0, 2, 0, 0, 0, 0]);
  const sum = new Sha1Stream().update(head).hex();
  const out = new Uint8Array(32);
  out.set(head);
  for (let i = 0; i < 20; i++) out[12 + i] = parseInt(sum.slice(i * 2, i * 2 + 2), 16);
  return out;
})();

/**
 * isomorphic-git's fetch inflates every object of the pack it receives, whole, to index it: a
 * small repository holding gigabytes of zeros takes gigabytes of memory before any cap is
 * checked. This client takes the pack out of the upload-pack answer and hands isomorphic-git an
 * empty one instead, so it indexes nothing; the clone then indexes the real pack itself
 * (`indexPack`), streaming, and reads each object's size before anything is inflated whole.
 * The entries are read as their bytes arrive, while the server is still sending the rest, as
 * `git clone` does: a clone's indexing no longer waits for the whole answer. Everything else in
 * the answer (shallow lines, acknowledgements, progress, errors) is passed on.
 */
export function capturePack(options: IndexPackOptions): PackCapture {
  let captured: Uint8Array | null = null;
  let indexed: Promise<IndexedPack> | null = null;
  const request = async (req: GitHttpRequest): Promise<GitHttpResponse> => {
    const res = await http.request(req);
    if (req.method !== 'POST' || !req.url.endsWith('/git-upload-pack') || res.statusCode !== 200 || !res.body)
      return res;
    const receiver = new PackReceiver(new PackIndexer(options));
    const answer = new AnswerSplitter((payload) => receiver.push(payload));
    for await (const chunk of res.body) answer.push(chunk);
    const rest = answer.end();
    const pack = await receiver.end();
    captured = pack;
    if (pack) {
      indexed = receiver.finish(pack);
      // awaited by storePack; a fetch that fails after this must not leave it unhandled
      indexed.catch(() => {});
    }
    return {
      ...res,
      body: (async function* () {
        yield rest;
      })(),
    };
  };
  return { http: { request }, pack: () => captured, indexed: () => indexed };
}

/**
 * Index a captured pack in bounded memory and put it in `gitdir`; the sizes it gives are what
 * caps are checked against, and its reader gives files their bytes. Without a captured pack (an
 * answer the capture passed on whole) isomorphic-git has indexed it, and the sizes come from
 * its index.
 */
export async function storePack(
  fs: WorkspaceFs,
  gitdir: string,
  capture: PackCapture,
): Promise<Pick<IndexedPack, 'sizes'> & Partial<IndexedPack>> {
  const pack = capture.pack();
  const indexing = capture.indexed();
  if (!pack || !indexing) return { sizes: await packObjectSizes(fs, gitdir) };
  const indexed = await indexing;
  const base = `${gitdir}/objects/pack/pack-${indexed.sha}`;
  // the pack before its index: readers find packs through their .idx files
  await fs.writeFile(`${base}.pack`, pack);
  await fs.writeFile(`${base}.idx`, indexed.idx);
  return indexed;
}

/**
 * The pack as it arrives: its bytes hashed as they come (all but the last 20, its checksum) and
 * gathered in one growing buffer that the indexer reads whenever it is not already reading. Past
 * STREAM_LIMIT the rest is kept as it came and joined once at the end, as before streaming, so a
 * big pack costs no more memory than it did (two copies at most), only its first part is read early.
 */
export class PackReceiver {
  private bytes = new Uint8Array(64 * 1024);
  private length = 0;
  /** the pack's pieces once it outgrew STREAM_LIMIT, the growing buffer's part first */
  private pieces: Uint8Array[] | null = null;
  private readonly sum = new Sha1Stream();
  private hashed = 0;
  /** the newest bytes, at most 20, not hashed yet: they may be the checksum */
  private unhashed: Uint8Array = new Uint8Array(0);
  private digest: string | undefined;
  private reading: Promise<void> | null = null;
  private more = false;

  constructor(private readonly indexer: PackIndexer) {}

  push(payload: Uint8Array): void {
    if (!this.pieces && this.length + payload.length > STREAM_LIMIT)
      this.pieces = [this.bytes.subarray(0, this.length)];
    if (this.pieces) {
      this.pieces.push(payload);
      this.hashUpTo(payload);
      this.length += payload.length;
      return;
    }
    if (this.length + payload.length > this.bytes.length) {
      const grown = new Uint8Array(Math.max(this.length + payload.length, this.bytes.length * 2));
      grown.set(this.bytes.subarray(0, this.length));
      this.bytes = grown;
    }
    this.bytes.set(payload, this.length);
    this.hashUpTo(payload);
    this.length += payload.length;
    this.read();
  }

  /** The whole pack (null if none came), once the indexer has read what it could of it. */
  async end(): Promise<Uint8Array | null> {
    while (this.reading) await this.reading;
    if (this.length === 0) return null;
    if (!this.pieces) return this.bytes.subarray(0, this.length);
    const out = new Uint8Array(this.length);
    let at = 0;
    for (const piece of this.pieces) {
      out.set(piece, at);
      at += piece.length;
    }
    this.pieces = null;
    this.bytes = new Uint8Array(0);
    return out;
  }

  finish(pack: Uint8Array): Promise<IndexedPack> {
    return this.indexer.finish(pack, this.checksum(pack));
  }

  /** The SHA-1 of all of `pack` but its last 20 bytes, as hashed while it came; undefined if it was not. */
  checksum(pack: Uint8Array): string | undefined {
    if (pack.length < 20 || this.hashed !== pack.length - 20) return undefined;
    // hex() pads the hash it finishes: taken once
    this.digest ??= this.sum.hex();
    return this.digest;
  }

  /** Hash what has come but the last 20 bytes, which are the checksum if nothing follows. */
  private hashUpTo(payload: Uint8Array): void {
    const total = this.unhashed.length + payload.length;
    if (total <= 20) {
      this.unhashed = concat(this.unhashed, payload);
      return;
    }
    const fromPayload = total - 20 - this.unhashed.length;
    if (fromPayload >= 0) {
      this.sum.update(this.unhashed);
      this.sum.update(payload.subarray(0, fromPayload));
      this.unhashed = payload.slice(fromPayload);
    } else {
      const cut = this.unhashed.length + fromPayload;
      this.sum.update(this.unhashed.subarray(0, cut));
      this.unhashed = concat(this.unhashed.subarray(cut), payload);
    }
    this.hashed += total - 20;
  }

  /** Let the indexer read what has come; one read at a time, again if more came meanwhile. */
  private read(): void {
    if (this.reading) {
      this.more = true;
      return;
    }
    this.reading = (async () => {
      do {
        this.more = false;
        // a view of what has come: the buffer may be replaced by a bigger one while it reads
        await this.indexer.advance(this.bytes.subarray(0, this.length));
      } while (this.more && !this.pieces);
      this.reading = null;
    })();
  }
}

/** Past this many bytes of a pack, the rest is not read while it arrives (see PackReceiver). */
const STREAM_LIMIT = 8 * 1024 * 1024;

/**
 * Splits a side-band answer, as it arrives, into the pack (band 1, handed on piece by piece) and
 * the rest, where the pack's first packet becomes one packet holding an empty pack. An answer
 * without a band-1 packet (an error, nothing to send) is passed on whole; so is everything after
 * a length that does not parse.
 */
export class AnswerSplitter {
  private readonly kept: Uint8Array[] = [];
  private keptLength = 0;
  private sawPack = false;
  private broken = false;
  /** the start of a packet whose length (4 bytes) and band (1 byte) have not all come */
  private head: Uint8Array = new Uint8Array(0);
  /** bytes of the current packet still to come after its head, and where they go */
  private left = 0;
  private inPack = false;

  constructor(private readonly onPack: (payload: Uint8Array) => void) {}

  /**
   * Take the next bytes of the answer. A pack packet's payload is handed on as its pieces come,
   * never joined: a packet is up to 64 KiB and the network may cut it into many pieces.
   */
  push(chunk: Uint8Array): void {
    let at = 0;
    while (at < chunk.length) {
      if (this.broken) {
        this.keep(chunk.slice(at));
        return;
      }
      if (this.left > 0) {
        const piece = chunk.subarray(at, at + this.left);
        if (this.inPack) this.onPack(piece);
        else this.keep(piece.slice());
        this.left -= piece.length;
        at += piece.length;
        continue;
      }
      // the packet's head: its length, then (for a packet with a payload) its band
      const want = this.head.length < 4 ? 4 : 5;
      const taken = chunk.subarray(at, at + want - this.head.length);
      this.head = concat(this.head, taken);
      at += taken.length;
      if (this.head.length < want) return;
      const size = parseInt(new TextDecoder().decode(this.head.subarray(0, 4)), 16);
      if (!Number.isFinite(size)) {
        // everything from here on is passed on as it came
        this.broken = true;
        this.keep(this.head);
        this.head = new Uint8Array(0);
        continue;
      }
      // a flush, delimiter or empty packet is its length alone
      if (size <= 4) {
        this.keep(this.head);
        this.head = new Uint8Array(0);
        continue;
      }
      if (this.head.length < 5) continue;
      this.inPack = this.head[4] === 1;
      if (this.inPack) {
        if (!this.sawPack) this.keep(pktLine(EMPTY_PACK));
        this.sawPack = true;
      } else this.keep(this.head);
      this.head = new Uint8Array(0);
      this.left = size - 5;
    }
  }

  /** What isomorphic-git is to read: the answer without its pack. A packet cut short by the answer's end is passed on as it came. */
  end(): Uint8Array {
    if (this.head.length > 0) this.keep(this.head);
    const out = new Uint8Array(this.keptLength);
    let at = 0;
    for (const part of this.kept) {
      out.set(part, at);
      at += part.length;
    }
    return out;
  }

  private keep(bytes: Uint8Array): void {
    this.kept.push(bytes);
    this.keptLength += bytes.length;
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

function pktLine(payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(5 + payload.length);
  out.set(new TextEncoder().encode((5 + payload.length).toString(16).padStart(4, '0')));
  out[4] = 1;
  out.set(payload, 5);
  return out;
}
