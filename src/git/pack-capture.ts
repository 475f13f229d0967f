import type { GitHttpRequest, GitHttpResponse, HttpClient } from 'isomorphic-git';
import type { WorkspaceFs } from '../fs/types.js';
import { indexPack, type IndexedPack, type IndexPackOptions } from './index-pack.js';
import { packObjectSizes } from './pack-sizes.js';
import { http } from './transport.js';
import { Sha1Stream } from './sha1-stream.js';

/** An HTTP client for one fetch that keeps the pack for Sandpit's own indexer. */
export interface PackCapture {
  http: HttpClient;
  /** the pack the fetch received (null when it received none), once the fetch has returned */
  pack(): Uint8Array | null;
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
 * Everything else in the answer (shallow lines, acknowledgements, progress, errors) is passed on.
 */
export function capturePack(): PackCapture {
  let captured: Uint8Array | null = null;
  const request = async (req: GitHttpRequest): Promise<GitHttpResponse> => {
    const res = await http.request(req);
    if (req.method !== 'POST' || !req.url.endsWith('/git-upload-pack') || res.statusCode !== 200 || !res.body)
      return res;
    const answer = await collect(res.body);
    const { rest, pack } = splitAnswer(answer);
    captured = pack;
    return {
      ...res,
      body: (async function* () {
        yield rest;
      })(),
    };
  };
  return { http: { request }, pack: () => captured };
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
  pack: Uint8Array | null,
  options: IndexPackOptions,
): Promise<Pick<IndexedPack, 'sizes'> & Partial<IndexedPack>> {
  if (!pack) return { sizes: await packObjectSizes(fs, gitdir) };
  const indexed = await indexPack(pack, options);
  const base = `${gitdir}/objects/pack/pack-${indexed.sha}`;
  // the pack before its index: readers find packs through their .idx files
  await fs.writeFile(`${base}.pack`, pack);
  await fs.writeFile(`${base}.idx`, indexed.idx);
  return indexed;
}

async function collect(body: AsyncIterableIterator<Uint8Array>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let length = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    length += chunk.length;
  }
  return join(chunks, length);
}

function join(chunks: Uint8Array[], length: number): Uint8Array {
  const out = new Uint8Array(length);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/**
 * Split a side-band answer into the pack (band 1, joined) and the rest, where the pack's first
 * packet becomes one packet holding an empty pack. An answer without a band-1 packet (an error,
 * nothing to send) is passed on whole.
 */
function splitAnswer(answer: Uint8Array): { rest: Uint8Array; pack: Uint8Array | null } {
  const kept: Uint8Array[] = [];
  const pack: Uint8Array[] = [];
  let packLength = 0;
  let keptLength = 0;
  const keep = (b: Uint8Array) => {
    kept.push(b);
    keptLength += b.length;
  };
  let at = 0;
  while (at + 4 <= answer.length) {
    const size = parseInt(new TextDecoder().decode(answer.subarray(at, at + 4)), 16);
    if (!Number.isFinite(size)) break;
    const length = size < 4 ? 4 : size;
    const packet = answer.subarray(at, at + length);
    if (size >= 5 && packet[4] === 1) {
      if (pack.length === 0) keep(pktLine(EMPTY_PACK));
      pack.push(packet.subarray(5));
      packLength += length - 5;
    } else keep(packet);
    at += length;
  }
  if (pack.length === 0) return { rest: answer, pack: null };
  if (at < answer.length) keep(answer.subarray(at));
  return { rest: join(kept, keptLength), pack: join(pack, packLength) };
}

function pktLine(payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(5 + payload.length);
  out.set(new TextEncoder().encode((5 + payload.length).toString(16).padStart(4, '0')));
  out[4] = 1;
  out.set(payload, 5);
  return out;
}
