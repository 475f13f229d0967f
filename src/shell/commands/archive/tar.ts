import { GzipError, gunzip, gzip, isGzip } from '../../../archive/gzip.js';
import { TarFormatError, tarEntries } from '../../../archive/tar-read.js';
import { writeTar } from '../../../archive/tar-write.js';
import { decodeLossy, encodeUtf8 } from '../../bytes.js';
import { errorText, type CommandContext, type CommandFn } from '../../context.js';
import { shellPath } from '../../overlay.js';
import { collectMembers, extractEntries, type TarJob } from './tar-members.js';

/** tar's options (letters, and the long options that have no letter): the table the flags test reads. */
export const TAR_FLAGS = ['c', 'x', 't', 'f', 'z', 'v', 'C', 'O', 'p', 'm', '--strip-components', '--exclude'] as const;

const LONG: Record<string, string> = {
  create: 'c',
  extract: 'x',
  get: 'x',
  list: 't',
  file: 'f',
  gzip: 'z',
  gunzip: 'z',
  ungzip: 'z',
  verbose: 'v',
  directory: 'C',
  'to-stdout': 'O',
  'preserve-permissions': 'p',
  'same-permissions': 'p',
  touch: 'm',
  'strip-components': 'S',
  exclude: 'E',
};
const WITH_VALUE = 'fCSE';
const LETTERS = 'cxtfzvCOpm';
const TRY = "Try 'tar --help' or 'tar --usage' for more information.\n";

/** A complaint GNU tar makes before doing anything: the message, then exit 2 (64 for what its option parser rejects). */
class TarUsage extends Error {
  constructor(
    message: string,
    readonly status = 2,
  ) {
    super(message);
  }
}

/**
 * Read tar's command line as GNU does: a first word without a dash is a bundle of letters whose
 * values follow in order (`tar czf out.tgz src`), then dashed options anywhere among the members;
 * `-C DIR` applies to the members after it.
 */
function parse(ctx: CommandContext): TarJob {
  const job: TarJob = {
    mode: '',
    archive: '-',
    gzip: false,
    verbose: 0,
    toStdout: false,
    strip: 0,
    exclude: [],
    dir: ctx.shell.state.cwd,
    members: [],
  };
  const args = [...ctx.args];
  // S and E stand for --strip-components and --exclude, which have no letter of their own
  const take = (letter: string, value: string | undefined, long = false) => {
    if (!LETTERS.includes(letter) && !(long && 'SE'.includes(letter)))
      throw new TarUsage(unsupported(letter), GNU_LETTERS.includes(letter) ? 2 : 64);
    if (WITH_VALUE.includes(letter) && value === undefined)
      throw new TarUsage(`option requires an argument -- '${letter}'`, 64);
    if ('cxt'.includes(letter)) {
      if (job.mode && job.mode !== letter)
        throw new TarUsage("You may not specify more than one '-Acdtrux', '--delete' or  '--test-label' option");
      job.mode = letter as TarJob['mode'];
    } else if (letter === 'f') job.archive = value!;
    else if (letter === 'z') job.gzip = true;
    else if (letter === 'v') job.verbose++;
    else if (letter === 'O') job.toStdout = true;
    else if (letter === 'C') {
      job.dir = shellPath(job.dir, value!);
      job.dirShown = value!;
    } else if (letter === 'S') {
      if (!/^\d+$/.test(value!)) throw new TarUsage(`Invalid number of elements: '${value}'`);
      job.strip = Number(value);
    } else if (letter === 'E') job.exclude.push(value!);
    // p and m: extraction already keeps only the executable bit and stamps files as it writes them
  };
  if (args[0] !== undefined && !args[0].startsWith('-')) {
    const bundle = args.shift()!;
    for (const letter of bundle) take(letter, 'fC'.includes(letter) ? args.shift() : undefined);
  }
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      for (const m of args.slice(i + 1)) job.members.push({ name: m, dir: job.dir });
      break;
    }
    if (a.startsWith('--')) {
      const [name, inline] = a.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
      const letter = LONG[name];
      if (!letter) throw new TarUsage(`unrecognized option '${a}'`, 64);
      take(letter, WITH_VALUE.includes(letter) ? (inline ?? args[++i]) : undefined, true);
      continue;
    }
    if (a.startsWith('-') && a !== '-') {
      for (let j = 1; j < a.length; j++) {
        const letter = a[j]!;
        if ('fC'.includes(letter)) {
          take(letter, j + 1 < a.length ? a.slice(j + 1) : args[++i]);
          break;
        }
        take(letter, undefined);
      }
      continue;
    }
    job.members.push({ name: a, dir: job.dir });
  }
  if (!job.mode) throw new TarUsage("You must specify one of the '-Acdtrux', '--delete' or '--test-label' options");
  return job;
}

const NAMED: Record<string, string> = {
  j: 'bzip2 (-j)',
  J: 'xz (-J)',
  Z: 'compress (-Z)',
  r: 'appending (-r)',
  u: 'updating (-u)',
  A: 'concatenating (-A)',
  d: 'comparing (-d)',
  T: 'reading member names from a file (-T)',
  h: 'following links (-h)',
  P: 'absolute member names (-P)',
  k: 'keeping existing files (-k)',
};

/** GNU tar's own letters: one this shell lacks is refused as unsupported, any other as invalid. */
const GNU_LETTERS = 'aAbBcCdfFgGhHiIjJkKlLmMnNoOpPrRsStTuUvVwWxXzZ';

const unsupported = (letter: string) =>
  GNU_LETTERS.includes(letter)
    ? `${NAMED[letter] ?? `-${letter}`} is not supported by this shell (it has c, x, t with f, z, v, C, O, --strip-components, --exclude)`
    : `invalid option -- '${letter}'`;

/** The archive's bytes as tar reads them: from the file or stdin, inflated when gzip (said or seen). */
async function readArchive(ctx: CommandContext, job: TarJob): Promise<Uint8Array | number> {
  const fs = ctx.shell.state.fs;
  let data: Uint8Array;
  if (job.archive === '-') data = encodeUtf8(ctx.stdin);
  else {
    try {
      data = await fs.readFile(shellPath(ctx.shell.state.cwd, job.archive));
    } catch (error) {
      return fatal(ctx, `${job.archive}: Cannot open: ${errorText(error)}`);
    }
  }
  if (!job.gzip && isGzip(data) && job.archive === '-') return fatal(ctx, 'Archive is compressed. Use -z option');
  if (!job.gzip && !isGzip(data)) return data;
  try {
    return await gunzip(data);
  } catch (error) {
    const why = error instanceof GzipError ? error.message : 'unexpected end of file';
    ctx.err(`\ngzip: stdin: ${why}\n`);
    return fatal(ctx, 'Child returned status 1');
  }
}

/** GNU's end for an error it cannot go past: the message, "exiting now", status 2. */
function fatal(ctx: CommandContext, message: string): number {
  ctx.err(`tar: ${message}\ntar: Error is not recoverable: exiting now\n`);
  return 2;
}

/**
 * tar: create (`c`), extract (`x`) and list (`t`) archives in GNU tar's format, gzip (`z`) through
 * the platform's CompressionStream; `v` lists as GNU does (names, or `tv`'s long lines), `C` changes
 * folder, `O` extracts to stdout, `--strip-components` and `--exclude` as GNU. Archives it writes
 * extract with GNU tar, and it reads GNU's (long names included). Extracted files carry the time
 * they are written: the workspace keeps no other.
 */
export const tar: CommandFn = async (ctx) => {
  let job: TarJob;
  try {
    job = parse(ctx);
  } catch (error) {
    if (!(error instanceof TarUsage)) throw error;
    ctx.err(`tar: ${error.message}\n${TRY}`);
    return error.status;
  }
  const fs = ctx.shell.state.fs;
  // GNU changes into each -C folder as it reaches it, and stops at one that is not there
  if (job.dirShown !== undefined && (await fs.stat(job.dir).catch(() => null))?.type !== 'dir')
    return fatal(ctx, `${job.dirShown}: Cannot open: No such file or directory`);
  if (job.mode === 'c') {
    if (job.members.length === 0) {
      ctx.err(`tar: Cowardly refusing to create an empty archive\n${TRY}`);
      return 2;
    }
    const target = job.archive === '-' ? null : shellPath(ctx.shell.state.cwd, job.archive);
    if (target) {
      const parent = await fs.stat(target.slice(0, target.lastIndexOf('/')) || '/');
      if (parent?.type !== 'dir')
        return fatal(ctx, `${job.archive}: Cannot open: ${parent ? 'Not a directory' : 'No such file or directory'}`);
    }
    // GNU opens (and empties) the archive before it reads a member, so a walk can meet it
    if (target) await fs.writeFile(target, new Uint8Array());
    const { members, failed } = await collectMembers(ctx, job, target);
    let bytes = writeTar(members);
    if (job.gzip) bytes = await gzip(bytes);
    if (target) await fs.writeFile(target, bytes);
    else ctx.out(decodeLossy(bytes));
    return finish(ctx, failed);
  }
  const data = await readArchive(ctx, job);
  if (typeof data === 'number') return data;
  let entries: ReturnType<typeof tarEntries>;
  try {
    entries = tarEntries(data);
  } catch (error) {
    if (!(error instanceof TarFormatError)) throw error;
    if (error.kind === 'truncated') return fatal(ctx, error.message);
    ctx.err(`tar: ${error.message}\n`);
    return finish(ctx, true);
  }
  return finish(ctx, await extractEntries(ctx, job, entries));
};

/** GNU's last word after errors it went past: status 2. */
function finish(ctx: CommandContext, failed: boolean): number {
  if (!failed) return 0;
  ctx.err('tar: Exiting with failure status due to previous errors\n');
  return 2;
}
