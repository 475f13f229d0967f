import { UsageError, type CommandFn } from '../../context.js';
import { globPattern } from '../../glob.js';
import { compareC, getopts, resolve } from '../util.js';

/** tree's options: the table the flags test reads (`N` is `--noreport`). */
export const TREE_FLAGS = 'LadIN' as const;

/** A name as tree 2.x prints it: spaces and backslashes escaped. */
const shown = (name: string) => name.replace(/[\\ ]/g, '\\$&');

const join = (dir: string, name: string) => (dir === '/' ? `/${name}` : `${dir}/${name}`);

/**
 * tree (2.x): each folder's entries sorted, drawn with line art (ASCII unless the locale is
 * UTF-8, as tree does), links as `name -> target`, then `N directories, M files` counting the
 * top folder. `-L` depth, `-a` hidden names, `-d` folders only, `-I` names to leave out
 * (`a|b*` globs), `--noreport`.
 */
export const tree: CommandFn = async (ctx) => {
  const { flags, values, operands } = getopts(ctx.args, 'adN', 'LI', { noreport: 'N' });
  const depthArg = values.get('L')?.at(-1);
  if (depthArg !== undefined && !/^[1-9]\d*$/.test(depthArg))
    throw new UsageError('Invalid level, must be greater than 0.');
  const maxDepth = depthArg === undefined ? Infinity : Number(depthArg);
  const ignore = (values.get('I') ?? []).flatMap((p) => p.split('|')).map((p) => globPattern(p, true));
  const locale = ctx.env.get('LC_ALL') || ctx.env.get('LC_CTYPE') || ctx.env.get('LANG') || '';
  const utf8 = /utf-?8/i.test(locale);
  const [tee, last, bar, gap] = utf8 ? ['├── ', '└── ', '│\u00a0\u00a0 ', '    '] : ['|-- ', '`-- ', '|   ', '    '];
  const fs = ctx.shell.state.fs;
  let dirs = 0;
  let files = 0;
  let status = 0;
  const walk = async (dir: string, prefix: string, depth: number): Promise<void> => {
    const names = (await fs.readdir(dir))
      .filter((n) => (flags.has('a') || !n.startsWith('.')) && !ignore.some((re) => re.test(n)))
      .sort(compareC);
    const entries = [];
    for (const name of names) {
      const st = await fs.lstat(join(dir, name));
      if (st && (!flags.has('d') || st.type === 'dir')) entries.push({ name, st });
    }
    for (const [i, { name, st }] of entries.entries()) {
      const end = i === entries.length - 1;
      ctx.out(`${prefix}${end ? last : tee}${shown(name)}${st.type === 'symlink' ? ` -> ${st.target}` : ''}\n`);
      if (st.type === 'dir') {
        dirs++;
        if (depth < maxDepth) await walk(join(dir, name), prefix + (end ? gap : bar), depth + 1);
      } else files++;
    }
  };
  for (const op of operands.length ? operands : ['.']) {
    const p = resolve(ctx, op);
    const st = await fs.lstat(p).catch(() => null);
    if (st?.type !== 'dir') {
      ctx.out(`${op}  [error opening dir]\n`);
      if (st) files++;
      status = 2;
      continue;
    }
    dirs++;
    ctx.out(`${op}\n`);
    await walk(p, '', 1);
  }
  if (!flags.has('N')) {
    const fileWord = files === 1 ? 'file' : 'files';
    const dirWord = dirs === 1 ? 'directory' : 'directories';
    ctx.out(flags.has('d') ? `\n${dirs} ${dirWord}\n` : `\n${dirs} ${dirWord}, ${files} ${fileWord}\n`);
  }
  return status;
};
