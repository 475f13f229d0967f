// Builds the browser bundles (vite.web.config.ts), one build: `sandpit/web` into dist/web, the worker
// and the page client, with their declarations pointing at the core's in dist/; and the `browser`
// build of `sandpit` itself into dist/browser, all three sharing their chunks in dist/web/chunks.
// Run after `tsc -p tsconfig.build.json`, which writes those core declarations.
import { spawnSync } from 'node:child_process';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = (path) => join(root, 'node_modules', path);

function run(args) {
  const result = spawnSync(process.execPath, args, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

// One build of the three entries into dist/ (which holds tsc's output, so it is not emptied): what
// an older build left in dist/web and dist/browser goes first.
for (const dir of ['dist/web', 'dist/browser']) await rm(join(root, dir), { recursive: true, force: true });
run([bin('vite/bin/vite.js'), 'build', '-c', 'vite.web.config.ts']);

// The browser bundles are ASCII: a page script that is not a module is decoded with the page's
// encoding, and without `<meta charset="utf-8">` that is windows-1252, where isomorphic-git's
// /[\ud800-<U+FFFF>]/ reads as a range out of order: a SyntaxError that stopped a webpack app's
// whole bundle. Minifiers keep a regular expression's escapes as written.
for (const dir of ['dist/web', 'dist/browser']) {
  for (const name of await readdir(join(root, dir), { recursive: true })) {
    if (!name.endsWith('.js')) continue;
    const path = join(root, dir, name);
    const text = await readFile(path, 'utf8');
    if (/[^\0-\x7f]/.test(text)) await writeFile(path, asciiOnly(text));
  }
}

/** Each non-ASCII UTF-16 unit as \uXXXX; one that was escaped already (`\é`) loses its backslash. */
function asciiOnly(text) {
  return text.replace(/(\\*)([^\0-\x7f])/g, (_, slashes, unit) => {
    const escaped = `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`;
    return (slashes.length % 2 === 1 ? slashes.slice(1) : slashes) + escaped;
  });
}

const types = join(root, 'dist', '.web-types');
await rm(types, { recursive: true, force: true });
run([bin('typescript/bin/tsc'), '-p', 'tsconfig.web-types.json']);
const webTypes = join(types, 'web');
for (const name of await readdir(webTypes, { recursive: true })) {
  if (!name.endsWith('.d.ts')) continue;
  // web/x.d.ts imports ../src/... (web/a/x.d.ts ../../src/...); in the package the core's
  // declarations sit at dist/, one level up from dist/web.
  const up = '../'.repeat(name.split('/').length);
  const text = (await readFile(join(webTypes, name), 'utf8')).replaceAll(`'${up}src/`, `'${up}`);
  await mkdir(dirname(join(root, 'dist', 'web', name)), { recursive: true });
  await writeFile(join(root, 'dist', 'web', name), text);
}
await rm(types, { recursive: true, force: true });
