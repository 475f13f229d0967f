import { decodeLossy } from '../../bytes.js';
import { errorText, UsageError, type CommandContext, type CommandFn } from '../../context.js';
import { globPattern, type GlobPattern } from '../../expand.js';
import { getopts, lines, resolve } from '../util.js';
import { lineRegex } from './line-regex.js';
import { escapeRegex, posixRegex } from './regex.js';

const LONG = {
  'ignore-case': 'i',
  'invert-match': 'v',
  'line-number': 'n',
  count: 'c',
  'files-with-matches': 'l',
  'files-without-match': 'L',
  recursive: 'r',
  'word-regexp': 'w',
  'line-regexp': 'x',
  'extended-regexp': 'E',
  'fixed-strings': 'F',
  'only-matching': 'o',
  'no-filename': 'h',
  'with-filename': 'H',
  quiet: 'q',
  silent: 'q',
  regexp: 'e',
  include: '<',
  exclude: '>',
  'no-messages': 's',
  'after-context': 'A',
  'before-context': 'B',
  context: 'C',
  'exclude-dir': '/',
  text: 'a',
  'basic-regexp': 'G',
  'perl-regexp': 'P',
  'dereference-recursive': 'R',
  'max-count': 'm',
};

/** grep's options (letters; long-only ones are not listed): the table the flags test reads. */
export const GREP_FLAGS = 'ivnclLrRwxEFGohHqsPaIemABC' as const;

/** -P: JavaScript's regex is Perl's for what agents write (\d, \w, lookaround, non-greedy); the rest is refused. */
function perlRegex(p: string): string {
  if (/\(\?[<]?[=!]?[a-zA-Z]|\\[QEKGAZz]|\(\?\|/.test(p) && !/\(\?<[=!]|\(\?<[A-Za-z]/.test(p))
    throw new UsageError(`-P: this Perl regex feature is not supported by this shell: ${p}`, 2);
  try {
    new RegExp(p);
  } catch {
    throw new UsageError(`-P: invalid or unsupported Perl regex: ${p}`, 2);
  }
  return p;
}

/** `-3` is `-C 3`, as GNU grep reads it. */
const contextArgs = (args: string[]) => args.map((a) => (/^-\d+$/.test(a) ? `-C${a.slice(1)}` : a));

/** Files below `dir`, sorted, hidden ones included (as grep -r does), folders matching `skip` left out. */
async function walk(
  ctx: CommandContext,
  dir: string,
  shown: string,
  out: Array<[string, string]>,
  skip: GlobPattern[] = [],
): Promise<void> {
  const fs = ctx.shell.state.fs;
  for (const name of await fs.readdir(dir)) {
    const path = dir === '/' ? `/${name}` : `${dir}/${name}`;
    const label = shown === '' ? name : shown.endsWith('/') ? `${shown}${name}` : `${shown}/${name}`;
    const st = await fs.stat(path).catch(() => null);
    if (st?.type === 'dir') {
      if (!skip.some((r) => r.test(name))) await walk(ctx, path, label, out, skip);
    } else if (st) out.push([label, path]);
  }
}

/** grep: basic or extended regular expressions, or fixed strings, over files, folders (-r) or stdin. */
export const grep: CommandFn = async (ctx) => {
  const { operands, flags, values } = getopts(contextArgs(ctx.args), 'ivnclLrRwxEFGohHqsPaI', 'emABC<>/', LONG);
  const patterns = values.get('e') ?? (operands.length ? [operands.shift()!] : []);
  if (patterns.length === 0) {
    ctx.err('Usage: grep [OPTION]... PATTERNS [FILE]...\n');
    return 2;
  }
  const sources = patterns
    .flatMap((p) => p.split('\n'))
    .map((p) => {
      let body = flags.has('F')
        ? escapeRegex(p)
        : flags.has('P')
          ? perlRegex(p)
          : posixRegex(p, flags.has('E'), '').source;
      if (flags.has('w')) body = `(?<![A-Za-z0-9_])(?:${body})(?![A-Za-z0-9_])`;
      if (flags.has('x')) body = `^(?:${body})$`;
      return body;
    });
  const re = await lineRegex(
    sources.map((s) => `(?:${s})`).join('|'),
    flags.has('i'),
    flags.has('o') && !flags.has('P'),
  );
  const recursive = flags.has('r') || flags.has('R');
  const files: Array<[string, string]> = [];
  let status = 1;
  let trouble = false;
  const fs = ctx.shell.state.fs;
  const include = (values.get('<') ?? []).map((g) => globPattern(g, true));
  const exclude = (values.get('>') ?? []).map((g) => globPattern(g, true));
  const excludeDir = (values.get('/') ?? []).map((g) => globPattern(g.replace(/\/+$/, ''), true));
  const number = (letter: string) => {
    const v = values.get(letter)?.at(-1);
    if (v === undefined) return 0;
    if (!/^\d+$/.test(v)) throw new UsageError(`${v}: invalid context length argument`, 2);
    return Number(v);
  };
  const after = values.has('A') ? number('A') : number('C');
  const before = values.has('B') ? number('B') : number('C');
  const contextual = after > 0 || before > 0;
  let lastPrinted = -1;
  let anyPrinted = false;
  const named = operands.length ? operands : recursive ? ['.'] : [];
  let sawDir = false;
  for (const op of named) {
    const path = resolve(ctx, op);
    const st = await fs.stat(path).catch(() => null);
    if (st?.type === 'dir') {
      sawDir = true;
      if (!recursive) {
        ctx.err(`grep: ${op}: Is a directory\n`);
        trouble = true;
        continue;
      }
      const found: Array<[string, string]> = [];
      await walk(ctx, path, operands.length ? op : '', found, excludeDir);
      files.push(
        ...found.filter(([label]) => {
          const base = label.split('/').pop()!;
          return (include.length === 0 || include.some((r) => r.test(base))) && !exclude.some((r) => r.test(base));
        }),
      );
    } else files.push([op, path]);
  }
  const many = flags.has('H') || (!flags.has('h') && (files.length > 1 || (recursive && sawDir)));
  // a binary file (a NUL in its first 8 KiB) is searched but not printed; -I skips it; -a reads it as text
  const inputs: Array<[string, string | null, boolean]> =
    named.length === 0 ? [['(standard input)', ctx.stdin, false]] : [];
  for (const [label, path] of files) {
    try {
      const bytes = await fs.readFile(path);
      const binary = !flags.has('a') && bytes.subarray(0, 8192).includes(0);
      inputs.push([label, binary && flags.has('I') ? null : decodeLossy(bytes), binary]);
    } catch (error) {
      if (!flags.has('s')) ctx.err(`grep: ${label}: ${errorText(error)}\n`);
      trouble = true;
    }
  }
  const max = values.has('m') ? Number(values.get('m')![0]) : Infinity;
  for (const [label, text, binary] of inputs) {
    const prefix = many ? `${label}:` : '';
    if (text === null) continue;
    let count = 0;
    const all = lines(text);
    lastPrinted = -1;
    let afterLeft = 0;
    const quiet = flags.has('l') || flags.has('L') || flags.has('c') || flags.has('q');
    if (binary && !quiet) {
      if (all.some((line) => re.test(line) !== flags.has('v'))) {
        status = 0;
        ctx.err(`grep: ${label}: binary file matches\n`);
      }
      continue;
    }
    const show = (n: number, sep: string) => {
      if (contextual && anyPrinted && lastPrinted >= 0 && n > lastPrinted + 1) ctx.out('--\n');
      else if (contextual && anyPrinted && lastPrinted < 0) ctx.out('--\n');
      const label = many ? `${inputLabel}${sep}` : '';
      ctx.out(`${label}${flags.has('n') ? `${n + 1}${sep}` : ''}${all[n]}\n`);
      lastPrinted = n;
      anyPrinted = true;
    };
    const inputLabel = prefix.slice(0, -1);
    for (const [n, line] of all.entries()) {
      if (count >= max) {
        if (afterLeft > 0 && !quiet) {
          show(n, '-');
          afterLeft--;
          continue;
        }
        break;
      }
      const hit = re.test(line) !== flags.has('v');
      if (!hit) {
        if (afterLeft > 0 && !quiet) {
          show(n, '-');
          afterLeft--;
        }
        continue;
      }
      count++;
      status = 0;
      if (flags.has('q')) return 0;
      if (quiet) continue;
      for (let b = Math.max(0, n - before, lastPrinted + 1); b < n; b++) show(b, '-');
      afterLeft = after;
      const num = flags.has('n') ? `${n + 1}:` : '';
      if (flags.has('o') && !flags.has('v')) {
        for (const m of re.matches(line)) ctx.out(`${prefix}${num}${m}\n`);
        lastPrinted = n;
        anyPrinted = true;
      } else show(n, ':');
    }
    if (flags.has('c')) ctx.out(`${prefix}${count}\n`);
    if (flags.has('l') && count > 0) ctx.out(`${label}\n`);
    if (flags.has('L') && count === 0) ctx.out(`${label}\n`);
  }
  if (flags.has('L')) status = inputs.some(([, t]) => t !== null) ? 0 : 1;
  return trouble && (status !== 0 || !flags.has('q')) ? 2 : status;
};
