import { UsageError } from '../../context.js';
import { globPattern } from '../../expand.js';

/** One file find looks at: where it is, how it is shown, and what it is (links are never followed). */
export interface FindEntry {
  abs: string;
  shown: string;
  /** the start point it was reached from, as typed */
  start: string;
  name: string;
  depth: number;
  type: 'file' | 'dir' | 'symlink';
  size: number;
  mtimeMs: number;
  mode: number;
  /** an empty file, or a folder with nothing in it */
  empty: () => Promise<boolean>;
  /** set by -prune: do not descend */
  prune?: boolean;
}

/** What the actions need from the command that runs them. */
export interface FindHost {
  /** run argv as -exec does; resolves with the exit status (127: not found, already reported) */
  exec(argv: string[]): Promise<number>;
  out(text: string): void;
  remove(entry: FindEntry): Promise<boolean>;
  mtimeOf(path: string): Promise<number>;
  printf(format: string, entry: FindEntry): string;
  now: number;
}

export type FindNode = (e: FindEntry) => boolean | Promise<boolean>;

/** find's parsed command line: the expression and the global options. */
export interface FindPlan {
  test: FindNode;
  maxDepth: number;
  minDepth: number;
  /** -depth or -delete: a folder after its contents */
  depthFirst: boolean;
  /** -exec ... {} + batches, run once the walk is over */
  finish: Array<() => Promise<void>>;
  /** set by -quit */
  quit: { now: boolean };
  /** an -exec {} + whose command failed makes find's status 1 */
  failed: { now: boolean };
}

/** The tests and actions find parses (operators aside): the table the flags test reads. */
export const FIND_PREDICATES = [
  '-name',
  '-iname',
  '-path',
  '-wholename',
  '-ipath',
  '-iwholename',
  '-regextype',
  '-regex',
  '-iregex',
  '-type',
  '-maxdepth',
  '-mindepth',
  '-depth',
  '-true',
  '-false',
  '-empty',
  '-newer',
  '-size',
  '-mtime',
  '-mmin',
  '-print',
  '-print0',
  '-printf',
  '-prune',
  '-quit',
  '-delete',
  '-exec',
] as const;

const ACTIONS = new Set(['-print', '-print0', '-printf', '-exec', '-delete', '-quit']);

const unitBytes: Record<string, number> = { c: 1, w: 2, b: 512, k: 1024, M: 1024 ** 2, G: 1024 ** 3 };

/** `+N`, `-N`, `N` as find compares: greater, less, exactly. */
function comparer(raw: string, option: string): (v: number) => boolean {
  const m = /^([+-]?)(\d+)$/.exec(raw);
  if (!m) throw new UsageError(`invalid argument \`${raw}' to \`${option}'`);
  const n = Number(m[2]);
  return m[1] === '+' ? (v) => v > n : m[1] === '-' ? (v) => v < n : (v) => v === n;
}

/** An emacs-syntax regular expression (find's default) as a JavaScript one, anchored to the whole path. */
function emacsRegExp(src: string, flags: string): RegExp {
  let re = '';
  for (let i = 0; i < src.length; i++) {
    const c = src[i]!;
    if (c === '\\' && i + 1 < src.length) {
      const n = src[++i]!;
      re += '()|{}'.includes(n) ? n : `\\${n}`;
    } else re += '()|{}'.includes(c) ? `\\${c}` : c;
  }
  return new RegExp(`^(?:${re})$`, flags);
}

/** Parse find's expression (after the start points) the way GNU find does. */
export function parseFind(args: string[], host: FindHost): FindPlan {
  const plan: FindPlan = {
    test: () => true,
    maxDepth: Infinity,
    minDepth: 0,
    depthFirst: false,
    finish: [],
    quit: { now: false },
    failed: { now: false },
  };
  let regexType = 'emacs';
  let i = 0;
  const primary = (): FindNode => {
    const a = args[i++]!;
    const value = () => {
      const v = args[i++];
      if (v === undefined) throw new UsageError(`missing argument to \`${a}'`);
      return v;
    };
    switch (a) {
      case '!':
      case '-not': {
        if (i >= args.length)
          throw new UsageError(`invalid expression; you have used a binary operator '${a}' with nothing before it.`);
        const t = primary();
        return async (e) => !(await t(e));
      }
      case '(': {
        const t = or();
        if (args[i++] !== ')')
          throw new UsageError("invalid expression; I was expecting to find a ')' somewhere but did not see one.");
        return t;
      }
      case '-name':
      case '-iname': {
        const test = globPattern(value(), false, a === '-iname');
        return (e) => test.test(e.name);
      }
      case '-path':
      case '-wholename':
      case '-ipath':
      case '-iwholename': {
        const test = globPattern(value(), false, a.startsWith('-i'));
        return (e) => test.test(e.shown);
      }
      case '-regextype': {
        regexType = value();
        if (!['emacs', 'posix-extended', 'egrep', 'findutils-default'].includes(regexType))
          throw new UsageError(`Unknown regular expression type \`${regexType}'`);
        return () => true;
      }
      case '-regex':
      case '-iregex': {
        const src = value();
        const flags = a === '-iregex' ? 'i' : '';
        const re =
          regexType === 'emacs' || regexType === 'findutils-default'
            ? emacsRegExp(src, flags)
            : new RegExp(`^(?:${src})$`, flags);
        return (e) => re.test(e.shown);
      }
      case '-type': {
        const letters = value().split(',');
        const map: Record<string, FindEntry['type']> = { f: 'file', d: 'dir', l: 'symlink' };
        for (const l of letters)
          if (!'fdlbcps'.includes(l) || l.length !== 1) throw new UsageError(`Unknown argument to -type: ${l}`);
        return (e) => letters.some((l) => map[l] === e.type);
      }
      case '-maxdepth':
      case '-mindepth': {
        const v = value();
        if (!/^\d+$/.test(v))
          throw new UsageError(`Expected a positive decimal integer argument to ${a}, but got \`${v}'`);
        if (a === '-maxdepth') plan.maxDepth = Number(v);
        else plan.minDepth = Number(v);
        return () => true;
      }
      case '-depth':
        plan.depthFirst = true;
        return () => true;
      case '-true':
        return () => true;
      case '-false':
        return () => false;
      case '-empty':
        return (e) => e.empty();
      case '-newer': {
        const ref = value();
        const when = host.mtimeOf(ref);
        return async (e) => e.mtimeMs > (await when);
      }
      case '-size': {
        const raw = value();
        const m = /^([+-]?\d+)([cwbkMG]?)$/.exec(raw);
        if (!m) throw new UsageError(`invalid -size type \`${raw.replace(/^[+-]?\d+/, '')}'`);
        const unit = unitBytes[m[2] || 'b']!;
        const cmp = comparer(m[1]!, a);
        return (e) => cmp(Math.ceil((e.type === 'dir' ? 4096 : e.size) / unit));
      }
      case '-mtime':
      case '-mmin': {
        const cmp = comparer(value(), a);
        const span = a === '-mtime' ? 86_400_000 : 60_000;
        return (e) => cmp(Math.floor((host.now - e.mtimeMs) / span));
      }
      case '-print':
        return (e) => (host.out(`${e.shown}\n`), true);
      case '-print0':
        return (e) => (host.out(`${e.shown}\0`), true);
      case '-printf': {
        const format = value();
        return (e) => (host.out(host.printf(format, e)), true);
      }
      case '-prune':
        return (e) => {
          e.prune = true;
          return true;
        };
      case '-quit':
        return () => {
          plan.quit.now = true;
          return true;
        };
      case '-delete':
        plan.depthFirst = true;
        return (e) => host.remove(e);
      case '-exec':
        return execNode(a);
      case ')':
        throw new UsageError("invalid expression; you have too many ')'");
      case '-o':
      case '-or':
      case '-a':
      case '-and':
        throw new UsageError(`invalid expression; you have used a binary operator '${a}' with nothing before it.`);
      default:
        throw new UsageError(
          a.startsWith('-') ? `unknown predicate \`${a}'` : `paths must precede expression: \`${a}'`,
        );
    }
  };
  const execNode = (a: string): FindNode => {
    const start = i;
    while (i < args.length && args[i] !== ';' && !(args[i] === '+' && args[i - 1] === '{}')) i++;
    if (i >= args.length || i === start) throw new UsageError(`missing argument to \`${a}'`);
    const argv = args.slice(start, i);
    const batch = args[i++] === '+';
    if (!batch) {
      return async (e) => (await host.exec(argv.map((w) => w.replaceAll('{}', e.shown)))) === 0;
    }
    if (argv.slice(0, -1).some((w) => w.includes('{}')) || argv.length < 2)
      throw new UsageError("In '-exec ... {} +' the '{}' must appear by itself");
    const paths: string[] = [];
    plan.finish.push(async () => {
      if (paths.length && (await host.exec([...argv.slice(0, -1), ...paths])) !== 0) plan.failed.now = true;
    });
    return (e) => (paths.push(e.shown), true);
  };
  const and = (): FindNode => {
    let t = primary();
    while (i < args.length && args[i] !== '-o' && args[i] !== '-or' && args[i] !== ')') {
      if (args[i] === '-a' || args[i] === '-and') i++;
      const l = t;
      const r = primary();
      t = async (e) => (await l(e)) && !plan.quit.now && r(e);
    }
    return t;
  };
  const or = (): FindNode => {
    let t = and();
    while (args[i] === '-o' || args[i] === '-or') {
      i++;
      const l = t;
      const r = and();
      t = async (e) => (await l(e)) || (!plan.quit.now && r(e));
    }
    return t;
  };
  if (args.length) {
    const t = or();
    if (i < args.length) throw new UsageError("invalid expression; you have too many ')'");
    plan.test = t;
  }
  // No action but -prune: -print whatever the whole expression is true for.
  if (!args.some((a) => ACTIONS.has(a))) {
    const t = plan.test;
    plan.test = async (e) => (await t(e)) && (host.out(`${e.shown}\n`), true);
  }
  return plan;
}
