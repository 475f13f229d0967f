// A local npm registry for the tests and `npm run bench`: packuments and tarballs packed from
// fixture packages, served on 127.0.0.1 with the public registry's CORS headers.
import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import { join, relative, sep } from 'node:path';
import { gzipSync } from 'node:zlib';

function octal(value, width) {
  return `${value.toString(8).padStart(width - 1, '0')}\0`;
}

/** Split a path into ustar's name (100 bytes) and prefix (155 bytes) fields at a slash. */
function ustarName(path) {
  if (Buffer.byteLength(path) <= 100) return { name: path, prefix: '' };
  for (let cut = path.indexOf('/'); cut !== -1; cut = path.indexOf('/', cut + 1)) {
    const prefix = path.slice(0, cut);
    const name = path.slice(cut + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(name) <= 100) return { name, prefix };
  }
  throw new Error(`path too long for a ustar header: ${path}`);
}

/** A ustar header block for one file. */
function header(path, size, mode) {
  const block = Buffer.alloc(512);
  const { name, prefix } = ustarName(path);
  block.write(name, 0, 100, 'utf8');
  if (prefix) block.write(prefix, 345, 155, 'utf8');
  block.write(octal(mode, 8), 100);
  block.write(octal(0, 8), 108);
  block.write(octal(0, 8), 116);
  block.write(octal(size, 12), 124);
  block.write(octal(0, 12), 136);
  block.write('        ', 148);
  block.write('0', 156);
  block.write('ustar\0', 257);
  block.write('00', 263);
  let sum = 0;
  for (const b of block) sum += b;
  block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  return block;
}

/** A gzipped tar as `npm pack` makes one: every file under `package/`. */
export function packTarball(files) {
  const parts = [];
  for (const f of files) {
    parts.push(header(`package/${f.path}`, f.data.length, f.mode), f.data);
    const pad = (512 - (f.data.length % 512)) % 512;
    if (pad) parts.push(Buffer.alloc(pad));
  }
  parts.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(parts));
}

const tarballFile = (name, version) => `${name}/-/${name.split('/').pop()}-${version}.tgz`;

/**
 * A real package folder as `npm pack` would pack it: every file (nested `node_modules` left out,
 * as npm leaves out what is not bundled), its own package.json as the manifest without the
 * underscore fields an installer adds (`_resolved`, `_integrity`, ...).
 */
async function packFolder(dir) {
  const pkgJson = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8'));
  for (const key of Object.keys(pkgJson)) if (key.startsWith('_')) delete pkgJson[key];
  const entries = [{ path: 'package.json', data: Buffer.from(`${JSON.stringify(pkgJson, null, 2)}\n`), mode: 0o644 }];
  const listed = await readdir(dir, { recursive: true, withFileTypes: true });
  for (const entry of listed.sort((a, b) => join(a.parentPath, a.name).localeCompare(join(b.parentPath, b.name)))) {
    const full = join(entry.parentPath, entry.name);
    const path = relative(dir, full).split(sep).join('/');
    if (!entry.isFile() || path === 'package.json' || path.split('/').includes('node_modules')) continue;
    const executable = ((await stat(full)).mode & 0o111) !== 0;
    entries.push({ path, data: await readFile(full), mode: executable ? 0o755 : 0o644 });
  }
  return { pkgJson, tarball: packTarball(entries) };
}

/** A fixture package's package.json and tarball, packed from its fields and files. */
function packFixture(p) {
  const { files = {}, tags: _tags, notLatest: _notLatest, ...fields } = p;
  const pkgJson = { ...fields, license: p.license ?? 'MIT', main: 'index.js' };
  const entries = [
    { path: 'package.json', data: Buffer.from(`${JSON.stringify(pkgJson, null, 2)}\n`), mode: 0o644 },
    {
      path: 'index.js',
      data: Buffer.from(`module.exports = ${JSON.stringify(`${p.name}@${p.version}`)};\n`),
      mode: 0o644,
    },
    ...Object.entries(files).map(([path, text]) => ({
      path,
      data: Buffer.from(text.replace(/^\+x /, '')),
      mode: text.startsWith('+x ') ? 0o755 : 0o644,
    })),
  ];
  const { scripts: _scripts, license: _license, main: _main, ...manifest } = pkgJson;
  return { pkgJson, manifest, tarball: packTarball(entries) };
}

/**
 * Start a registry serving `packages` until `close()`: fixtures (fields and files, packed here)
 * or real package folders (`{ dir }`, packed as they are).
 */
export async function startNpmRegistry(packages) {
  const byName = new Map();
  const tags = new Map();
  for (const entry of packages) {
    const folder = entry.dir === undefined ? undefined : await packFolder(entry.dir);
    const fixture = folder ? undefined : packFixture(entry);
    const p = folder ? { ...entry, name: folder.pkgJson.name, version: folder.pkgJson.version } : entry;
    const { tarball, pkgJson } = folder ?? fixture;
    const { scripts } = pkgJson;
    const manifest = folder ? { ...folder.pkgJson } : fixture.manifest;
    if (folder) delete manifest.scripts;
    if (scripts && ['preinstall', 'install', 'postinstall'].some((s) => s in scripts)) manifest.hasInstallScript = true;
    const versions = byName.get(p.name) ?? new Map();
    versions.set(p.version, {
      manifest,
      tarball,
      integrity: `sha512-${createHash('sha512').update(tarball).digest('base64')}`,
      shasum: createHash('sha1').update(tarball).digest('hex'),
    });
    byName.set(p.name, versions);
    const t = tags.get(p.name) ?? {};
    if (!p.notLatest && (!t.latest || compare(p.version, t.latest) > 0)) t.latest = p.version;
    for (const tag of p.tags ?? []) t[tag] = p.version;
    tags.set(p.name, t);
  }
  const tampered = new Set();
  const hits = [];
  const server = createServer((req, res) => {
    res.setHeader('access-control-allow-origin', '*');
    res.setHeader('access-control-allow-headers', '*');
    res.setHeader('access-control-allow-methods', 'GET, HEAD, OPTIONS');
    if (req.method === 'OPTIONS') return void res.writeHead(204).end();
    const path = decodeURIComponent((req.url ?? '/').split('?')[0].slice(1));
    hits.push(path);
    const origin = `http://${req.headers.host}`;
    const tgz = /^(.+)\/-\/[^/]+-(\d[^/]*)\.tgz$/.exec(path);
    if (tgz) {
      const packed = byName.get(tgz[1])?.get(tgz[2]);
      if (!packed) return void res.writeHead(404).end();
      const body = tampered.has(`${tgz[1]}@${tgz[2]}`)
        ? packTarball([{ path: 'evil.js', data: Buffer.from('x'), mode: 0o644 }])
        : packed.tarball;
      return void res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(body);
    }
    const versions = byName.get(path);
    if (!versions) return void res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Not found"}');
    const doc = {
      name: path,
      'dist-tags': tags.get(path),
      modified: '2026-01-01T00:00:00.000Z',
      versions: Object.fromEntries(
        [...versions].map(([v, p]) => [
          v,
          {
            ...p.manifest,
            dist: { tarball: `${origin}/${tarballFile(path, v)}`, integrity: p.integrity, shasum: p.shasum },
          },
        ]),
      ),
    };
    res.writeHead(200, { 'content-type': 'application/vnd.npm.install-v1+json' }).end(JSON.stringify(doc));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${server.address().port}/`;
  return {
    url,
    hits,
    tamper: (name, version) => tampered.add(`${name}@${version}`),
    tarballPath: (name, version) => tarballFile(name, version),
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function compare(a, b) {
  const pa = a.split(/[.-]/).map(Number);
  const pb = b.split(/[.-]/).map(Number);
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return pa[i] - pb[i];
  return 0;
}
