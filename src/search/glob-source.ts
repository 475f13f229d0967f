import { ToolError } from '../contract/index.js';

/**
 * Translate a glob into RE2 syntax, so that matching a name takes time linear in the name. A
 * backtracking engine (picomatch's RegExp) took seconds on `*a*a*a*a*a*a*b` against a name of
 * sixty `a`s, and eight times longer for each extra `*a`.
 *
 * The language is picomatch's (with `dot: true`): `*` and `?` within one path component, `**` as
 * a whole component for any number of them, classes (`[abc]`, `[!a-z]`, `[[:alpha:]]`), braces
 * (`{a,b}`, nested, `{1..12}`, `{a..e}`), extglobs `@(a|b)`, `?(..)`, `*(..)`, `+(..)`, plain
 * groups `(a|b)` and `\` escapes. `!(..)` has no linear-time equivalent and is refused.
 */
export function globToRe2(pattern: string): string {
  const parser = new GlobParser(pattern);
  const body = parser.sequence('');
  return `^(?:${body})$`;
}

/** Most alternatives a `{x..y}` range expands to; a longer range is matched literally. */
const MAX_RANGE = 1000;

const NOT_SLASH = '[^/]';
/** any character, line breaks included (a file name may hold one) */
const ANY = '(?s:.)';

class GlobParser {
  private at = 0;
  constructor(private readonly text: string) {}

  /** Parse until one of `stops` (at the top level) or the end, returning RE2 source. */
  sequence(stops: string): string {
    let out = '';
    const t = this.text;
    while (this.at < t.length) {
      const c = t[this.at]!;
      if (stops.includes(c)) break;
      if (c === '/' && /^\/\*\*+$/.test(t.slice(this.at))) {
        // a trailing `/**` also matches the folder itself (picomatch: `a/**` matches `a`)
        this.at = t.length;
        out += `(?:/${ANY}*)?`;
      } else if (c === '\\') {
        this.at++;
        out += this.at < t.length ? quote(t[this.at++]!) : '\\\\';
      } else if (c === '*') {
        out += this.star();
      } else if (c === '?') {
        if (t[this.at + 1] === '(') out += this.extglob('?');
        else {
          this.at++;
          out += NOT_SLASH;
        }
      } else if ((c === '@' || c === '+' || c === '!') && t[this.at + 1] === '(') {
        out += this.extglob(c);
      } else if (c === '(') {
        out += this.group();
      } else if (c === '[') {
        out += this.charClass();
      } else if (c === '{') {
        out += this.braces();
      } else {
        this.at++;
        out += quote(c);
      }
    }
    return out;
  }

  /** `*` within a component, or `**` standing as a whole component for any depth. */
  private star(): string {
    const t = this.text;
    const begin = this.at;
    while (t[this.at] === '*') this.at++;
    if (this.at - begin === 1 && t[this.at] === '(') {
      this.at = begin;
      return this.extglob('*');
    }
    const wholeComponent = this.at - begin >= 2 && (begin === 0 || t[begin - 1] === '/');
    if (!wholeComponent) return `${NOT_SLASH}*`;
    if (t[this.at] === '/') {
      // `**/`: zero or more whole components, each with its slash
      this.at++;
      return `(?:${NOT_SLASH}*/)*`;
    }
    if (this.at === t.length) return `${ANY}*`;
    return `${NOT_SLASH}*`;
  }

  private extglob(kind: string): string {
    if (kind === '!') {
      throw new ToolError('INVALID_ARGUMENTS', "negated extglobs '!(...)' are not supported", {
        hint: 'List the names you want instead, e.g. @(a|b), or filter the results yourself.',
        problems: [{ path: '/pattern', message: "uses '!(...)', which is not supported" }],
      });
    }
    const save = this.at;
    this.at += kind === '@' || kind === '+' || kind === '?' || kind === '*' ? 1 : 0;
    const inner = this.alternatives(')');
    if (inner === null) {
      this.at = save + 1;
      return kind === '*' ? `${NOT_SLASH}*` : kind === '?' ? NOT_SLASH : quote(kind);
    }
    const suffix = kind === '+' ? '+' : kind === '*' ? '*' : kind === '?' ? '?' : '';
    return `(?:${inner})${suffix}`;
  }

  /** A plain `(a|b)` group, as picomatch passes regex groups through. */
  private group(): string {
    const save = this.at;
    const inner = this.alternatives(')');
    if (inner === null) {
      this.at = save + 1;
      return quote('(');
    }
    return `(?:${inner})`;
  }

  /** At an opening bracket: `a|b|c` up to the closer, or null (position unspecified) when unclosed. */
  private alternatives(closer: string): string | null {
    this.at++;
    const parts: string[] = [];
    for (;;) {
      parts.push(this.sequence(`|${closer}`));
      const c = this.text[this.at];
      if (c === undefined) return null;
      this.at++;
      if (c === closer) return parts.join('|');
    }
  }

  private braces(): string {
    const save = this.at;
    const range = this.range();
    if (range !== null) return range;
    this.at = save + 1;
    const parts: string[] = [];
    for (;;) {
      parts.push(this.sequence(',}'));
      const c = this.text[this.at];
      if (c === undefined) break;
      this.at++;
      if (c === '}') {
        if (parts.length > 1) return `(?:${parts.join('|')})`;
        break;
      }
    }
    // not a brace list (unclosed, or no comma): the brace is an ordinary character
    this.at = save + 1;
    return quote('{');
  }

  /** `{1..12}` or `{a..e}`, expanded; null when the braces hold something else. */
  private range(): string | null {
    const m = /^\{(-?\d+|[A-Za-z])\.\.(-?\d+|[A-Za-z])\}/.exec(this.text.slice(this.at, this.at + 48));
    if (!m) return null;
    const [whole, from, to] = m as unknown as [string, string, string];
    const numeric = /\d/.test(from) && /\d/.test(to);
    if (!numeric && (from.length !== 1 || to.length !== 1 || /\d/.test(from) || /\d/.test(to))) return null;
    const a = numeric ? Number(from) : from.charCodeAt(0);
    const b = numeric ? Number(to) : to.charCodeAt(0);
    if (Math.abs(b - a) >= MAX_RANGE) return null;
    const step = a <= b ? 1 : -1;
    const items: string[] = [];
    for (let v = a; ; v += step) {
      items.push(quote(numeric ? String(v) : String.fromCharCode(v)));
      if (v === b) break;
    }
    this.at += whole.length;
    return `(?:${items.join('|')})`;
  }

  /** `[...]`: a class that never matches `/`; an unclosed `[` is literal. */
  private charClass(): string {
    const t = this.text;
    let i = this.at + 1;
    let negate = false;
    if (t[i] === '!' || t[i] === '^') {
      negate = true;
      i++;
    }
    let body = '';
    let first = true;
    while (i < t.length && (t[i] !== ']' || first)) {
      first = false;
      const posix = /^\[:([a-z]+):\]/.exec(t.slice(i, i + 12));
      if (posix && POSIX_CLASSES.has(posix[1]!)) {
        body += posix[0];
        i += posix[0].length;
        continue;
      }
      const c = t[i]!;
      if (c === '\\' && i + 1 < t.length) {
        body += classChar(t[i + 1]!);
        i += 2;
      } else if (c === '-' && body !== '' && t[i + 1] !== ']' && i + 1 < t.length) {
        body += '-';
        i++;
      } else {
        body += classChar(c);
        i++;
      }
    }
    if (i >= t.length || body === '') {
      this.at++;
      return quote('[');
    }
    this.at = i + 1;
    return negate ? `[^/${body}]` : `(?:[${body}])`;
  }
}

const POSIX_CLASSES = new Set([
  'alnum',
  'alpha',
  'ascii',
  'blank',
  'cntrl',
  'digit',
  'graph',
  'lower',
  'print',
  'punct',
  'space',
  'upper',
  'word',
  'xdigit',
]);

/** One character as an RE2 literal outside a class. */
function quote(c: string): string {
  return /[\\^$.|?*+()[\]{}]/.test(c) ? `\\${c}` : c;
}

/** One character as an RE2 literal inside a class. */
function classChar(c: string): string {
  return /[\\\]^[-]/.test(c) ? `\\${c}` : c;
}
