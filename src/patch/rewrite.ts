import { dominantEol } from '../text/lines.js';
import { ToolError } from '../contract/index.js';
import type { ChunkLine, PatchChunk } from './parse.js';
import { LineIndex, nearestMatch, seekHeader, seekLines, type MatchTier } from './seek.js';

/** A replacement of file lines [from, to) by `added`; from === to inserts. */
interface Edit {
  from: number;
  to: number;
  added: string[];
}

export interface RewriteResult {
  text: string;
  added_lines: number;
  removed_lines: number;
  /** the loosest tier any chunk needed */
  loosest: MatchTier;
}

const TIER_ORDER: MatchTier[] = ['exact', 'trailing_whitespace', 'whitespace', 'unicode'];

/** A text cut into lines and the exact terminator of each ('\n', '\r\n', a lone '\r', or '' for a last line without one). */
export function splitWithEols(text: string): { lines: string[]; eols: string[] } {
  const lines: string[] = [];
  const eols: string[] = [];
  let start = 0;
  if (!text.includes('\r')) {
    // the common case, and the hot one in a big patch: only LF ends lines
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', start)) {
      lines.push(text.slice(start, nl));
      eols.push('\n');
      start = nl + 1;
    }
  } else {
    const ends = /\r\n|\r|\n/g;
    for (let m = ends.exec(text); m !== null; m = ends.exec(text)) {
      lines.push(text.slice(start, m.index));
      eols.push(m[0]);
      start = m.index + m[0].length;
    }
  }
  if (start < text.length) {
    lines.push(text.slice(start));
    eols.push('');
  }
  return { lines, eols };
}

/**
 * Apply an update's chunks to a file's text. Each chunk is found after the previous one; context
 * lines keep the file's own bytes, new lines take the line ending of the lines they replace (or
 * of their neighbours), and the file keeps the presence or absence of its final newline.
 */
export function applyChunks(
  text: string,
  chunks: PatchChunk[],
  shownPath: string,
  options: { exact?: boolean } = {},
): RewriteResult {
  const exact = options.exact === true;
  const { lines, eols } = splitWithEols(text);
  const file = new LineIndex(lines);
  const edits: Edit[] = [];
  let cursor = 0;
  let loosest = 0;
  chunks.forEach((chunk, k) => {
    let from = cursor;
    let headerAt = -1;
    for (const header of chunk.headers) {
      headerAt = seekHeader(file, header, from, exact);
      if (headerAt === -1) throw headerMissing(shownPath, chunk, k, header, from);
      from = headerAt + 1;
    }
    let body = chunk.lines;
    let old = oldLines(body);
    if (old.length === 0) {
      // A pure addition goes after its @@ line, or at the end of the file.
      const at = chunk.headers.length > 0 && !chunk.eof ? from : lines.length;
      edits.push({ from: at, to: at, added: body.map((l) => l.text) });
      if (at !== lines.length) cursor = at;
      return;
    }
    let hit = seekLines(file, old, from, chunk.eof, exact);
    // Agents often repeat the @@ line as the chunk's first context line.
    if (!hit && headerAt !== -1) hit = seekLines(file, old, headerAt, chunk.eof, exact);
    while (
      !hit &&
      body.length > 0 &&
      body[body.length - 1]!.kind === ' ' &&
      body[body.length - 1]!.text.trim() === ''
    ) {
      body = body.slice(0, -1);
      old = oldLines(body);
      if (old.length === 0) break;
      hit = seekLines(file, old, from, chunk.eof, exact);
    }
    if (!hit) throw contextMissing(shownPath, chunk, k, file, from, exact);
    loosest = Math.max(loosest, TIER_ORDER.indexOf(hit.tier));
    edits.push(...editsOf(body, hit.index));
    cursor = hit.index + old.length;
  });
  let added = 0;
  let removed = 0;
  for (const e of edits) {
    added += e.added.length;
    removed += e.to - e.from;
  }
  return {
    text: build(lines, eols, edits, text),
    added_lines: added,
    removed_lines: removed,
    loosest: TIER_ORDER[loosest]!,
  };
}

function oldLines(body: ChunkLine[]): string[] {
  return body.filter((l) => l.kind !== '+').map((l) => l.text);
}

/** The runs of removed and added lines between context lines, placed at file line `at`. */
function editsOf(body: ChunkLine[], at: number): Edit[] {
  const out: Edit[] = [];
  let pos = at;
  let run: Edit | null = null;
  for (const line of body) {
    if (line.kind === ' ') {
      if (run) out.push(run);
      run = null;
      pos++;
      continue;
    }
    run ??= { from: pos, to: pos, added: [] };
    if (line.kind === '-') run.to = ++pos;
    else run.added.push(line.text);
  }
  if (run) out.push(run);
  return out.filter((e) => e.from !== e.to || e.added.length > 0);
}

function build(lines: string[], eols: string[], edits: Edit[], text: string): string {
  if (edits.length === 0) return text;
  const sorted = edits
    .map((e, i) => ({ e, i }))
    .sort((a, b) => a.e.from - b.e.from || a.i - b.i)
    .map((x) => x.e);
  const fallback = dominantEol(text);
  const outLines: string[] = [];
  const outEols: string[] = [];
  let i = 0;
  for (const edit of sorted) {
    for (; i < edit.from; i++) {
      outLines.push(lines[i]!);
      outEols.push(eols[i]!);
    }
    const replaced = eols.slice(edit.from, edit.to).filter((e) => e !== '');
    const near = replaced[replaced.length - 1] || eols[edit.from - 1] || eols[edit.from] || fallback;
    edit.added.forEach((line, k) => {
      outLines.push(line);
      outEols.push(replaced[k] || near);
    });
    i = Math.max(i, edit.to);
  }
  for (; i < lines.length; i++) {
    outLines.push(lines[i]!);
    outEols.push(eols[i]!);
  }
  const noFinalNewline = lines.length > 0 && eols[eols.length - 1] === '';
  let out = '';
  for (let k = 0; k < outLines.length; k++) {
    const isLast = k === outLines.length - 1;
    const eol = isLast && noFinalNewline ? '' : outEols[k] || fallback;
    out += outLines[k]! + eol;
  }
  return out;
}

function conflict(
  shownPath: string,
  chunk: PatchChunk,
  k: number,
  message: string,
  hint: string,
  extra: Record<string, unknown> = {},
): ToolError {
  return new ToolError('PATCH_CONFLICT', `'${shownPath}' chunk ${k + 1} (patch line ${chunk.patchLine}): ${message}`, {
    hint,
    details: { path: shownPath, chunk: k + 1, patch_line: chunk.patchLine, ...extra },
  });
}

function headerMissing(shownPath: string, chunk: PatchChunk, k: number, header: string, from: number): ToolError {
  return conflict(
    shownPath,
    chunk,
    k,
    `the '@@ ${header.trim()}' line was not found${from > 0 ? ` after line ${from}` : ''}`,
    'The text after @@ must be a line of the file (such as a function signature) above the change; chunks go in file order. Read the file and copy the line exactly.',
  );
}

function contextMissing(
  shownPath: string,
  chunk: PatchChunk,
  k: number,
  file: LineIndex,
  from: number,
  exact: boolean,
): ToolError {
  const old = oldLines(chunk.lines);
  const where = chunk.eof ? ' at the end of the file' : from > 0 ? ` after line ${from}` : '';
  const message = `the ${old.length} context and removed line(s) were not found${where}; they start ${quote(old[0]!)}`;
  const near = nearestMatch(file, old);
  if (!near) {
    return conflict(
      shownPath,
      chunk,
      k,
      message,
      'No line of the chunk occurs in the file. Read the file again and copy the lines to change exactly.',
      { nearest: null },
    );
  }
  // The nearest place is found loosely; under exact matching its first difference is the exact one.
  const differs = exact ? old.findIndex((line, i) => file.lines[near.index + i] !== line) : near.firstDifference;
  const matched = exact ? old.filter((line, i) => file.lines[near.index + i] === line).length : near.matched;
  const fileLine = near.index + differs;
  const detail =
    differs === -1
      ? `The same lines are at line ${near.index + 1}, before the previous chunk's place: chunks must be in file order.`
      : `The nearest text is at line ${near.index + 1} (${matched} of ${old.length} lines match); line ${fileLine + 1} reads ` +
        `${fileLine < file.length ? quote(file.lines[fileLine]!) : '(end of file)'} where the patch expects ${quote(old[differs]!)}.`;
  const strict = exact ? " Matching is exact: whitespace and Unicode punctuation must be the file's own." : '';
  return conflict(shownPath, chunk, k, message, `${detail}${strict} Read the file again and copy the lines exactly.`, {
    nearest: {
      line: near.index + 1,
      text: file.lines.slice(near.index, near.index + Math.min(old.length, 8)).join('\n'),
    },
  });
}

function quote(line: string): string {
  return JSON.stringify(line.length > 120 ? `${line.slice(0, 120)}...` : line);
}
