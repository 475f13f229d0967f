import { GzipError, gunzip, gzip as deflate } from '../../../archive/gzip.js';
import { decodeLossy, encodeUtf8 } from '../../bytes.js';
import { errorText, UsageError, type CommandContext, type CommandFn } from '../../context.js';
import { getopts, resolve } from '../util.js';

/** gzip's options (gunzip and zcat share them): the table the flags test reads. */
export const GZIP_FLAGS = 'cdkfvt' as const;

const LONG = {
  stdout: 'c',
  'to-stdout': 'c',
  decompress: 'd',
  uncompress: 'd',
  keep: 'k',
  force: 'f',
  verbose: 'v',
  test: 't',
};

/** The suffixes gunzip takes off, and what each leaves (`.tgz` gives `.tar`). */
const SUFFIXES: Array<[string, string]> = [
  ['.gz', ''],
  ['.tgz', '.tar'],
  ['.taz', '.tar'],
  ['-gz', ''],
  ['.z', ''],
  ['_z', ''],
];

const unsuffixed = (name: string): string | null => {
  for (const [suffix, instead] of SUFFIXES)
    if (name.length > suffix.length && name.endsWith(suffix)) return name.slice(0, -suffix.length) + instead;
  return null;
};

/** gzip -v's ratio: the share saved by deflate alone, header and trailer left out, as `%5.1f%%`. */
function ratio(plain: number, packed: number, header: number): string {
  const saved = plain === 0 ? 0 : (100 * (plain - (packed - header))) / plain;
  return `${saved.toFixed(1).padStart(5)}%`;
}

/** The bytes of a gzip stream that are not deflate: its header (with the optional fields) and trailer. */
function overhead(data: Uint8Array): number {
  const flags = data[3] ?? 0;
  let at = 10;
  if (flags & 0x04) at += 2 + (data[at]! | (data[at + 1]! << 8));
  if (flags & 0x08) at = data.indexOf(0, at) + 1;
  if (flags & 0x10) at = data.indexOf(0, at) + 1;
  if (flags & 0x02) at += 2;
  return at + 8;
}

/**
 * gzip, gunzip, zcat as GNU's: `gzip FILE` replaces FILE with FILE.gz (keeps it with -k, writes
 * stdout with -c), `-d`/gunzip the reverse (FILE.gz, .tgz, .z; FILE.gz tried for FILE), zcat
 * writes stdout, `-t` tests, `-f` overwrites, `-v` reports the ratio. Messages and statuses as
 * GNU's (1 for an error, 2 for a warning such as an existing output). Deflate is the platform's
 * CompressionStream, at its one level: `-1`..`-9` are refused.
 */
export const gzip: CommandFn = async (ctx) => {
  const level = ctx.args.find((a) => /^-[a-zA-Z]*[0-9]/.test(a) || a === '--fast' || a === '--best');
  if (level)
    throw new UsageError(
      `compression levels (${level}) are not supported by this shell: its deflate has one level; drop the option`,
      1,
    );
  const { flags, operands } = getopts(ctx.args, GZIP_FLAGS, '', LONG);
  const decompress = flags.has('d') || flags.has('t') || ctx.name !== 'gzip';
  const toStdout = flags.has('c') || ctx.name === 'zcat';
  let status = 0;
  const names = operands.length ? operands : ['-'];
  for (const name of names) {
    ctx.shell.checkTime();
    const outcome = decompress
      ? await decompressOne(ctx, name, { toStdout: toStdout || name === '-', test: flags.has('t'), flags })
      : await compressOne(ctx, name, { toStdout: toStdout || name === '-', flags });
    // an error's 1 outranks a warning's 2, as in GNU gzip
    if (outcome === 'error') status = 1;
    else if (outcome === 'warning' && status === 0) status = 2;
  }
  return status;
};

type Outcome = 'ok' | 'warning' | 'error';

interface Options {
  toStdout: boolean;
  flags: Set<string>;
  test?: boolean;
}

/** The input's bytes, or the outcome after saying why there are none (missing, a folder). */
async function input(ctx: CommandContext, name: string): Promise<Uint8Array | Outcome> {
  if (name === '-') return encodeUtf8(ctx.stdin);
  const fs = ctx.shell.state.fs;
  const st = await fs.stat(resolve(ctx, name)).catch(() => null);
  if (st?.type === 'dir') {
    ctx.err(`gzip: ${name} is a directory -- ignored\n`);
    return 'warning';
  }
  try {
    return await fs.readFile(resolve(ctx, name));
  } catch (error) {
    ctx.err(`gzip: ${name}: ${errorText(error)}\n`);
    return 'error';
  }
}

/** Write `bytes` to `out` unless it exists and -f was not given; the outcome. */
async function place(ctx: CommandContext, out: string, bytes: Uint8Array, force: boolean): Promise<Outcome | null> {
  const fs = ctx.shell.state.fs;
  if (!force && (await fs.stat(resolve(ctx, out)).catch(() => null))) {
    ctx.err(`gzip: ${out} already exists;\tnot overwritten\n`);
    return 'warning';
  }
  await fs.writeFile(resolve(ctx, out), bytes);
  return null;
}

async function compressOne(ctx: CommandContext, name: string, o: Options): Promise<Outcome> {
  const data = await input(ctx, name);
  if (!(data instanceof Uint8Array)) return data;
  const suffix = SUFFIXES.find(([s]) => name.length > s.length && name.endsWith(s))?.[0];
  if (!o.toStdout && suffix) {
    ctx.err(`gzip: ${name} already has ${suffix} suffix -- unchanged\n`);
    return 'ok';
  }
  const fs = ctx.shell.state.fs;
  const base = name.split('/').pop()!;
  const mtime = name === '-' ? 0 : Math.floor(((await fs.stat(resolve(ctx, name)))?.mtimeMs ?? 0) / 1000);
  const packed = await deflate(data, name === '-' ? undefined : { name: base, mtime });
  const report = (what: string) => {
    if (o.flags.has('v') && name !== '-')
      ctx.err(`${name}:\t${ratio(data.length, packed.length, overhead(packed))} -- ${what}\n`);
  };
  if (o.toStdout) {
    ctx.out(decodeLossy(packed));
    report('replaced with stdout');
    return 'ok';
  }
  const stopped = await place(ctx, `${name}.gz`, packed, o.flags.has('f'));
  if (stopped) return stopped;
  if (!o.flags.has('k')) await fs.remove(resolve(ctx, name));
  report(o.flags.has('k') ? `created ${name}.gz` : `replaced with ${name}.gz`);
  return 'ok';
}

async function decompressOne(ctx: CommandContext, given: string, o: Options): Promise<Outcome> {
  const fs = ctx.shell.state.fs;
  let name = given;
  if (name !== '-' && !(await fs.stat(resolve(ctx, name)).catch(() => null)) && unsuffixed(name) === null)
    name = `${name}.gz`;
  const out = name === '-' ? null : unsuffixed(name);
  if (
    name !== '-' &&
    out === null &&
    !o.toStdout &&
    !o.test &&
    (await fs.stat(resolve(ctx, name)).catch(() => null))?.type === 'file'
  ) {
    ctx.err(`gzip: ${name}: unknown suffix -- ignored\n`);
    return 'warning';
  }
  const data = await input(ctx, name);
  if (!(data instanceof Uint8Array)) return data;
  let plain: Uint8Array;
  try {
    plain = await gunzip(data);
  } catch (error) {
    const shown = name === '-' ? 'stdin' : name;
    if (error instanceof GzipError && error.kind === 'not-gzip') ctx.err(`\ngzip: ${shown}: not in gzip format\n`);
    else ctx.err(`gzip: ${shown}: ${error instanceof GzipError ? error.message : 'unexpected end of file'}\n`);
    return 'error';
  }
  const verbose = o.flags.has('v') && name !== '-';
  const shownRatio = () => ratio(plain.length, data.length, overhead(data));
  if (o.test) {
    if (verbose) ctx.err(`${name}:\t OK\n`);
    return 'ok';
  }
  if (o.toStdout || out === null) {
    ctx.out(decodeLossy(plain));
    return 'ok';
  }
  const stopped = await place(ctx, out, plain, o.flags.has('f'));
  if (stopped) return stopped;
  if (!o.flags.has('k')) await fs.remove(resolve(ctx, name));
  if (verbose) ctx.err(`${name}:\t${shownRatio()} -- ${o.flags.has('k') ? 'created' : 'replaced with'} ${out}\n`);
  return 'ok';
}
