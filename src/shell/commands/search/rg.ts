import { isIgnored, parseGitignore, type IgnoreRules } from '../../../search/ignore.js';
import { compileGlob, type PathTest } from '../../../search/glob.js';
import { decodeLossy } from '../../bytes.js';
import { UsageError, type CommandFn } from '../../context.js';
import { escapeRegex } from '../text/regex.js';
import { getopts, resolve } from '../util.js';
import { lineRegexNow, loadLinearRegex, type LineRegex } from '../text/line-regex.js';
import { printMatches } from './rg-print.js';

/** rg's short options, each letter once: the table the flags test reads. */
export const RG_FLAGS = 'nNilcwFvxoSsHIquegtTmABC' as const;

const TYPES: Record<string, string[]> = {
  c: ['*.[chH]'],
  cpp: ['*.[ChH]', '*.[ch]pp', '*.[ch]xx', '*.cc', '*.hh'],
  css: ['*.css', '*.scss'],
  go: ['*.go'],
  html: ['*.ejs', '*.htm', '*.html'],
  java: ['*.java', '*.jsp', '*.jspx', '*.properties'],
  js: ['*.js', '*.jsx', '*.vue'],
  json: ['*.json', 'composer.lock'],
  md: ['*.markdown', '*.md', '*.mdown', '*.mkdn'],
  markdown: ['*.markdown', '*.md', '*.mdown', '*.mkdn'],
  py: ['*.py'],
  rust: ['*.rs'],
  sh: ['*.bash', '*.sh', '*.zsh', '.bashrc', '.profile'],
  toml: ['*.toml', 'Cargo.lock'],
  ts: ['*.ts', '*.tsx'],
  txt: ['*.txt'],
  yaml: ['*.yaml', '*.yml'],
};

/** The flags and values rg understands, long names mapped onto short letters (made-up ones for long-only). */
const LONG: Record<string, string> = {
  'line-number': 'n',
  'no-line-number': 'N',
  'ignore-case': 'i',
  'smart-case': 'S',
  'case-sensitive': 's',
  'files-with-matches': 'l',
  count: 'c',
  'word-regexp': 'w',
  'fixed-strings': 'F',
  'invert-match': 'v',
  'line-regexp': 'x',
  'only-matching': 'o',
  'with-filename': 'H',
  'no-filename': 'I',
  quiet: 'q',
  regexp: 'e',
  glob: 'g',
  type: 't',
  'type-not': 'T',
  'max-count': 'm',
  'after-context': 'A',
  'before-context': 'B',
  context: 'C',
  hidden: '.',
  files: '%',
  'no-ignore': '!',
  sort: '^',
  'no-heading': '_',
};

interface Found {
  shown: string;
  text: string;
}

/** rg: ripgrep's search and its output when not writing to a terminal (no headings, no colour). */
export const rg: CommandFn = async (ctx) => {
  const { flags, values, operands } = getopts(ctx.args, 'nNilcwFvxoSsHIqu.%!_', 'egtTmABC^', LONG);
  if (flags.has('u')) flags.add('!');
  if (ctx.args.filter((a) => /^-u+$/.test(a)).some((a) => a.length > 2)) flags.add('.');
  const patterns = values.get('e') ?? [];
  if (!patterns.length && !flags.has('%')) {
    const p = operands.shift();
    if (p === undefined) throw new UsageError('ripgrep requires at least one pattern to execute a search', 2);
    patterns.push(p);
  }
  const sortBy = values.get('^')?.[0];
  if (sortBy !== undefined && sortBy !== 'path' && sortBy !== 'none')
    throw new UsageError(`sorting by '${sortBy}' is not supported by this shell (it sorts by path)`, 2);
  const regex = await compile(patterns, flags);
  const typeGlobs = async (names: string[] | undefined) => {
    if (!names) return null;
    const globs: PathTest[] = [];
    for (const n of names) {
      const list = TYPES[n];
      if (!list) throw new UsageError(`unrecognized file type: ${n}`, 2);
      for (const g of list) globs.push(await compileGlob(g));
    }
    return (rel: string) => globs.some((t) => t(rel));
  };
  const only = await typeGlobs(values.get('t'));
  const not = await typeGlobs(values.get('T'));
  const globs = await Promise.all(
    (values.get('g') ?? []).map(async (g) => ({
      neg: g.startsWith('!'),
      test: await compileGlob(g.replace(/^!/, '')),
    })),
  );
  const wanted = (rel: string) => {
    if (only && !only(rel)) return false;
    if (not?.(rel)) return false;
    const inc = globs.filter((g) => !g.neg);
    if (inc.length && !inc.some((g) => g.test(rel))) return false;
    return !globs.some((g) => g.neg && g.test(rel));
  };
  const fs = ctx.shell.state.fs;
  const files: Found[] = [];
  let status = 0;
  const useIgnores = !flags.has('!');
  const inRepo = useIgnores && (await fs.stat('/.git').catch(() => null)) !== null;
  const walk = async (abs: string, shown: string, rel: string, stack: IgnoreRules[]): Promise<void> => {
    ctx.shell.checkTime();
    const rules = [...stack];
    if (useIgnores)
      for (const name of [...(inRepo ? ['.gitignore'] : []), '.ignore', '.rgignore']) {
        const text = await fs.readFile(`${abs === '/' ? '' : abs}/${name}`).catch(() => null);
        if (text) rules.push(await parseGitignore(rel, decodeLossy(text)));
      }
    for (const name of await fs.readdir(abs)) {
      if (name === '.git' || (name.startsWith('.') && !flags.has('.'))) continue;
      const childAbs = abs === '/' ? `/${name}` : `${abs}/${name}`;
      const childRel = rel ? `${rel}/${name}` : name;
      const childShown = shown === '' ? name : shown.endsWith('/') ? `${shown}${name}` : `${shown}/${name}`;
      const st = await fs.stat(childAbs).catch(() => null);
      if (!st) continue;
      if (isIgnored(rules, childRel, st.type === 'dir')) continue;
      if (st.type === 'dir') await walk(childAbs, childShown, childRel, rules);
      else if (wanted(childRel)) {
        const bytes = await fs.readFile(childAbs);
        if (bytes.subarray(0, 8192).includes(0)) continue;
        files.push({ shown: childShown, text: decodeLossy(bytes) });
      }
    }
  };
  const starts = operands.length ? operands : [];
  let single = starts.length === 1;
  if (!starts.length && ctx.stdin !== '' && !flags.has('%')) files.push({ shown: '<stdin>', text: ctx.stdin });
  else
    for (const start of starts.length ? starts : ['']) {
      const abs = resolve(ctx, start || '.');
      const st = await fs.stat(abs).catch(() => null);
      if (!st) {
        ctx.err(`rg: ${start}: No such file or directory (os error 2)\n`);
        status = 2;
        continue;
      }
      if (st.type === 'dir') {
        single = false;
        await walk(abs, start, '', []);
      } else files.push({ shown: start, text: decodeLossy(await fs.readFile(abs)) });
    }
  if (flags.has('%')) {
    for (const f of files) ctx.out(`${f.shown}\n`);
    return files.length ? status : 1;
  }
  const withName = flags.has('H') || (!flags.has('I') && !single && files[0]?.shown !== '<stdin>');
  const matched = printMatches(ctx, files, regex, {
    withName,
    // The later of -n and -N wins, as in rg.
    lineNumbers: lastOf(ctx.args, ['-n', '--line-number']) > lastOf(ctx.args, ['-N', '--no-line-number']),
    invert: flags.has('v'),
    only: flags.has('o'),
    count: flags.has('c'),
    list: flags.has('l'),
    quiet: flags.has('q'),
    max: values.has('m') ? Number(values.get('m')![0]) : Infinity,
    after: Number(values.get('A')?.[0] ?? values.get('C')?.[0] ?? 0),
    before: Number(values.get('B')?.[0] ?? values.get('C')?.[0] ?? 0),
  });
  return status || (matched ? 0 : 1);
};

const lastOf = (args: string[], names: string[]) =>
  Math.max(
    -1,
    ...args.map((a, i) =>
      names.includes(a) || (/^-[a-zA-Z]+$/.test(a) && names.some((n) => n.length === 2 && a.includes(n[1]!))) ? i : -1,
    ),
  );

/**
 * One pattern for all, with rg's case rules (-i, -S smart case) and -w -x -F; on RE2 where it
 * repeats anything, as ripgrep's own engine runs in time linear in the line (see lineRegexNow).
 */
async function compile(patterns: string[], flags: Set<string>): Promise<LineRegex> {
  await loadLinearRegex();
  let ignoreCase = flags.has('i');
  if (flags.has('S') && !flags.has('i')) ignoreCase = !patterns.some((p) => /[A-Z]/.test(p.replace(/\\./g, '')));
  if (flags.has('s')) ignoreCase = false;
  const sources = patterns.map((p) => {
    let src = flags.has('F') ? escapeRegex(p) : p;
    if (/^\(\?i\)/.test(src)) {
      ignoreCase = true;
      src = src.slice(4);
    }
    if (flags.has('w')) src = `(?<![\\w])(?:${src})(?![\\w])`;
    if (flags.has('x')) src = `^(?:${src})$`;
    return src;
  });
  try {
    return lineRegexNow(sources.map((s) => `(?:${s})`).join('|'), ignoreCase);
  } catch (error) {
    throw new UsageError(`regex parse error: ${(error as Error).message}`, 2);
  }
}
