/** A compiled pattern of grep's: whether a line holds a match, and each non-empty match in it. */
export interface LineRegex {
  test(line: string): boolean;
  matches(line: string): string[];
}

let engine: Promise<typeof import('re2js')> | null = null;

/**
 * A line pattern from JavaScript regex source. A backtracking `RegExp` only where it cannot
 * backtrack (no quantifier: a literal, a class, an alternation of those) or RE2 cannot take the
 * pattern (backreferences, lookaround: grep's -P and -w); otherwise RE2 (re2js), whose time is
 * linear in the line: `grep -E '(a|aa)*c'` over a line of 42 `a`s held the shell for 106 seconds.
 * RE2 runs a plain search several times slower than V8's engine, hence the literal's shortcut.
 * `longest`: each match the longest at its start, as POSIX grep's `-o` prints (`ab|abcd` on
 * `abcd` is `abcd`), where JavaScript and Perl take the first alternative that matches.
 */
export async function lineRegex(source: string, ignoreCase: boolean, longest = false): Promise<LineRegex> {
  if (longest || hasQuantifier(source)) {
    const { RE2JS } = await (engine ??= import('re2js'));
    let re: ReturnType<typeof RE2JS.compile> | null = null;
    try {
      re = RE2JS.compile(source, (ignoreCase ? RE2JS.CASE_INSENSITIVE : 0) | (longest ? RE2JS.LONGEST_MATCH : 0));
    } catch {
      // a feature RE2 lacks: the backtracking engine takes it
    }
    if (re !== null) {
      const linear = re;
      return {
        test: (line) => linear.matcher(line).find(),
        matches(line) {
          const out: string[] = [];
          const m = linear.matcher(line);
          while (m.find()) {
            const found = m.group();
            if (found) out.push(found);
          }
          return out;
        },
      };
    }
  }
  const re = new RegExp(source, ignoreCase ? 'gi' : 'g');
  return {
    test(line) {
      re.lastIndex = 0;
      return re.test(line);
    },
    matches(line) {
      re.lastIndex = 0;
      return [...line.matchAll(re)].map((m) => m[0]).filter((m) => m !== '');
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
