import { toHex } from '../fs/hash/hex.js';
import { joinBytes } from '../fs/join-bytes.js';
import type { WorkspaceFs } from '../fs/types.js';
import { deltaResultSize, OFS_DELTA, readEntryHeader, REF_DELTA } from '../snapshots/delta.js';

/**
 * The inflated size of every object in a gitdir's packs, read from the pack index and each
 * entry's header, without inflating the objects: a blob's header states its size, and a delta's
 * first inflated bytes state the size of the object it makes. A clone checks these against its
 * caps before writing one file, so a small repository that expands to gigabytes is refused.
 */
export async function packObjectSizes(fs: WorkspaceFs, gitdir: string): Promise<Map<string, number>> {
  const sizes = new Map<string, number>();
  const dir = `${gitdir}/objects/pack`;
  for (const name of await fs.readdir(dir).catch(() => [] as string[])) {
    if (!name.endsWith('.idx')) continue;
    const idx = await fs.readFile(`${dir}/${name}`);
    const pack = await fs.readFile(`${dir}/${name.slice(0, -4)}.pack`);
    const entries = readIndex(idx).sort((a, b) => a.offset - b.offset);
    for (let i = 0; i < entries.length; i++) {
      const end = entries[i + 1]?.offset ?? pack.length - 20;
      sizes.set(entries[i]!.oid, await entrySize(pack, entries[i]!.offset, end));
    }
  }
  return sizes;
}

/** Object ids and pack offsets from a version 2 pack index. */
function readIndex(idx: Uint8Array): Array<{ oid: string; offset: number }> {
  const view = new DataView(idx.buffer, idx.byteOffset, idx.byteLength);
  if (view.getUint32(0) !== 0xff744f63 || view.getUint32(4) !== 2) throw new Error('unsupported pack index');
  const count = view.getUint32(8 + 255 * 4);
  const oids = 8 + 256 * 4;
  const offsets = oids + count * 20 + count * 4;
  const large = offsets + count * 4;
  const out: Array<{ oid: string; offset: number }> = [];
  for (let i = 0; i < count; i++) {
    let offset = view.getUint32(offsets + i * 4);
    if (offset & 0x80000000) {
      const at = large + (offset & 0x7fffffff) * 8;
      offset = view.getUint32(at) * 2 ** 32 + view.getUint32(at + 4);
    }
    out.push({ oid: toHex(idx.subarray(oids + i * 20, oids + i * 20 + 20)), offset });
  }
  return out;
}

async function entrySize(pack: Uint8Array, offset: number, end: number): Promise<number> {
  const { kind, size, dataStart } = readEntryHeader(pack, offset);
  if (kind !== OFS_DELTA && kind !== REF_DELTA) return size;
  return deltaResultSize(await inflatedHead(pack.subarray(dataStart, end)));
}

/** The first bytes a zlib stream inflates to; the rest is never produced. */
async function inflatedHead(deflated: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([deflated as BlobPart]).stream().pipeThrough(new DecompressionStream('deflate'));
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  try {
    while (length < 32) {
      const { value, done } = await reader.read();
      if (done || !value) break;
      chunks.push(value);
      length += value.length;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return joinBytes(chunks);
}
