/**
 * How loosely a chunk's lines matched the file, tightest first. Whatever tier matched, only the
 * lines a chunk changes are rewritten, so a loose match never alters the file's other bytes.
 */
export type MatchTier = 'exact' | 'trailing_whitespace' | 'whitespace' | 'unicode';

const TIERS: ReadonlyArray<readonly [MatchTier, (line: string) => string]> = [
  ['exact', (s) => s],
  ['trailing_whitespace', (s) => s.trimEnd()],
  ['whitespace', (s) => s.trim()],
  ['unicode', (s) => foldPunctuation(s).trim()],
];

const DASHES = /[\u2010\u2011\u2012\u2013\u2014\u2015\u2212\uFE58\uFE63\uFF0D]/g;
const SINGLE_QUOTES = /[\u2018\u2019\u201A\u201B\u2032\uFF07]/g;
const DOUBLE_QUOTES = /[\u201C\u201D\u201E\u201F\u2033\u00AB\u00BB\uFF02]/g;
const SPACES = /[\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000]/g;

/** Fold the punctuation models and editors swap: typographic dashes, quotes and odd spaces. */
export function foldPunctuation(line: string): string {
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(line)) return line;
  return line
    .replace(DASHES, '-')
    .replace(SINGLE_QUOTES, "'")
    .replace(DOUBLE_QUOTES, '"')
    .replace(SPACES, ' ')
    .replace(/\u2026/g, '...');
}

/** A file's lines with each tier's normalised form computed once, on first use. */
export class LineIndex {
  private readonly forms = new Map<MatchTier, string[]>();

  constructor(readonly lines: readonly string[]) {}

  get length(): number {
    return this.lines.length;
  }

  form(tier: MatchTier): readonly string[] {
    if (tier === 'exact') return this.lines;
    let form = this.forms.get(tier);
    if (!form) {
      const normalise = TIERS.find(([t]) => t === tier)![1];
      form = this.lines.map(normalise);
      this.forms.set(tier, form);
    }
    return form;
  }
}

export interface SeekHit {
  /** 0-based index of the first matching line */
  index: number;
  tier: MatchTier;
}

/**
 * Find `pattern` at or after line `start`, trying each tier over the whole range before the
 * next, looser one (only the exact tier when `exact`). With `eof` the pattern must end at the last line.
 */
export function seekLines(
  file: LineIndex,
  pattern: readonly string[],
  start: number,
  eof = false,
  exact = false,
): SeekHit | null {
  const m = pattern.length;
  const n = file.length;
  if (m === 0) return { index: eof ? n : start, tier: 'exact' };
  if (m > n - start) return null;
  for (const [tier, normalise] of exact ? TIERS.slice(0, 1) : TIERS) {
    const lines = file.form(tier);
    const wanted = pattern.map(normalise);
    const first = wanted[0]!;
    const from = eof ? n - m : start;
    for (let p = from; p <= n - m; p++) {
      if (lines[p] !== first) continue;
      let k = 1;
      while (k < m && lines[p + k] === wanted[k]) k++;
      if (k === m) return { index: p, tier };
    }
  }
  return null;
}

/**
 * Find the line an `@@ header` names: a whole-line match by the tiers first, then, because
 * agents often write only part of a signature (`@@ def run`), the first line containing it.
 * With `exact` neither whitespace nor punctuation is folded.
 */
export function seekHeader(file: LineIndex, header: string, start: number, exact = false): number {
  const hit = seekLines(file, [header], start, false, exact);
  if (hit) return hit.index;
  const wanted = exact ? header : foldPunctuation(header).trim();
  const lines = exact ? file.lines : file.form('unicode');
  for (let p = start; p < lines.length; p++) if (lines[p]!.includes(wanted)) return p;
  return -1;
}

export interface NearMatch {
  /** 0-based index where the pattern lines up best */
  index: number;
  /** pattern lines that match there, compared loosely */
  matched: number;
  /** first pattern line that differs there (index into the pattern), or -1 */
  firstDifference: number;
}

const MAX_NEAR_WORK = 4_000_000;

/** Where the pattern comes closest to matching, for an error the model can act on. */
export function nearestMatch(file: LineIndex, pattern: readonly string[]): NearMatch | null {
  const lines = file.form('unicode');
  const wanted = pattern.map(TIERS[3]![1]);
  const m = wanted.length;
  if (m === 0 || lines.length === 0) return null;
  const last = Math.max(0, lines.length - m);
  const step = Math.max(1, Math.ceil(((last + 1) * m) / MAX_NEAR_WORK));
  let best: NearMatch | null = null;
  for (let p = 0; p <= last; p += step) {
    let matched = 0;
    let firstDifference = -1;
    for (let k = 0; k < m; k++) {
      if (lines[p + k] === wanted[k]) matched++;
      else if (firstDifference === -1) firstDifference = k;
    }
    if (matched > 0 && (!best || matched > best.matched)) best = { index: p, matched, firstDifference };
  }
  return best;
}
