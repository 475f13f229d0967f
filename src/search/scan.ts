import { decodeText, detectBom, isDecodeFailure } from '../text/codec.js';
import { splitLines } from '../text/lines.js';
import { yieldToHost } from '../workspace/host-yield.js';
import { platformNative } from '../fs/platform-native.js';
import { literalLines, LINES_BINARY, LINES_NOT_UTF8, type LiteralLineSearch } from '../fs/literal-lines.js';
import type { NativeHelpers } from '../fs/types.js';
import { typedFind, utf8CodePoints } from './bytes.js';
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
  | {
      skipped: 'binary' | 'decode';
      /** the literal searched for is in the file's bytes, which are not UTF-8: a search of many files says so */
      literalInside?: true;
    };

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

/**
 * Find matching lines in a file's bytes; binary and undecodable files are skipped, not errors.
 * Synchronous unless the file is decoded whole (a regex, a lone `\r`), so a batch scans in one step.
 * `located`: the lines a backend found the matcher's literal in as it read the file (see
 * PlainFile.literalLines), for a byte search of many files: then only those lines are decoded.
 */
export function scanFile(
  bytes: Uint8Array,
  matcher: Matcher,
  options: ScanOptions,
  located?: ArrayLike<number>,
): ScanOutcome | Promise<ScanOutcome> {
  const bom = detectBom(bytes);
  const utf16 = bom !== null && bom.encoding !== 'utf-8';
  const native = platformNative();
  const find = native?.indexOfByte ?? typedFind;
  if (matcher.bytes && !utf16) {
    const bodyStart = bom ? bom.length : 0;
    if (located !== undefined && options.binaryAsNoMatch) return matchesAt(bytes, bodyStart, located, matcher, options);
    if (!options.binaryAsNoMatch && find(bytes.length > SNIFF ? bytes.subarray(0, SNIFF) : bytes, 0, 0) !== -1)
      return { skipped: 'binary' };
    // Only files with the literal are validated, and only matching lines are decoded; a file
    // without it is answered by one look for it (a binary file too, in a search of many files).
    const lines: number[] = [];
    const found = lineSearch(native).lines(bytes, matcher.bytes, options.afterLine, options.limit, lines);
    if (found >= 0) return matchesAt(bytes, bodyStart, lines, matcher, options);
    if (found === LINES_BINARY) return { skipped: 'binary' };
    if (found === LINES_NOT_UTF8) return { skipped: 'decode', literalInside: true };
    // a lone `\r` line end (rare): the lines are numbered on the text
  } else if (!utf16 && find(bytes.length > SNIFF ? bytes.subarray(0, SNIFF) : bytes, 0, 0) !== -1)
    return { skipped: 'binary' };
  const decoded = decodeText(bytes);
  if (isDecodeFailure(decoded)) return { skipped: decoded.kind === 'binary' ? 'binary' : 'decode' };
  return scanText(decoded.text, matcher, options);
}

/** The line search over the host's native byte search, made once per host. */
let searchOf: { native: NativeHelpers | null; search: LiteralLineSearch } | null = null;
function lineSearch(native: NativeHelpers | null): LiteralLineSearch {
  if (searchOf?.native !== native)
    searchOf = { native, search: literalLines(native?.indexOfByte ?? typedFind, native?.isUtf8) };
  return searchOf.search;
}

/** The matches of a byte search from the lines it found, four numbers each (see LiteralLineSearch.lines). */
function matchesAt(
  bytes: Uint8Array,
  bodyStart: number,
  lines: ArrayLike<number>,
  matcher: Matcher,
  options: ScanOptions,
): ScanOutcome {
  const matches: LineMatch[] = [];
  for (let k = 0; k < lines.length && matches.length < options.limit; k += 4) {
    const line = lines[k]!;
    if (line <= options.afterLine) continue;
    const start = lines[k + 1]!;
    const end = lines[k + 2]!;
    const column = utf8CodePoints(bytes, start, lines[k + 3]!);
    const match: LineMatch = {
      path: options.path,
      line,
      column: column + 1,
      content: cappedUtf8Line(bytes, start, end, column, matcher.literalChars, options.maxLineChars),
    };
    if (options.context > 0) addByteContext(match, bytes, bodyStart, start, end, options);
    matches.push(match);
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
