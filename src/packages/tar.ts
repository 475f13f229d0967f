import { PackageError } from './errors.js';

/** One file of a package tarball, its path relative to the package folder. */
export interface TarFile {
  path: string;
  data: Uint8Array;
  executable: boolean;
}

/** Inflate gzip with the platform's own DecompressionStream (no WebAssembly, no zlib port). */
export async function gunzip(data: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([data as BlobPart]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

const decoder = new TextDecoder();

function text(block: Uint8Array, start: number, length: number): string {
  const field = block.subarray(start, start + length);
  const end = field.indexOf(0);
  return decoder.decode(end === -1 ? field : field.subarray(0, end));
}

function octal(block: Uint8Array, start: number, length: number): number {
  // GNU base-256 for sizes past 8 GiB: the top bit of the first byte is set.
  if (block[start]! & 0x80) {
    let value = 0;
    for (let i = start + 1; i < start + length; i++) value = value * 256 + block[i]!;
    return value;
  }
  const t = text(block, start, length).trim();
  return t ? Number.parseInt(t, 8) : 0;
}

/** pax extended header records (`LEN key=value\n`); only `path` matters for a package. */
function paxPath(data: Uint8Array): string | undefined {
  const records = decoder.decode(data);
  let at = 0;
  let found: string | undefined;
  while (at < records.length) {
    const space = records.indexOf(' ', at);
    if (space === -1) break;
    const length = Number(records.slice(at, space));
    if (!length) break;
    const record = records.slice(space + 1, at + length - 1);
    const eq = record.indexOf('=');
    if (record.slice(0, eq) === 'path') found = record.slice(eq + 1);
    at += length;
  }
  return found;
}

/**
 * The path inside the package: npm drops the tarball's first folder (`package/`). A path that
 * would leave the package (`..`, absolute, a drive) is refused, naming the package.
 */
function packagePath(name: string, raw: string): string | null {
  const parts = raw.replace(/\\/g, '/').split('/');
  if (raw.startsWith('/') || /^[A-Za-z]:/.test(raw)) throw escaping(name, raw);
  const rest = parts.slice(1).filter((p) => p !== '' && p !== '.');
  if (rest.some((p) => p === '..')) throw escaping(name, raw);
  return rest.length ? rest.join('/') : null;
}

const escaping = (name: string, raw: string) =>
  new PackageError('OUTSIDE_WORKSPACE', name, `its tarball holds a path outside the package ('${raw}'); refused`);

/**
 * The regular files of a package tarball (ustar, pax long names, GNU long names). Links,
 * devices and FIFOs are skipped, as npm skips them; folders are implied by the files' paths.
 */
export function readTar(name: string, tar: Uint8Array): TarFile[] {
  const files: TarFile[] = [];
  let at = 0;
  let longName: string | undefined;
  while (at + 512 <= tar.length) {
    const header = tar.subarray(at, at + 512);
    if (header.every((b) => b === 0)) break;
    const size = octal(header, 124, 12);
    const type = String.fromCharCode(header[156]!);
    const body = tar.subarray(at + 512, at + 512 + size);
    at += 512 + Math.ceil(size / 512) * 512;
    if (type === 'x') {
      longName = paxPath(body) ?? longName;
      continue;
    }
    if (type === 'L') {
      longName = text(body, 0, body.length);
      continue;
    }
    if (type === 'g') continue;
    const magic = text(header, 257, 6);
    const prefix = magic.startsWith('ustar') ? text(header, 345, 155) : '';
    const raw = longName ?? (prefix ? `${prefix}/${text(header, 0, 100)}` : text(header, 0, 100));
    longName = undefined;
    if (type !== '0' && type !== '\0' && type !== '7') continue;
    const path = packagePath(name, raw);
    if (!path) continue;
    files.push({ path, data: body.slice(), executable: (octal(header, 100, 8) & 0o111) !== 0 });
  }
  return files;
}
