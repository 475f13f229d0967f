// A local npm registry for the tests and `npm run bench`: packuments and tarballs packed from
// fixture packages, served on 127.0.0.1 with the public registry's CORS headers.
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import { gzipSync } from 'node:zlib';

function octal(value, width) {
  return `${value.toString(8).padStart(width - 1, '0')}\0`;
}

/** A ustar header block for one file (names up to 100 bytes are all the fixtures need). */
function header(path, size, mode) {
  const block = Buffer.alloc(512);
  block.write(path, 0, 100, 'utf8');
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

/** Start a registry serving `packages` (packuments and tarballs packed here) until `close()`. */
export async function startNpmRegistry(packages) {
  const byName = new Map();
  const tags = new Map();
  for (const p of packages) {
    const { files = {}, tags: extraTags = [], notLatest, ...fields } = p;
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
    const tarball = packTarball(entries);
    const { scripts, ...inPackument } = pkgJson;
    const manifest = { ...inPackument };
    delete manifest.license;
    delete manifest.main;
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
    if (!notLatest && (!t.latest || compare(p.version, t.latest) > 0)) t.latest = p.version;
    for (const tag of extraTags) t[tag] = p.version;
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
