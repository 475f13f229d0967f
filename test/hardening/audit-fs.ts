import { FsError, type WorkspaceFs } from '../../src/index.js';

/** One storage operation that reached outside the root. */
export interface Escape {
  op: string;
  path: string;
  real: string;
}

/** Operations that act on what a final link points at, rather than on the link itself. */
const FOLLOWS_FINAL = new Set(['readFile', 'writeFile', 'stat', 'readdir', 'readdirTypes', 'readdirStats']);
const OPS = [
  'readFile',
  'writeFile',
  'readdir',
  'readdirTypes',
  'readdirStats',
  'stat',
  'lstat',
  'mkdir',
  'rmdir',
  'unlink',
  'rename',
  'readlink',
  'symlink',
];

/**
 * Where a backend path really lands: every link on the way is followed (the final one only when
 * `followFinal`), with the backend's own lstat and readlink, so a dangling link counts too.
 */
export async function realOf(fs: WorkspaceFs, abs: string, followFinal: boolean): Promise<string> {
  let todo = abs.split('/').filter((p) => p !== '');
  let cur: string[] = [];
  let hops = 0;
  while (todo.length > 0) {
    const name = todo.shift()!;
    if (name === '.') continue;
    if (name === '..') {
      cur.pop();
      continue;
    }
    const here = `/${[...cur, name].join('/')}`;
    const st = await fs.lstat(here).catch(() => null);
    if (!st) {
      cur.push(name);
      continue;
    }
    if (st.type === 'symlink' && (todo.length > 0 || followFinal)) {
      // a loop never leaves wherever it is; stop there
      if (++hops > 40) return here;
      const target = await fs.readlink(here);
      if (target.startsWith('/')) cur = [];
      todo = [...target.split('/').filter((p) => p !== ''), ...todo];
      continue;
    }
    cur.push(name);
  }
  return `/${cur.join('/')}`;
}

/**
 * The real backend, with every operation checked before it runs: its path (and, for the ones that
 * follow links, its final target) must lie inside `root`. A breach is recorded so the fuzzer can
 * name the call that made it, and blocked (EACCES), so a broken build never touches the host.
 */
export function auditedFs(inner: WorkspaceFs, root: string): { fs: WorkspaceFs; escapes: Escape[]; ops: () => number } {
  const escapes: Escape[] = [];
  let count = 0;
  let realRoot: string | null = null;
  const inside = (p: string) => p === realRoot || p.startsWith(`${realRoot}/`);
  const check = async (op: string, path: unknown, followFinal: boolean) => {
    // isomorphic-git probes readFile() with no argument to learn whether the fs returns promises
    if (path === undefined) return;
    if (typeof path !== 'string') {
      escapes.push({ op, path: String(path), real: '(not a string)' });
      throw new FsError('EACCES', op);
    }
    realRoot ??= await realOf(inner, root, true);
    const real = await realOf(inner, path, followFinal);
    if (!inside(real)) {
      escapes.push({ op, path, real });
      throw new FsError('EACCES', op);
    }
  };
  const out: Record<string, unknown> = { capabilities: inner.capabilities, native: inner.native };
  // The fast paths a backend may offer are audited like the rest, so the fuzzer exercises them too.
  if (inner.readPlainFile) {
    // It follows no link at all and answers null where one is on the way, so what it did is
    // judged by its answer: a file it handed back must really lie inside the root.
    out.readPlainFile = async (base: string, rel: string, maxBytes: number) => {
      count++;
      const found = await inner.readPlainFile!(base, rel, maxBytes);
      if (found) await check('readPlainFile', `${base === '/' ? '' : base}/${rel}`, true);
      return found;
    };
  }
  if (inner.writeInPlace) {
    out.writeInPlace = async (path: string, data: Uint8Array, currentSize: number) => {
      count++;
      await check('writeInPlace', path, true);
      return inner.writeInPlace!(path, data, currentSize);
    };
  }
  for (const op of OPS) {
    const fn = (inner as unknown as Record<string, ((...a: unknown[]) => Promise<unknown>) | undefined>)[op];
    if (!fn) continue;
    out[op] = async (...args: unknown[]) => {
      count++;
      if (op === 'rename') {
        await check(op, args[0], false);
        await check(op, args[1], false);
      } else if (op === 'symlink') {
        await check(op, args[1], false);
        // a link the tools create must not aim outside either
        const target = String(args[0]);
        const parent = String(args[1]).slice(0, String(args[1]).lastIndexOf('/')) || '/';
        await check('symlink-target', target.startsWith('/') ? target : `${parent}/${target}`, true);
      } else {
        await check(op, args[0], FOLLOWS_FINAL.has(op));
      }
      return fn.apply(inner, args);
    };
  }
  return { fs: out as unknown as WorkspaceFs, escapes, ops: () => count };
}
