import { decodeText, detectBom, isDecodeFailure } from '../text/codec.js';
import { splitLines } from '../text/lines.js';
import { countNewlines, hasLoneCr, indexOfBytes, utf8CodePoints } from './bytes.js';
import { capLine } from './line-cap.js';
import type { Matcher } from './matcher.js';

/** One matching line of a file. Context arrays appear only when context lines were asked for. */
export interface LineMatch {
  line: number;
  /** 1-based, in Unicode code points */
  column: number;
  content: string;
  before?: string[];
  after?: string[];
}

/** How much of one file to report. */
export interface ScanOptions {
  /** report only lines after this one (a cursor inside this file) */
  afterLine: number;
  /** stop after this many matching lines */
  limit: number;
  context: number;
  maxLineChars: number;
  /** Date.now() after which the scan stops between lines (the call's time budget) */
  deadline?: number;
}

/** The matches of a file, or why it was not searched. */
export type ScanOutcome =
  | {
      matches: LineMatch[] /** the budget ran out after this line: later lines were not looked at */;
      stoppedAfter?: number;
    }
  | { skipped: 'binary' | 'decode' };

/** Lines between two looks at the clock: cheap enough per line, fine-grained enough per call. */
const CLOCK_EVERY = 256;
/** Lines a page scans in a file before the budget may stop it, so each page of a big file gets somewhere. */
const LEAST_LINES = 4096;

const SNIFF = 8192;
const fatalUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Find matching lines in a file's bytes; binary and undecodable files are skipped, not errors. */
export function scanFile(bytes: Uint8Array, matcher: Matcher, options: ScanOptions): ScanOutcome {
  const bom = detectBom(bytes);
  const utf16 = bom !== null && bom.encoding !== 'utf-8';
  if (!utf16 && bytes.subarray(0, SNIFF).indexOf(0) !== -1) return { skipped: 'binary' };
  if (matcher.bytes && !utf16) return scanUtf8(bytes, bom ? bom.length : 0, matcher, options);
  const decoded = decodeText(bytes);
  if (isDecodeFailure(decoded)) return { skipped: decoded.kind === 'binary' ? 'binary' : 'decode' };
  return scanText(decoded.text, matcher, options);
}

/** Byte search: only files with a hit are validated, and only matching lines are decoded. */
function scanUtf8(bytes: Uint8Array, bodyStart: number, matcher: Matcher, options: ScanOptions): ScanOutcome {
  const pattern = matcher.bytes!;
  let at = indexOfBytes(bytes, pattern, bodyStart);
  if (at === -1) return { matches: [] };
  let text: string;
  try {
    text = fatalUtf8.decode(bytes.subarray(bodyStart));
  } catch {
    return { skipped: 'decode' };
  }
  // The byte walk below counts `\n` only; a file with a lone `\r` line end (rare) is numbered on its text.
  if (hasLoneCr(bytes, bodyStart)) return scanText(text, matcher, options);
  const matches: LineMatch[] = [];
  let line = 1;
  let counted = bodyStart;
  while (at !== -1) {
    const start = lineStart(bytes, at, bodyStart);
    line += countNewlines(bytes, counted, start);
    counted = start;
    const end = lineEnd(bytes, at);
    if (line > options.afterLine) {
      const column = utf8CodePoints(bytes, start, at);
      const match: LineMatch = {
        line,
        column: column + 1,
        content: capLine(lineText(bytes, start, end), column, matcher.literalChars, options.maxLineChars),
      };
      if (options.context > 0) addByteContext(match, bytes, bodyStart, start, end, options);
      matches.push(match);
      if (matches.length >= options.limit) break;
    }
    at = end >= bytes.length ? -1 : indexOfBytes(bytes, pattern, end + 1);
  }
  return { matches };
}

function lineStart(bytes: Uint8Array, at: number, bodyStart: number): number {
  if (at <= bodyStart) return bodyStart;
  return Math.max(bodyStart, bytes.lastIndexOf(10, at - 1) + 1);
}

function lineEnd(bytes: Uint8Array, at: number): number {
  const end = bytes.indexOf(10, at);
  return end === -1 ? bytes.length : end;
}

function lineText(bytes: Uint8Array, start: number, end: number): string {
  const stop = end > start && bytes[end - 1] === 13 ? end - 1 : end;
  return fatalUtf8.decode(bytes.subarray(start, stop));
}

function addByteContext(
  match: LineMatch,
  bytes: Uint8Array,
  bodyStart: number,
  start: number,
  end: number,
  options: ScanOptions,
): void {
  const before: string[] = [];
  for (let s = start; before.length < options.context && s > bodyStart; ) {
    const prevStart = lineStart(bytes, s - 1, bodyStart);
    before.unshift(capLine(lineText(bytes, prevStart, s - 1), 0, 0, options.maxLineChars));
    s = prevStart;
  }
  const after: string[] = [];
  for (let e = end; after.length < options.context && e < bytes.length - 1; ) {
    const nextEnd = lineEnd(bytes, e + 1);
    after.push(capLine(lineText(bytes, e + 1, nextEnd), 0, 0, options.maxLineChars));
    e = nextEnd;
  }
  match.before = before;
  match.after = after;
}

/** Decoded search: one RegExp (or indexOf) per line. */
function scanText(text: string, matcher: Matcher, options: ScanOptions): ScanOutcome {
  // `\n`, `\r\n` and a lone `\r` each end a line, as for read_file's windows and edits
  const lines = splitLines(text);
  const matches: LineMatch[] = [];
  const deadline = options.deadline ?? Infinity;
  let scannedChars = 0;
  for (let i = options.afterLine; i < lines.length; i++) {
    scannedChars += lines[i]!.length;
    if (
      deadline !== Infinity &&
      (i % CLOCK_EVERY === 0 || scannedChars > 1 << 20) &&
      i >= options.afterLine + LEAST_LINES
    ) {
      scannedChars = 0;
      if (Date.now() > deadline) return { matches, stoppedAfter: i };
    }
    const found = matcher.inLine(lines[i]!);
    if (!found) continue;
    const line = lines[i]!;
    const column = [...line.slice(0, found.index)].length;
    const chars = [...line.slice(found.index, found.index + found.length)].length;
    const match: LineMatch = {
      line: i + 1,
      column: column + 1,
      content: capLine(line, column, chars, options.maxLineChars),
    };
    if (options.context > 0) {
      const cap = (l: string) => capLine(l, 0, 0, options.maxLineChars);
      match.before = lines.slice(Math.max(0, i - options.context), i).map(cap);
      match.after = lines.slice(i + 1, i + 1 + options.context).map(cap);
    }
    matches.push(match);
    if (matches.length >= options.limit) break;
  }
  return { matches };
}
