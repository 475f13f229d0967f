import type { CommandFn } from '../../context.js';
import type { ShellLstat } from '../../overlay.js';
import { compareC, getopts, resolve } from '../util.js';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const HALF_YEAR_MS = 182.5 * 24 * 3600 * 1000;
const join = (dir: string, name: string) => (dir === '/' ? `/${name}` : `${dir}/${name}`);

/** Options ls reads, each honoured below. */
export const LS_FLAGS = 'laA1RFdhtSr';

/** GNU's date column: time of day within six months, else the year. */
function dateColumn(ms: number): string {
  const d = new Date(ms);
  const head = `${MONTHS[d.getMonth()]} ${String(d.getDate()).padStart(2)}`;
  if (Math.abs(Date.now() - ms) < HALF_YEAR_MS)
    return `${head} ${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
  return `${head}  ${d.getFullYear()}`;
}

/** `ls -h` sizes: 1 decimal under 10, K/M/G rounded up, as GNU prints them. */
function human(n: number): string {
  if (n < 1024) return String(n);
  const units = ['K', 'M', 'G', 'T'];
  let v = n;
  let u = -1;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return v < 10 ? `${(Math.ceil(v * 10) / 10).toFixed(1)}${units[u]}` : `${Math.ceil(v)}${units[u]}`;
}

interface Entry {
  name: string;
  path: string;
  st: Pick<ShellLstat, 'type' | 'size' | 'mtimeMs'>;
}

/** ls: names (sorted bytewise), -l in GNU's long format with dates from each file's mtime, -R, -a/-A, -F, -d, -t/-S/-r. */
export const ls: CommandFn = async (ctx) => {
  const { operands, flags } = getopts(ctx.args, LS_FLAGS, '', { all: 'a', 'almost-all': 'A', recursive: 'R' });
  const fs = ctx.shell.state.fs;
  const targets = operands.length ? operands : ['.'];
  const fileOps: Entry[] = [];
  const dirOps: Entry[] = [];
  let status = 0;
  for (const t of targets) {
    const st =
      (await fs.stat(resolve(ctx, t)).catch(() => null)) ?? (await fs.lstat(resolve(ctx, t)).catch(() => null));
    if (!st) {
      ctx.err(`ls: cannot access '${t}': No such file or directory\n`);
      status = 2;
      continue;
    }
    (st.type === 'dir' && !flags.has('d') ? dirOps : fileOps).push({ name: t, path: resolve(ctx, t), st });
  }
  const order = (list: Entry[]) => {
    const sorted = [...list].sort((a, b) =>
      flags.has('t')
        ? b.st.mtimeMs - a.st.mtimeMs || compareC(a.name, b.name)
        : flags.has('S')
          ? b.st.size - a.st.size || compareC(a.name, b.name)
          : compareC(a.name, b.name),
    );
    return flags.has('r') ? sorted.reverse() : sorted;
  };
  const print = async (entries: Entry[], withTotal: boolean) => {
    if (!flags.has('l')) {
      for (const e of entries) ctx.out(`${e.name}${flags.has('F') && e.st.type === 'dir' ? '/' : ''}\n`);
      return;
    }
    const rows = await Promise.all(
      entries.map(async (e) => {
        const dir = e.st.type === 'dir';
        const links = dir
          ? 2 +
            (
              await Promise.all(
                (
                  await fs.readdir(e.path).catch(() => [] as string[])
                ).map((n) => fs.stat(join(e.path, n)).catch(() => null)),
              )
            ).filter((s) => s?.type === 'dir').length
          : 1;
        const size = dir ? 4096 : e.st.size;
        const own = await fs.lstat(e.path).catch(() => null);
        const link = own?.type === 'symlink' ? own.target : undefined;
        return {
          mode: dir ? 'drwxr-xr-x' : link !== undefined ? 'lrwxrwxrwx' : own?.executable ? '-rwxr-xr-x' : '-rw-r--r--',
          links: String(links),
          size: flags.has('h') ? human(size) : String(size),
          blocks: Math.ceil(size / 4096) * 4,
          date: dateColumn(e.st.mtimeMs),
          name: `${e.name}${flags.has('F') && dir ? '/' : ''}${link !== undefined ? ` -> ${link}` : ''}`,
        };
      }),
    );
    if (withTotal) {
      const total = rows.reduce((s, r) => s + r.blocks, 0);
      ctx.out(`total ${flags.has('h') ? human(total * 1024) : total}\n`);
    }
    const lw = Math.max(0, ...rows.map((r) => r.links.length));
    const sw = Math.max(0, ...rows.map((r) => r.size.length));
    for (const r of rows)
      ctx.out(`${r.mode} ${r.links.padStart(lw)} user user ${r.size.padStart(sw)} ${r.date} ${r.name}\n`);
  };
  await print(order(fileOps), false);
  const all = flags.has('a') || flags.has('A');
  const headers = targets.length > 1 || flags.has('R');
  let first = fileOps.length === 0;
  const listDir = async (label: string, dir: string) => {
    if (headers) ctx.out(`${first ? '' : '\n'}${label}:\n`);
    first = false;
    const names = (await fs.readdir(dir)).filter((x) => all || !x.startsWith('.'));
    const entries: Entry[] = [];
    for (const name of names) {
      // A link (which the shell never follows) is listed as itself.
      const st = (await fs.stat(join(dir, name)).catch(() => null)) ??
        (await fs.lstat(join(dir, name)).catch(() => null)) ?? { type: 'file' as const, size: 0, mtimeMs: 0 };
      entries.push({ name, path: join(dir, name), st });
    }
    const dot = await fs.stat(dir);
    const shown = order(entries);
    if (flags.has('a') && dot) shown.unshift({ name: '.', path: dir, st: dot }, { name: '..', path: dir, st: dot });
    await print(shown, true);
    if (flags.has('R'))
      for (const e of shown)
        if (e.st.type === 'dir' && e.name !== '.' && e.name !== '..')
          await listDir(label.endsWith('/') ? `${label}${e.name}` : `${label}/${e.name}`, e.path);
  };
  for (const d of order(dirOps)) await listDir(d.name, d.path);
  return status;
};
