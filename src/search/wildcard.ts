/**
 * One part of a wildcard pattern: one character (`one`: a regex matching one, `slash` when it is
 * a literal `/`), `*` (a run of any characters; with `slashStops`, none of them a `/`), a run of
 * anything (`rest`: git's trailing `**`), or nothing or anything ending in a slash (`dirs`: `** /`).
 */
export type WildPart = { one: string; slash?: boolean } | { star: true } | { rest: true } | { dirs: true };

/**
 * A test of whole texts against a pattern's parts. A regex while it cannot backtrack far (at most
 * one `rest` or `dirs`, and one `*` between two slashes); otherwise the parts run side by side over
 * the text, each character looked at once: `*a*a*a*a*a*a*a*b` against a name of sixty `a`s took a
 * regex 36 seconds, and a shell's `ls *a*a*a*a*a*a*a*a*b` 172.
 */
export function wildcardMatcher(
  parts: readonly WildPart[],
  slashStops: boolean,
  flags = '',
): (text: string) => boolean {
  let spans = 0;
  let stars = 0;
  let bounded = true;
  for (const p of parts) {
    if ('rest' in p || 'dirs' in p) {
      spans++;
      stars = 0;
    } else if ('star' in p) stars++;
    else if (slashStops && p.slash) stars = 0;
    if (spans > 1 || stars > 1) bounded = false;
  }
  if (bounded) {
    const source = parts
      .map((p) =>
        'one' in p ? p.one : 'star' in p ? (slashStops ? '[^/]*' : '[^]*') : 'rest' in p ? '[^]*' : '(?:[^]*/)?',
      )
      .join('');
    const re = new RegExp(`^${source}$`, flags);
    return (text) => re.test(text);
  }
  const ones = parts.map((p) => ('one' in p ? new RegExp(`^${p.one}$`, flags) : null));
  return (text) => runParts(parts, ones, slashStops, text);
}

/**
 * The parts over the text as a set of positions, advanced one character at a time. `at[i]`: the
 * text so far ends before part i; `inDirs[i]`: inside part i's `dirs`, which ends after a slash.
 */
function runParts(
  parts: readonly WildPart[],
  ones: ReadonlyArray<RegExp | null>,
  slashStops: boolean,
  text: string,
): boolean {
  const n = parts.length;
  let at = new Uint8Array(n + 1);
  let inDirs = new Uint8Array(n + 1);
  const close = (set: Uint8Array) => {
    for (let i = 0; i < n; i++) if (set[i] && !('one' in parts[i]!)) set[i + 1] = 1;
  };
  at[0] = 1;
  close(at);
  for (let k = 0; k < text.length; k++) {
    const c = text[k]!;
    const nextAt = new Uint8Array(n + 1);
    const nextDirs = new Uint8Array(n + 1);
    for (let i = 0; i < n; i++) {
      const p = parts[i]!;
      if (at[i]) {
        if ('one' in p) {
          if (ones[i]!.test(c)) nextAt[i + 1] = 1;
        } else if ('star' in p) {
          if (!slashStops || c !== '/') nextAt[i] = 1;
        } else if ('rest' in p) nextAt[i] = 1;
        else nextDirs[i] = 1;
      }
      if (nextDirs[i] || inDirs[i]) {
        nextDirs[i] = 1;
        if (c === '/') nextAt[i + 1] = 1;
      }
    }
    close(nextAt);
    if (!nextAt.includes(1) && !nextDirs.includes(1)) return false;
    at = nextAt;
    inDirs = nextDirs;
  }
  return at[n] === 1;
}
