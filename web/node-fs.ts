/**
 * The `fs` and `path` a script sees in its worker: the workspace's files, copied in, and every
 * write kept for the host. Paths are shell paths (`/` is the workspace root).
 */

const enc = new TextEncoder();
const dec = new TextDecoder();

function fsError(code: string, syscall: string, path: string): Error {
  const text: Record<string, string> = {
    ENOENT: 'no such file or directory',
    EISDIR: 'illegal operation on a directory',
    ENOTDIR: 'not a directory',
    EEXIST: 'file already exists',
    ENOTEMPTY: 'directory not empty',
  };
  return Object.assign(new Error(`${code}: ${text[code] ?? code}, ${syscall} '${path}'`), {
    code,
    syscall,
    path,
    errno: -2,
  });
}

export function normalize(path: string): string {
  const out: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') out.pop();
    else out.push(part);
  }
  return `/${out.join('/')}`;
}

export function createPath(cwd: () => string) {
  const resolvePath = (...parts: string[]) =>
    normalize(parts.reduce((acc, p) => (p.startsWith('/') ? p : `${acc}/${p}`), cwd()));
  const basename = (p: string, ext?: string) => {
    const b = p.replace(/\/+$/, '').split('/').pop() ?? '';
    return ext && b.endsWith(ext) ? b.slice(0, -ext.length) : b;
  };
  const dirname = (p: string) => {
    const i = p.replace(/\/+$/, '').lastIndexOf('/');
    return i < 0 ? '.' : i === 0 ? '/' : p.slice(0, i);
  };
  const extname = (p: string) => {
    const b = basename(p);
    const i = b.lastIndexOf('.');
    return i <= 0 ? '' : b.slice(i);
  };
  const join = (...parts: string[]) => {
    const j = parts.filter(Boolean).join('/');
    const n = normalize(j);
    return j.startsWith('/') ? n : n.slice(1) || '.';
  };
  const relative = (from: string, to: string) => {
    const a = resolvePath(from).split('/').filter(Boolean),
      b = resolvePath(to).split('/').filter(Boolean);
    let i = 0;
    while (i < a.length && a[i] === b[i]) i++;
    return [...a.slice(i).map(() => '..'), ...b.slice(i)].join('/');
  };
  const path = {
    sep: '/',
    delimiter: ':',
    resolve: resolvePath,
    join,
    basename,
    dirname,
    extname,
    relative,
    normalize: (p: string) => (p.startsWith('/') ? normalize(p) : normalize(p).slice(1) || '.'),
    isAbsolute: (p: string) => p.startsWith('/'),
  };
  return { ...path, posix: path };
}

export function createFs(
  files: Map<string, Uint8Array>,
  dirs: Set<string>,
  writes: Map<string, Uint8Array | null>,
  resolvePath: (p: string) => string,
) {
  const abs = (p: unknown) => resolvePath(p instanceof URL ? p.pathname : String(p));
  const isDir = (p: string) => dirs.has(p);
  const encodingOf = (o: unknown) => (typeof o === 'string' ? o : (o as { encoding?: string } | undefined)?.encoding);
  const stat = (p: string, syscall = 'stat') => {
    const file = files.get(p);
    if (!file && !isDir(p)) throw fsError('ENOENT', syscall, p);
    const d = !file;
    return {
      size: file?.length ?? 0,
      mode: d ? 0o40755 : 0o100644,
      mtimeMs: Date.now(),
      mtime: new Date(),
      isFile: () => !d,
      isDirectory: () => d,
      isSymbolicLink: () => false,
    };
  };
  const write = (p: string, data: Uint8Array) => {
    const parent = p.slice(0, p.lastIndexOf('/')) || '/';
    if (!isDir(parent)) throw fsError('ENOENT', 'open', p);
    if (isDir(p)) throw fsError('EISDIR', 'open', p);
    files.set(p, data);
    writes.set(p, data);
  };
  const toBytes = (data: unknown) =>
    typeof data === 'string' ? enc.encode(data) : data instanceof Uint8Array ? data : enc.encode(String(data));
  const sync = {
    existsSync: (p: unknown) => {
      const a = abs(p);
      return files.has(a) || isDir(a);
    },
    readFileSync: (p: unknown, o?: unknown) => {
      const a = abs(p);
      if (isDir(a)) throw fsError('EISDIR', 'read', a);
      const data = files.get(a);
      if (!data) throw fsError('ENOENT', 'open', a);
      return encodingOf(o) ? dec.decode(data) : data;
    },
    writeFileSync: (p: unknown, data: unknown) => write(abs(p), toBytes(data)),
    appendFileSync: (p: unknown, data: unknown) => {
      const a = abs(p);
      const old = files.get(a) ?? new Uint8Array();
      const add = toBytes(data);
      const joined = new Uint8Array(old.length + add.length);
      joined.set(old);
      joined.set(add, old.length);
      write(a, joined);
    },
    readdirSync: (p: unknown) => {
      const a = abs(p);
      if (!isDir(a)) throw fsError(files.has(a) ? 'ENOTDIR' : 'ENOENT', 'scandir', a);
      const prefix = a === '/' ? '/' : `${a}/`;
      const names = new Set<string>();
      for (const k of [...files.keys(), ...dirs])
        if (k.startsWith(prefix) && k !== a) names.add(k.slice(prefix.length).split('/')[0]!);
      return [...names].sort();
    },
    mkdirSync: (p: unknown, o?: { recursive?: boolean }) => {
      const a = abs(p);
      if (isDir(a)) {
        if (o?.recursive) return;
        throw fsError('EEXIST', 'mkdir', a);
      }
      const parts = a.split('/').filter(Boolean);
      for (let i = 1; i <= parts.length; i++) {
        const d = `/${parts.slice(0, i).join('/')}`;
        if (files.has(d)) throw fsError('ENOTDIR', 'mkdir', a);
        if (!isDir(d)) {
          if (i < parts.length && !o?.recursive) throw fsError('ENOENT', 'mkdir', a);
          dirs.add(d);
        }
      }
    },
    statSync: (p: unknown) => stat(abs(p)),
    lstatSync: (p: unknown) => stat(abs(p), 'lstat'),
    unlinkSync: (p: unknown) => {
      const a = abs(p);
      if (!files.has(a)) throw fsError(isDir(a) ? 'EISDIR' : 'ENOENT', 'unlink', a);
      files.delete(a);
      writes.set(a, null);
    },
    rmSync: (p: unknown, o?: { recursive?: boolean; force?: boolean }) => {
      const a = abs(p);
      if (files.has(a)) {
        files.delete(a);
        writes.set(a, null);
        return;
      }
      if (!isDir(a)) {
        if (o?.force) return;
        throw fsError('ENOENT', 'rm', a);
      }
      if (!o?.recursive) throw fsError('EISDIR', 'rm', a);
      for (const k of [...files.keys()])
        if (k.startsWith(`${a}/`)) {
          files.delete(k);
          writes.set(k, null);
        }
      for (const d of [...dirs]) if (d === a || d.startsWith(`${a}/`)) dirs.delete(d);
    },
    renameSync: (from: unknown, to: unknown) => {
      const a = abs(from),
        b = abs(to);
      const data = files.get(a);
      if (!data) throw fsError('ENOENT', 'rename', a);
      write(b, data);
      files.delete(a);
      writes.set(a, null);
    },
    copyFileSync: (from: unknown, to: unknown) => {
      const data = files.get(abs(from));
      if (!data) throw fsError('ENOENT', 'copyfile', abs(from));
      write(abs(to), data);
    },
  };
  const promisify =
    <F extends (...a: never[]) => unknown>(f: F) =>
    (...a: Parameters<F>) =>
      new Promise<ReturnType<F>>((res, rej) => {
        try {
          res(f(...a) as ReturnType<F>);
        } catch (e) {
          rej(e);
        }
      });
  const promises = {
    readFile: promisify(sync.readFileSync),
    writeFile: promisify(sync.writeFileSync),
    appendFile: promisify(sync.appendFileSync),
    readdir: promisify(sync.readdirSync),
    mkdir: promisify(sync.mkdirSync),
    stat: promisify(sync.statSync),
    lstat: promisify(sync.lstatSync),
    unlink: promisify(sync.unlinkSync),
    rm: promisify(sync.rmSync),
    rename: promisify(sync.renameSync),
    copyFile: promisify(sync.copyFileSync),
    access: promisify((p: unknown) => {
      if (!sync.existsSync(p)) throw fsError('ENOENT', 'access', abs(p));
    }),
  };
  return { ...sync, promises };
}
