import type { LineRegex } from '../text/line-regex.js';
import type { CommandContext } from '../../context.js';
import { lines } from '../util.js';

export interface RgOutput {
  withName: boolean;
  lineNumbers: boolean;
  invert: boolean;
  only: boolean;
  count: boolean;
  list: boolean;
  quiet: boolean;
  max: number;
  after: number;
  before: number;
}

/**
 * Print what rg prints for each file, as it does when not writing to a terminal: `path:line`
 * (`path:n:line` with -n), context lines with `-`, `--` between separate groups. True when a line matched.
 */
export function printMatches(
  ctx: CommandContext,
  files: Array<{ shown: string; text: string }>,
  regex: LineRegex,
  o: RgOutput,
): boolean {
  let any = false;
  let printedGroup = false;
  const hits = (line: string) => regex.test(line) !== o.invert;
  for (const file of files) {
    const all = lines(file.text);
    const name = o.withName ? file.shown : '';
    const prefix = (n: number, sep: string) => (name ? `${name}${sep}` : '') + (o.lineNumbers ? `${n + 1}${sep}` : '');
    const matched: number[] = [];
    for (let n = 0; n < all.length && matched.length < o.max; n++) if (hits(all[n]!)) matched.push(n);
    if (!matched.length) continue;
    any = true;
    if (o.quiet) return true;
    if (o.list) {
      ctx.out(`${file.shown}\n`);
      continue;
    }
    if (o.count) {
      ctx.out(name ? `${name}:${matched.length}\n` : `${matched.length}\n`);
      continue;
    }
    const context = o.after > 0 || o.before > 0;
    const isMatch = new Set(matched);
    let last = -1;
    for (const m of matched) {
      const from = Math.max(m - o.before, last + 1);
      if (context && printedGroup && from > last + 1) ctx.out('--\n');
      for (let n = from; n < m; n++) ctx.out(`${prefix(n, '-')}${all[n]}\n`);
      if (o.only && !o.invert) {
        for (const found of regex.matches(all[m]!)) ctx.out(`${prefix(m, ':')}${found}\n`);
      } else ctx.out(`${prefix(m, ':')}${all[m]}\n`);
      last = m;
      printedGroup = true;
      // Trailing context stops at the next match, which prints itself.
      for (let n = m + 1; n <= Math.min(m + o.after, all.length - 1) && !isMatch.has(n); n++) {
        ctx.out(`${prefix(n, '-')}${all[n]}\n`);
        last = n;
      }
    }
  }
  return any;
}
