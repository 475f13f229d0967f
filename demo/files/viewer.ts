import { HEX, toHex } from '../../src/fs/hash/hex.js';
import { el, formatSize } from '../page/dom.js';

/** The encodings read_file can decode, offered for a file that is not valid UTF-8. */
export const ENCODINGS = ['utf-8', 'utf-16le', 'utf-16be', 'latin1'] as const;
const IMAGE = /\.(png|jpe?g|gif|webp|avif|bmp|ico|svg)$/i;
const IMAGE_TYPES: Record<string, string> = { svg: 'image/svg+xml', jpg: 'image/jpeg', ico: 'image/x-icon' };
const HEX_BYTES = 4096;

async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>);
  return toHex(new Uint8Array(digest));
}

/** A classic hex dump: offset, sixteen bytes, and their printable ASCII. */
export function hexDump(bytes: Uint8Array, limit = HEX_BYTES): string {
  const lines: string[] = [];
  for (let at = 0; at < Math.min(bytes.length, limit); at += 16) {
    const row = [...bytes.subarray(at, Math.min(at + 16, bytes.length))];
    const hex = row
      .map((b) => HEX[b])
      .join(' ')
      .padEnd(47, ' ');
    const text = row.map((b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.')).join('');
    lines.push(`${at.toString(16).padStart(8, '0')}  ${hex}  ${text}`);
  }
  return lines.join('\n');
}

/**
 * UTF-16 without a byte-order mark reads as binary to the text tools (it is full of NUL bytes),
 * yet it is text: ASCII-range characters leave a NUL in every other byte. Says which order the
 * bytes are in when the NULs sit on one side and the whole file decodes, else null.
 */
export function guessUtf16(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | null {
  if (bytes.length < 2 || bytes.length % 2 === 1) return null;
  const sample = bytes.subarray(0, Math.min(bytes.length, 8192));
  let even = 0;
  let odd = 0;
  for (let i = 0; i < sample.length; i++) if (sample[i] === 0) i % 2 === 0 ? even++ : odd++;
  const pairs = sample.length / 2;
  const order = odd >= pairs / 2 && even === 0 ? 'utf-16le' : even >= pairs / 2 && odd === 0 ? 'utf-16be' : null;
  if (!order) return null;
  try {
    const text = new TextDecoder(order, { fatal: true, ignoreBOM: true }).decode(bytes);
    // Control characters other than tabs and line breaks mean bytes, not text.
    return /[\u0000-\u0008\u000e-\u001f]/.test(text) ? null : order;
  } catch {
    return null;
  }
}

export interface ViewerOptions {
  path: string;
  bytes: Uint8Array;
  /** why the editor could not open it as text: BINARY_FILE or DECODE_ERROR */
  reason: string;
  /** open the file as text in this encoding */
  openAs(encoding: string): void;
}

/**
 * What the editor pane shows for a file that is not UTF-8 text: an image as an image, other
 * bytes as a hex view with size and sha256, and for text in another encoding a picker that
 * opens it in the editor in that encoding.
 */
export async function renderViewer(host: HTMLElement, options: ViewerOptions): Promise<string> {
  const { path, bytes } = options;
  const box = el('div', undefined, 'viewer');
  const sha = await sha256Hex(bytes);
  const facts = el('p', `${formatSize(bytes.length)} · sha256 ${sha}`, 'viewer-facts mono');
  box.append(facts);
  let kind = 'Binary';
  if (IMAGE.test(path)) {
    kind = 'Image';
    const ext = path.slice(path.lastIndexOf('.') + 1).toLowerCase();
    const url = URL.createObjectURL(
      new Blob([bytes as Uint8Array<ArrayBuffer>], { type: IMAGE_TYPES[ext] ?? `image/${ext}` }),
    );
    const image = el('img', undefined, 'viewer-image');
    image.src = url;
    image.alt = `${path}, as an image`;
    box.append(image);
  } else {
    const utf16 = options.reason === 'BINARY_FILE' ? guessUtf16(bytes) : null;
    if (options.reason === 'DECODE_ERROR' || utf16) {
      kind = 'Not UTF-8';
      const row = el('form', undefined, 'viewer-encoding');
      const label = el(
        'label',
        utf16
          ? `This file looks like ${utf16 === 'utf-16le' ? 'UTF-16 LE' : 'UTF-16 BE'} text without a byte-order mark. Open it as text in`
          : 'This file is not valid UTF-8. Open it as text in',
      );
      label.htmlFor = 'viewer-encoding';
      const select = el('select');
      select.id = 'viewer-encoding';
      // Not UTF-16 by its NULs: a single-byte encoding is the likely one, and Latin-1 decodes any byte.
      const guess = utf16 ?? 'latin1';
      select.append(
        ...ENCODINGS.filter((e) => e !== 'utf-8').map((e) =>
          Object.assign(el('option', e), { value: e, selected: e === guess }),
        ),
      );
      const open = el('button', 'Open as text', 'small');
      open.type = 'submit';
      row.addEventListener('submit', (event) => {
        event.preventDefault();
        options.openAs(select.value);
      });
      row.append(label, select, open);
      box.append(row);
    } else {
      box.append(el('p', 'This file holds bytes that are not text (NUL bytes), so it opens read-only.', 'muted'));
    }
    const shown =
      bytes.length > HEX_BYTES ? `the first ${formatSize(HEX_BYTES)} of ${formatSize(bytes.length)}` : 'every byte';
    box.append(el('p', `Hex view, ${shown}:`, 'muted'));
    const dump = el('pre', hexDump(bytes), 'viewer-hex');
    dump.tabIndex = 0;
    dump.setAttribute('aria-label', `Hex view of ${path}`);
    box.append(dump);
  }
  host.replaceChildren(box);
  return kind;
}
