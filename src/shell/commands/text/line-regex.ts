import type * as Re2 from 're2js';

/** A match in a line: where it starts and ends, and its groups (`group(0)` the whole match). */
export interface LineMatch {
  index: number;
  end: number;
  group(i: number): string | undefined;
}

/** A compiled pattern of grep's or sed's over one line at a time. */
export interface LineRegex {
  test(line: string): boolean;
  /** each non-empty match, in order */
  matches(line: string): string[];
  /** the first match starting at `from` or later */
  matchFrom(line: string, from: number): LineMatch | null;
}

let engine: Promise<typeof Re2> | null = null;
let loaded: typeof Re2 | null = null;

/** Load RE2 (re2js), for lineRegexNow: a command loads it before it compiles its patterns. */
export async function loadLinearRegex(): Promise<void> {
  loaded ??= await (engine ??= import('re2js'));
}

/** lineRegexNow once RE2 is loaded. */
export async function lineRegex(source: string, ignoreCase: boolean, longest = false): Promise<LineRegex> {
  await loadLinearRegex();
  return lineRegexNow(source, ignoreCase, longest);
}

/**
 * A line pattern from JavaScript regex source. A backtracking `RegExp` only where it cannot
 * backtrack (no quantifier: a literal, a class, an alternation of those) or RE2 cannot take the
 * pattern (backreferences, lookaround: grep's -P and -w); otherwise RE2 (re2js, once
 * loadLinearRegex has loaded it), whose time is linear in the line: `grep -E '(a|aa)*c'` over a
 * line of 42 `a`s held the shell for 106 seconds. RE2 runs a plain search several times slower
 * than V8's engine, hence the literal's shortcut. `longest`: each match the longest at its start,
 * as POSIX grep's `-o` prints (`ab|abcd` on `abcd` is `abcd`), where JavaScript and Perl take the
 * first alternative that matches.
 */
export function lineRegexNow(source: string, ignoreCase: boolean, longest = false): LineRegex {
  if (loaded !== null && (longest || hasQuantifier(source))) {
    const { RE2JS } = loaded;
    try {
      const flags = (ignoreCase ? RE2JS.CASE_INSENSITIVE : 0) | (longest ? RE2JS.LONGEST_MATCH : 0);
      return linear(RE2JS.compile(source, flags));
    } catch {
      // a feature RE2 lacks: the backtracking engine takes it
    }
  }
  return backtracking(new RegExp(source, ignoreCase ? 'gi' : 'g'));
}

function linear(re: Re2.RE2JS): LineRegex {
  const matchFrom = (line: string, from: number): LineMatch | null => {
    const m = re.matcher(line);
    if (!m.find(from)) return null;
    return { index: m.start(), end: m.end(), group: (i) => m.group(i) ?? undefined };
  };
  return {
    test: (line) => re.matcher(line).find(),
    matches(line) {
      const out: string[] = [];
      const m = re.matcher(line);
      while (m.find()) {
        const found = m.group();
        if (found) out.push(found);
      }
      return out;
    },
    matchFrom,
  };
}

function backtracking(re: RegExp): LineRegex {
  return {
    test(line) {
      re.lastIndex = 0;
      return re.test(line);
    },
    matches(line) {
      re.lastIndex = 0;
      return [...line.matchAll(re)].map((m) => m[0]).filter((m) => m !== '');
    },
    matchFrom(line, from) {
      re.lastIndex = from;
      const m = re.exec(line);
      return m && { index: m.index, end: m.index + m[0].length, group: (i) => m[i] };
    },
  };
}

/** Whether the source repeats anything (`*`, `+`, `?`, `{n}` outside a class and not a group's `(?`). */
function hasQuantifier(source: string): boolean {
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') i++;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') {
      inClass = true;
      if (source[i + 1] === '^') i++;
      if (source[i + 1] === ']') i++;
    } else if (c === '*' || c === '+' || c === '{' || (c === '?' && source[i - 1] !== '(')) return true;
  }
  return false;
}
