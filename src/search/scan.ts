import { decodeText, detectBom, isDecodeFailure } from '../text/codec.js';
import { splitLines } from '../text/lines.js';
import { yieldToHost } from '../workspace/host-yield.js';
import { platformNative } from '../fs/platform-native.js';
import { countNewlines, hasLoneCr, indexOfBytes, typedFind, utf8CodePoints, type ByteFind } from './bytes.js';
import { capLine, codePoints } from './line-cap.js';
import { cappedUtf8Line } from './utf8-line.js';
import type { Matcher } from './matcher.js';

/** One matching line of a file. Context arrays appear only when context lines were asked for. */
export interface LineMatch {
  /** the file's path, as the answer shows it (first: the matches go into the answer as they are) */
  path: string;
  line: number;
  /** 1-based, in Unicode code points */
  column: number;
  content: string;
  before?: string[];
  after?: string[];
}

/** How much of one file to report. */
export interface ScanOptions {
  /** the path each match names */
  path: string;
  /** report only lines after this one (a cursor inside this file) */
  afterLine: number;
  /** stop after this many matching lines */
  limit: number;
  context: number;
  maxLineChars: number;
  /** Date.now() after which the scan stops between lines (the call's time budget) */
  deadline?: number;
  /**
   * a binary file without the literal may be answered as one without a match: a search of many
   * files takes both alike, so such a file is not sniffed for NUL bytes (only a file named alone
   * must say it is binary)
   */
  binaryAsNoMatch?: boolean;
}

/** The matches of a file, or why it was not searched. */
export type ScanOutcome =
  | {
      matches: LineMatch[];
      /** the budget ran out after this line: later lines were not looked at */
      stoppedAfter?: number;
      /** the first line longer than MAX_LINE_SEARCH, only the start of which was searched */
      longLine?: number;
    }
  | { skipped: 'binary' | 'decode' };

/** Lines between two looks at the clock: cheap enough per line, fine-grained enough per call. */
const CLOCK_EVERY = 256;
/** Lines a page scans in a file before the budget may stop it, so each page of a big file gets somewhere. */
const LEAST_LINES = 4096;
/** ...or characters, whichever comes first: 4,096 lines of a megabyte each would run far past any budget. */
const LEAST_CHARS = 8 << 20;
/**
 * Characters of one line a regex or case-insensitive search looks at: the rest of a longer line
 * is not searched, and the answer says so. A literal, case-sensitive search (a byte search) has
 * no such cap.
 */
export const MAX_LINE_SEARCH = 1 << 20;
/** How long a scan works before it lets the event loop turn. */
const YIELD_EVERY_MS = 50;

const SNIFF = 8192;
const fatalUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Find matching lines in a file's bytes; binary and undecodable files are skipped, not errors.
 * Synchronous unless the file is decoded whole (a regex, a lone `\r`), so a batch scans in one step.
 */
export function scanFile(
  bytes: Uint8Array,
  matcher: Matcher,
  options: ScanOptions,
): ScanOutcome | Promise<ScanOutcome> {
  const bom = detectBom(bytes);
  const utf16 = bom !== null && bom.encoding !== 'utf-8';
  const native = platformNative();
  const find = native?.indexOfByte ?? typedFind;
  const bodyStart = bom ? bom.length : 0;
  let first: number | undefined;
  if (matcher.bytes && !utf16 && options.binaryAsNoMatch) {
    // most files of a search hold no match: one look for the literal answers them, without the sniff
    first = indexOfBytes(bytes, matcher.bytes, bodyStart, find);
    if (first === -1) return { matches: [] };
  }
  if (!utf16 && find(bytes.length > SNIFF ? bytes.subarray(0, SNIFF) : bytes, 0, 0) !== -1)
    return { skipped: 'binary' };
  if (matcher.bytes && !utf16) return scanUtf8(bytes, bodyStart, matcher, options, find, native?.isUtf8, first);
  const decoded = decodeText(bytes);
  if (isDecodeFailure(decoded)) return { skipped: decoded.kind === 'binary' ? 'binary' : 'decode' };
  return scanText(decoded.text, matcher, options);
}

/** Byte search: only files with a hit are validated, and only matching lines are decoded. */
function scanUtf8(
  bytes: Uint8Array,
  bodyStart: number,
  matcher: Matcher,
  options: ScanOptions,
  find: ByteFind,
  isUtf8: ((bytes: Uint8Array) => boolean) | undefined,
  /** where the literal first is, when the caller already looked */
  first: number | undefined,
): ScanOutcome | Promise<ScanOutcome> {
  const pattern = matcher.bytes!;
  let at = first ?? indexOfBytes(bytes, pattern, bodyStart, find);
  if (at === -1) return { matches: [] };
  const body = bodyStart === 0 ? bytes : bytes.subarray(bodyStart);
  // checked without making the text where the host can: the text is needed only for a lone `\r`
  if (isUtf8 ? !isUtf8(body) : decodes(body) === null) return { skipped: 'decode' };
  // The byte walk below counts `\n` only; a file with a lone `\r` line end (rare) is numbered on its text.
  if (hasLoneCr(bytes, bodyStart, find)) {
    const text = decodes(body);
    return text === null ? { skipped: 'decode' } : scanText(text, matcher, options);
  }
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
        path: options.path,
        line,
        column: column + 1,
        content: cappedUtf8Line(bytes, start, end, column, matcher.literalChars, options.maxLineChars),
      };
      if (options.context > 0) addByteContext(match, bytes, bodyStart, start, end, options);
      matches.push(match);
      if (matches.length >= options.limit) break;
    }
    at = end >= bytes.length ? -1 : indexOfBytes(bytes, pattern, end + 1, find);
  }
  return { matches };
}

function decodes(bytes: Uint8Array): string | null {
  try {
    return fatalUtf8.decode(bytes);
  } catch {
    return null;
  }
}

function lineStart(bytes: Uint8Array, at: number, bodyStart: number): number {
  if (at <= bodyStart) return bodyStart;
  return Math.max(bodyStart, bytes.lastIndexOf(10, at - 1) + 1);
}

function lineEnd(bytes: Uint8Array, at: number): number {
  const end = bytes.indexOf(10, at);
  return end === -1 ? bytes.length : end;
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
    before.unshift(cappedUtf8Line(bytes, prevStart, s - 1, 0, 0, options.maxLineChars));
    s = prevStart;
  }
  const after: string[] = [];
  for (let e = end; after.length < options.context && e < bytes.length - 1; ) {
    const nextEnd = lineEnd(bytes, e + 1);
    after.push(cappedUtf8Line(bytes, e + 1, nextEnd, 0, 0, options.maxLineChars));
    e = nextEnd;
  }
  match.before = before;
  match.after = after;
}

/** Decoded search: one RegExp (or indexOf) per line, at most MAX_LINE_SEARCH characters of each. */
async function scanText(text: string, matcher: Matcher, options: ScanOptions): Promise<ScanOutcome> {
  // `\n`, `\r\n` and a lone `\r` each end a line, as for read_file's windows and edits
  const lines = splitLines(text);
  const matches: LineMatch[] = [];
  const deadline = options.deadline ?? Infinity;
  let longLine: number | undefined;
  let scannedChars = 0;
  let pageChars = 0;
  let yieldedAt = Date.now();
  for (let i = options.afterLine; i < lines.length; i++) {
    const whole = lines[i]!;
    scannedChars += Math.min(whole.length, MAX_LINE_SEARCH);
    if (i % CLOCK_EVERY === 0 || scannedChars > 1 << 20) {
      pageChars += scannedChars;
      scannedChars = 0;
      const now = Date.now();
      // the first lines of a page always get looked at, so every page of a big file gets somewhere
      if (now > deadline && i > options.afterLine && (i >= options.afterLine + LEAST_LINES || pageChars > LEAST_CHARS))
        return finish(matches, longLine, i);
      if (now - yieldedAt >= YIELD_EVERY_MS) {
        await yieldToHost();
        yieldedAt = Date.now();
      }
    }
    if (whole.length > MAX_LINE_SEARCH && longLine === undefined) longLine = i + 1;
    const line = whole.length > MAX_LINE_SEARCH ? whole.slice(0, MAX_LINE_SEARCH) : whole;
    const found = matcher.inLine(line);
    if (!found) continue;
    const column = codePoints(whole, 0, found.index);
    const chars = codePoints(whole, found.index, found.index + found.length);
    const match: LineMatch = {
      path: options.path,
      line: i + 1,
      column: column + 1,
      content: capLine(whole, column, chars, options.maxLineChars),
    };
    if (options.context > 0) {
      const cap = (l: string) => capLine(l, 0, 0, options.maxLineChars);
      match.before = lines.slice(Math.max(0, i - options.context), i).map(cap);
      match.after = lines.slice(i + 1, i + 1 + options.context).map(cap);
    }
    matches.push(match);
    if (matches.length >= options.limit) break;
  }
  return finish(matches, longLine);
}

function finish(matches: LineMatch[], longLine: number | undefined, stoppedAfter?: number): ScanOutcome {
  return {
    matches,
    ...(stoppedAfter !== undefined ? { stoppedAfter } : {}),
    ...(longLine !== undefined ? { longLine } : {}),
  };
}
