import { s } from '../contract/index.js';
import { TEXT_ENCODINGS } from '../text/codec.js';

/** Schema pieces several tools share, so each is written once. */
export const pathProperty = (what: string) =>
  s.string({
    description: `${what}, relative to the workspace root (a bare name, '.' or './x' is relative to the current folder).`,
  });

export const expectedShaProperty = s.string({
  pattern: '^[0-9a-fA-F]{64}$',
  description: 'Refuse the change (STALE_FILE) unless the file currently has this sha256 (from read_file).',
});

export const encodingProperty = s.enum(TEXT_ENCODINGS, {
  description: 'Text encoding when the file has no BOM and is not UTF-8.',
});

/** Count Unicode code points, so an emoji is one character and never split. */
export function codePointLength(text: string): number {
  if (!/[\uD800-\uDFFF]/.test(text)) return text.length;
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0xd800 || c > 0xdbff || i + 1 >= text.length) n++;
    else {
      n++;
      i++;
    }
  }
  return n;
}

/** The UTF-16 offset just after the first `count` code points. */
export function codePointOffset(text: string, count: number): number {
  let i = 0;
  for (let n = 0; n < count && i < text.length; n++) {
    const c = text.charCodeAt(i);
    i += c >= 0xd800 && c <= 0xdbff && i + 1 < text.length ? 2 : 1;
  }
  return i;
}
