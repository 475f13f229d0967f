/**
 * The part of semver an installer needs: versions, comparison, ranges as npm reads them
 * (`^`, `~`, x-ranges, hyphens, `||`, comparators) and prerelease rules. Written here rather
 * than bundled so the browser build carries no CommonJS and no `process`.
 */

/** A parsed `MAJOR.MINOR.PATCH[-PRE][+BUILD]` version. */
export interface SemVer {
  major: number;
  minor: number;
  patch: number;
  pre: Array<string | number>;
  raw: string;
}

const VERSION = /^v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/;

/** A version, or null when the text is not one. */
export function parseVersion(text: string): SemVer | null {
  const m = VERSION.exec(text.trim().replace(/^=/, ''));
  if (!m) return null;
  const pre = m[4] ? m[4].split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p)) : [];
  return { major: +m[1]!, minor: +m[2]!, patch: +m[3]!, pre, raw: text.trim() };
}

function comparePre(a: SemVer['pre'], b: SemVer['pre']): number {
  if (a.length === 0 || b.length === 0) return b.length - a.length;
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    if (x === y) continue;
    if (typeof x === 'number' && typeof y === 'number') return x - y;
    if (typeof x === 'number') return -1;
    if (typeof y === 'number') return 1;
    return x < y ? -1 : 1;
  }
  return 0;
}

/** Negative, zero or positive as `a` is lower than, equal to or higher than `b`. */
export function compareVersions(a: SemVer, b: SemVer): number {
  return a.major - b.major || a.minor - b.minor || a.patch - b.patch || comparePre(a.pre, b.pre);
}

type Op = '<' | '<=' | '>' | '>=' | '=';
interface Comparator {
  op: Op;
  v: SemVer;
}
/** One `||` alternative: every comparator must hold. An empty set matches any release. */
type ComparatorSet = Comparator[];

const PARTIAL = /^v?(\*|x|X|\d+)(?:\.(\*|x|X|\d+))?(?:\.(\*|x|X|\d+))?(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/;
const isWild = (p: string | undefined) => p === undefined || p === '*' || p === 'x' || p === 'X';

interface Partial {
  parts: number[];
  pre: string | undefined;
}

function parsePartial(text: string): Partial | null {
  const m = PARTIAL.exec(text);
  if (!m) return null;
  const parts: number[] = [];
  for (const p of [m[1], m[2], m[3]]) {
    if (isWild(p)) break;
    parts.push(Number(p));
  }
  return { parts, pre: parts.length === 3 ? m[4] : undefined };
}

const ver = (major: number, minor: number, patch: number, pre = ''): SemVer =>
  parseVersion(`${major}.${minor}.${patch}${pre ? `-${pre}` : ''}`)!;

/** The lowest version of a partial (`1.2` -> 1.2.0) and the first above it (`1.2` -> 1.3.0-0). */
function bounds(p: Partial): { low: SemVer; high: SemVer | null } {
  const [a = 0, b = 0, c = 0] = p.parts;
  const low = ver(a, b, c, p.pre);
  if (p.parts.length === 0) return { low, high: null };
  if (p.parts.length === 1) return { low, high: ver(a + 1, 0, 0, '0') };
  if (p.parts.length === 2) return { low, high: ver(a, b + 1, 0, '0') };
  return { low, high: null };
}

function expand(op: string, text: string): ComparatorSet {
  const p = parsePartial(text);
  if (!p) throw new Error(`invalid comparator: ${op}${text}`);
  const { low, high } = bounds(p);
  const [a = 0, b = 0, c = 0] = p.parts;
  const n = p.parts.length;
  if (op === '^') {
    if (n === 0) return [];
    const upper =
      a > 0 || n === 1 ? ver(a + 1, 0, 0, '0') : b > 0 || n === 2 ? ver(0, b + 1, 0, '0') : ver(0, 0, c + 1, '0');
    return [
      { op: '>=', v: low },
      { op: '<', v: upper },
    ];
  }
  if (op === '~' || op === '~>') {
    if (n === 0) return [];
    const upper = n === 1 ? ver(a + 1, 0, 0, '0') : ver(a, b + 1, 0, '0');
    return [
      { op: '>=', v: low },
      { op: '<', v: upper },
    ];
  }
  if (n === 0) return op === '<' || op === '>' ? [{ op: '<', v: ver(0, 0, 0, '0') }] : [];
  if (op === '' || op === '=') {
    return high
      ? [
          { op: '>=', v: low },
          { op: '<', v: high },
        ]
      : [{ op: '=', v: low }];
  }
  if (op === '>') return high ? [{ op: '>=', v: high }] : [{ op: '>', v: low }];
  if (op === '<=') return high ? [{ op: '<', v: high }] : [{ op: '<=', v: low }];
  if (op === '<' && n < 3) return [{ op: '<', v: ver(a, b, c, '0') }];
  return [{ op: op as Op, v: low }];
}

function parseSet(text: string): ComparatorSet {
  const hyphen = /^\s*(\S+)\s+-\s+(\S+)\s*$/.exec(text);
  if (hyphen) {
    const from = parsePartial(hyphen[1]!);
    const to = parsePartial(hyphen[2]!);
    if (!from || !to) throw new Error(`invalid range: ${text}`);
    const upper = bounds(to);
    return [
      ...(from.parts.length ? [{ op: '>=' as Op, v: bounds(from).low }] : []),
      ...(to.parts.length === 0
        ? []
        : upper.high
          ? [{ op: '<' as Op, v: upper.high }]
          : [{ op: '<=' as Op, v: upper.low }]),
    ];
  }
  const set: ComparatorSet = [];
  const tokens = text
    .trim()
    .replace(/(\^|~>?|[<>]=?|=)\s+/g, '$1')
    .split(/\s+/)
    .filter(Boolean);
  for (const token of tokens) {
    const m = /^(\^|~>?|[<>]=?|=)?(.*)$/.exec(token)!;
    set.push(...expand(m[1] ?? '', m[2]!));
  }
  return set;
}

/** A parsed range: alternatives joined by `||`. */
export type Range = ComparatorSet[];

/** A range, or null when the text is not one (a dist-tag, a URL). */
export function parseRange(text: string): Range | null {
  try {
    const alternatives = text.split('||').map((part) => parseSet(part));
    return alternatives;
  } catch {
    return null;
  }
}

function holds(c: Comparator, v: SemVer): boolean {
  const d = compareVersions(v, c.v);
  return c.op === '<' ? d < 0 : c.op === '<=' ? d <= 0 : c.op === '>' ? d > 0 : c.op === '>=' ? d >= 0 : d === 0;
}

function setHolds(set: ComparatorSet, v: SemVer): boolean {
  if (!set.every((c) => holds(c, v))) return false;
  if (v.pre.length === 0) return true;
  // A prerelease matches only a comparator that names a prerelease of the same MAJOR.MINOR.PATCH.
  return set.some((c) => c.v.pre.length > 0 && c.v.major === v.major && c.v.minor === v.minor && c.v.patch === v.patch);
}

/** Whether `version` is in `range` (npm's rules: prereleases only where the range names them). */
export function satisfies(version: string | SemVer, range: string | Range): boolean {
  const v = typeof version === 'string' ? parseVersion(version) : version;
  const r = typeof range === 'string' ? parseRange(range) : range;
  if (!v || !r) return false;
  return r.some((set) => setHolds(set, v));
}
