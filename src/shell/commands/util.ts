import { decodeLossy } from '../bytes.js';
import { errorText, TimeoutSignal, UsageError, type CommandContext } from '../context.js';
import { shellPath } from '../overlay.js';

export interface Parsed {
  flags: Set<string>;
  values: Map<string, string[]>;
  operands: string[];
}

/**
 * Read short options the POSIX way: `-abc` is three flags, a letter in `withValue` takes the rest
 * of its word or the next word, `--` ends options. Long options in `long` map to a short letter.
 */
export function getopts(args: string[], flags: string, withValue = '', long: Record<string, string> = {}): Parsed {
  const out: Parsed = { flags: new Set(), values: new Map(), operands: [] };
  const add = (k: string, v: string) => out.values.set(k, [...(out.values.get(k) ?? []), v]);
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      out.operands.push(...args.slice(i + 1));
      break;
    }
    if (a.startsWith('--') && a.length > 2) {
      const [name, inline] = a.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
      const letter = long[name];
      if (!letter) throw new UsageError(`unrecognized option '${a}'`, 2);
      if (withValue.includes(letter)) add(letter, inline ?? args[++i] ?? '');
      else out.flags.add(letter);
      continue;
    }
    if (!a.startsWith('-') || a === '-') {
      out.operands.push(a);
      continue;
    }
    for (let j = 1; j < a.length; j++) {
      const c = a[j]!;
      if (withValue.includes(c)) {
        const v = j + 1 < a.length ? a.slice(j + 1) : args[++i];
        if (v === undefined) throw new UsageError(`option requires an argument -- '${c}'`, 2);
        add(c, v);
        break;
      }
      if (!flags.includes(c)) throw new UsageError(`invalid option -- '${c}'`, 2);
      out.flags.add(c);
    }
  }
  return out;
}

export const resolve = (ctx: CommandContext, path: string) => shellPath(ctx.shell.state.cwd, path);

/** Read a file as text, or stdin for `-`. */
export async function readText(ctx: CommandContext, path: string): Promise<string> {
  if (path === '-') return ctx.stdin;
  return decodeLossy(await ctx.shell.state.fs.readFile(resolve(ctx, path)));
}

/**
 * The inputs of a filter: each named file (stdin when none), with `name: file: error` printed for
 * a file that cannot be read. `failed` says whether any could not.
 */
export async function inputs(
  ctx: CommandContext,
  files: string[],
): Promise<{ texts: Array<{ name: string; text: string }>; failed: boolean }> {
  if (files.length === 0) return { texts: [{ name: '-', text: ctx.stdin }], failed: false };
  const texts: Array<{ name: string; text: string }> = [];
  let failed = false;
  for (const f of files) {
    try {
      texts.push({ name: f, text: await readText(ctx, f) });
    } catch (error) {
      ctx.err(`${ctx.name}: ${f}: ${errorText(error)}\n`);
      failed = true;
    }
  }
  return { texts, failed };
}

/** Split text into lines without their newlines; a final newline does not make an empty last line. */
export function lines(text: string): string[] {
  if (text === '') return [];
  const out = text.split('\n');
  if (out[out.length - 1] === '') out.pop();
  return out;
}

export const joinLines = (ls: string[]) => ls.map((l) => `${l}\n`).join('');

/** Byte-order comparison, as `LC_ALL=C sort` compares. */
export const compareC = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Run a command by its argv as a program runs another (find -exec, xargs, timeout): no shell
 * functions, empty stdin, the same output. A missing command is reported as `who: 'name': No such
 * file or directory` with status 127.
 */
export async function runArgv(ctx: CommandContext, argv: string[], who: string, stdin = ''): Promise<number> {
  const fn = ctx.shell.state.commands.get(argv[0]!);
  if (!fn) {
    ctx.err(`${who}: '${argv[0]}': No such file or directory\n`);
    return 127;
  }
  try {
    return await fn({ ...ctx, stdin, input: undefined, name: argv[0]!, args: argv.slice(1) });
  } catch (error) {
    if (error instanceof TimeoutSignal) throw error;
    ctx.err(`${argv[0]}: ${errorText(error)}\n`);
    return error instanceof UsageError ? error.status : 1;
  }
}
