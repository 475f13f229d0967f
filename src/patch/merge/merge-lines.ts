import { diffArrays } from 'diff';

/** One side's change to the base: base lines `[start, end)` become `lines`. */
interface Hunk {
  start: number;
  end: number;
  lines: string[];
  side: 'ours' | 'theirs';
}

/** A region both sides changed differently: the base's lines and each side's, as text. */
export interface ConflictHunk {
  /** 1-based first base line of the region (for an insertion, the line it goes before) */
  base_start_line: number;
  /** how many base lines the region spans */
  base_line_count: number;
  base: string;
  ours: string;
  theirs: string;
}

/** What a three-way merge of one file gives: the merged bytes, or the regions that conflict. */
export type LineMergeResult = { clean: true; bytes: Uint8Array } | { clean: false; conflicts: ConflictHunk[] };

/**
 * Three-way merge of one text file, line by line, as `git merge-file` decides it: each side's
 * changes against the base are taken where they do not touch; changes of both sides that overlap
 * or are adjacent (no unchanged base line between them) conflict unless both made the same change.
 * Lines are compared with their line ending, so CRLF and a missing final newline merge losslessly.
 * Works on bytes (each byte one code unit), so any encoding without NULs merges exactly.
 */
export function mergeLines(base: Uint8Array, ours: Uint8Array, theirs: Uint8Array): LineMergeResult {
  const b = splitLines(toBinary(base));
  const o = splitLines(toBinary(ours));
  const t = splitLines(toBinary(theirs));
  const hunks = [...hunksOf(b, o, 'ours'), ...hunksOf(b, t, 'theirs')].sort(
    (x, y) => x.start - y.start || x.end - y.end,
  );
  const out: string[] = [];
  const conflicts: ConflictHunk[] = [];
  let at = 0;
  for (let i = 0; i < hunks.length; ) {
    // a group: hunks chained by overlap or adjacency (git's `i1 + chg1 < i2` is the only way apart)
    let end = hunks[i]!.end;
    let j = i + 1;
    while (j < hunks.length && hunks[j]!.start <= end) end = Math.max(end, hunks[j++]!.end);
    const group = hunks.slice(i, j);
    const start = group[0]!.start;
    for (let k = at; k < start; k++) out.push(b[k]!);
    const mine = group.filter((h) => h.side === 'ours');
    const yours = group.filter((h) => h.side === 'theirs');
    if (mine.length === 0 || yours.length === 0) {
      out.push(...sideText(b, start, end, group));
    } else {
      const left = sideText(b, start, end, mine);
      const right = sideText(b, start, end, yours);
      if (sameLines(left, right)) out.push(...left);
      else
        conflicts.push({
          base_start_line: start + 1,
          base_line_count: end - start,
          base: fromBinary(b.slice(start, end).join('')),
          ours: fromBinary(left.join('')),
          theirs: fromBinary(right.join('')),
        });
    }
    at = end;
    i = j;
  }
  if (conflicts.length > 0) return { clean: false, conflicts };
  for (let k = at; k < b.length; k++) out.push(b[k]!);
  return { clean: true, bytes: fromBinaryBytes(out.join('')) };
}

/** The base's lines `[start, end)` with one side's hunks (all inside that range) applied. */
function sideText(base: string[], start: number, end: number, hunks: Hunk[]): string[] {
  const out: string[] = [];
  let at = start;
  for (const h of hunks) {
    for (let k = at; k < h.start; k++) out.push(base[k]!);
    out.push(...h.lines);
    at = Math.max(at, h.end);
  }
  for (let k = at; k < end; k++) out.push(base[k]!);
  return out;
}

function hunksOf(base: string[], side: string[], name: Hunk['side']): Hunk[] {
  const hunks: Hunk[] = [];
  let at = 0;
  let open: Hunk | null = null;
  for (const part of diffArrays(base, side)) {
    if (!part.added && !part.removed) {
      open = null;
      at += part.count ?? part.value.length;
      continue;
    }
    if (!open) {
      open = { start: at, end: at, lines: [], side: name };
      hunks.push(open);
    }
    if (part.removed) {
      at += part.count ?? part.value.length;
      open.end = at;
    } else open.lines.push(...part.value);
  }
  return hunks;
}

function sameLines(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((line, i) => line === b[i]);
}

/** Lines with their endings kept (`a\r\n`, `b\n`, a last `c` without one). */
export function splitLines(text: string): string[] {
  const lines: string[] = [];
  let from = 0;
  while (from < text.length) {
    const nl = text.indexOf('\n', from);
    const to = nl === -1 ? text.length : nl + 1;
    lines.push(text.slice(from, to));
    from = to;
  }
  return lines;
}

/** Bytes as a string of one code unit per byte, so line splitting never decodes. */
export function toBinary(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    out += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000) as unknown as number[]);
  return out;
}

function fromBinaryBytes(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

/** Text for a person or model (UTF-8 where it decodes, the bytes shown as Latin-1 otherwise), capped. */
function fromBinary(text: string): string {
  const bytes = fromBinaryBytes(text.length > 4000 ? text.slice(0, 4000) : text);
  let shown: string;
  try {
    shown = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    shown = text;
  }
  return text.length > 4000 ? `${shown}[... ${text.length - 4000} more bytes]` : shown;
}
