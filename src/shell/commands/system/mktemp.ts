import { TimeoutSignal, UsageError, type CommandFn } from '../../context.js';
import { getopts, resolve } from '../util.js';

/** mktemp's options: the table the flags test reads. */
export const MKTEMP_FLAGS = 'dpqut' as const;

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * mktemp: make a new file (or -d folder) with a unique name and print it. Its place is -p DIR,
 * else $TMPDIR, else /tmp: a `tmp` folder at the workspace root, made when missing.
 */
export const mktemp: CommandFn = async (ctx) => {
  try {
    return await make(ctx);
  } catch (error) {
    // -q: a failure is said by the status alone, as GNU's
    if (ctx.args.some((a) => /^-[a-z]*q/.test(a) || a === '--quiet') && !(error instanceof TimeoutSignal)) return 1;
    throw error;
  }
};

const make: CommandFn = async (ctx) => {
  const { operands, flags, values } = getopts(ctx.args, 'dqut', 'p', {
    directory: 'd',
    quiet: 'q',
    'dry-run': 'u',
    tmpdir: 'p',
  });
  const template = operands[0] ?? 'tmp.XXXXXXXXXX';
  const xs = /X{3,}$/.exec(template.replace(/\.[^./X]*$/, ''));
  if (!xs) throw new UsageError(`too few X's in template '${template}'`);
  const inDir = values.get('p')?.[0] ?? ctx.env.get('TMPDIR') ?? ctx.shell.getVar('TMPDIR') ?? '/tmp';
  const relative = (flags.has('t') || operands.length === 0 || values.has('p')) && !template.includes('/');
  const fs = ctx.shell.state.fs;
  const dir = relative ? inDir : '.';
  if (relative && dir === '/tmp' && !(await fs.stat('/tmp'))) await fs.mkdir('/tmp');
  for (let attempt = 0; attempt < 100; attempt++) {
    const random = Array.from({ length: xs[0].length }, () => LETTERS[Math.floor(Math.random() * LETTERS.length)]).join(
      '',
    );
    const name = template.slice(0, xs.index) + random + template.slice(xs.index + xs[0].length);
    const shown = relative ? `${dir.replace(/\/+$/, '')}/${name}` : name;
    const abs = resolve(ctx, shown);
    if (await fs.stat(abs)) continue;
    if (!flags.has('u')) {
      if (flags.has('d')) await fs.mkdir(abs);
      else await fs.writeFile(abs, new Uint8Array());
    }
    ctx.out(`${shown}\n`);
    return 0;
  }
  throw new UsageError(`failed to create file via template '${template}': File exists`);
};
