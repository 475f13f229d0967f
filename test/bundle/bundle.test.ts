import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAliases } from '../../web/browser-aliases.js';
import { filesBelow, repoRoot, sharedDemo } from './web-build.js';

let base: string;
const NODE_BUILTINS = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
const WASM_MAGIC = Buffer.from([0x00, 0x61, 0x73, 0x6d]);

/** Module specifiers a bundle still imports or requires at run time. */
function specifiers(js: string): string[] {
  const patterns = [
    /\bfrom\s*["'`]([^"'`\n]+)["'`]/g,
    /\bimport\s*\(\s*["'`]([^"'`\n]+)["'`]\s*\)/g,
    /\bimport\s*["'`]([^"'`\n]+)["'`]/g,
    /\brequire\s*\(\s*["'`]([^"'`\n]+)["'`]\s*\)/g,
  ];
  return patterns.flatMap((re) => [...js.matchAll(re)].map((m) => m[1]!));
}

/** Everything in an output folder that would bring Node or WebAssembly into a browser. */
async function offences(dir: string): Promise<string[]> {
  const found: string[] = [];
  const files = await filesBelow(dir);
  for (const file of files) {
    const bytes = await readFile(join(dir, file));
    if (file.endsWith('.wasm')) found.push(`${file}: a .wasm file`);
    if (bytes.includes(WASM_MAGIC)) found.push(`${file}: WebAssembly magic bytes`);
    const text = bytes.toString('utf8');
    // A page's inline scripts (the preview bridge's is one) run in the browser as the files do.
    const js = /\.(m?js)$/.test(file)
      ? text
      : file.endsWith('.html')
        ? [...text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/gi)].map((m) => m[1]).join('\n')
        : '';
    if (!js) continue;
    for (const spec of specifiers(js)) if (NODE_BUILTINS.has(spec)) found.push(`${file}: imports '${spec}'`);
    if (/["'`]node:[a-z_]/.test(js)) found.push(`${file}: a 'node:' specifier string`);
    if (/\bWebAssembly\b/.test(js)) found.push(`${file}: mentions WebAssembly`);
  }
  return found;
}

/**
 * The shell (run_command's interpreter) and the node script worker are their own chunks: the
 * workspace worker names them only in a dynamic import and a `new URL`, so they load on the
 * first command, and the worker's first load does not carry them.
 */
async function expectShellLoadedOnFirstUse(out: string, scripts: string[]): Promise<void> {
  const texts = new Map(
    await Promise.all(scripts.map(async (f) => [f, await readFile(join(out, f), 'utf8')] as const)),
  );
  const withShell = [...texts]
    .filter(([, js]) => js.includes('process substitution >(...) is not supported by this shell'))
    .map(([f]) => f);
  expect(withShell).toHaveLength(1);
  const shellChunk = withShell[0]!.split('/').pop()!;
  const worker = [...texts].find(
    ([f, js]) => /worker-[^/]*\.js$/.test(f) && !f.includes('node-worker') && js.includes('run_command'),
  );
  expect(worker, 'the workspace worker chunk').toBeDefined();
  const [workerFile, workerJs] = worker!;
  expect(workerFile).not.toBe(withShell[0]);
  expect(workerJs).not.toContain('process substitution >(...) is not supported by this shell');
  expect(workerJs).toMatch(new RegExp(`import\\(\\s*["'\`][^"'\`]*${shellChunk.replace(/[.$]/g, '\\$&')}`));
  const staticImports = [...workerJs.matchAll(/\bfrom\s*["'`]([^"'`]+)["'`]|\bimport\s*["'`]([^"'`]+)["'`]/g)].map(
    (m) => m[1] ?? m[2]!,
  );
  expect(staticImports.filter((spec) => spec.includes(shellChunk))).toEqual([]);
  const nodeWorker = scripts.filter((f) => /node-worker-[^/]*\.js$/.test(f));
  expect(nodeWorker).toHaveLength(1);
  // the script worker's URL sits in the chunk of the `node` command, which the worker imports only dynamically
  const nodeWorkerName = nodeWorker[0]!.split('/').pop()!;
  const withNodeWorker = [...texts]
    .filter(([f, js]) => f !== nodeWorker[0] && js.includes(nodeWorkerName))
    .map(([f]) => f.split('/').pop()!);
  expect(withNodeWorker).toHaveLength(1);
  expect(staticImports.filter((spec) => spec.includes(withNodeWorker[0]!))).toEqual([]);
  expect(workerJs).toMatch(new RegExp(`import\\(\\s*["'\`][^"'\`]*${withNodeWorker[0]!.replace(/[.$]/g, '\\$&')}`));
}

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'sandpit-bundle-'));
});

afterAll(async () => {
  if (base) await rm(base, { recursive: true, force: true });
});

describe('the browser bundles', () => {
  it('the demo page built by build:web has no node: imports and no WebAssembly', async () => {
    const out = await sharedDemo(join(base, 'demo'));
    const files = await filesBelow(out);
    expect(files).toContain('index.html');
    const scripts = files.filter((f) => f.endsWith('.js'));
    expect(scripts.length).toBeGreaterThan(0);
    // The workspace really is inside: a tool name and memfs's Volume class reach the bundle.
    const js = (await Promise.all(scripts.map((f) => readFile(join(out, f), 'utf8')))).join('\n');
    expect(js).toContain('read_file');
    expect(js).toContain('OUTSIDE_WORKSPACE');
    // The live preview's Service Worker and bridge page ship in the same build, so the scan
    // below covers them, and sucrase (the TypeScript transform) with them.
    expect(files).toEqual(expect.arrayContaining(['preview-sw.js', 'preview-bridge.html']));
    expect(await readFile(join(out, 'preview-sw.js'), 'utf8')).toContain('sandpit-preview-request');
    // The bridge page asks for nothing before it registers the Service Worker: its script is in the page.
    const bridge = await readFile(join(out, 'preview-bridge.html'), 'utf8');
    expect(bridge).toContain('navigator.serviceWorker.register');
    expect(bridge).not.toMatch(/<script[^>]*\bsrc=|rel="modulepreload"/);
    expect(js).toContain('jsxPragma');
    expect(await offences(out)).toEqual([]);
    await expectShellLoadedOnFirstUse(out, scripts);
  });

  it('a library build of every export of src/index.ts has no node: imports and no WebAssembly', async () => {
    const out = join(base, 'lib');
    const result = await build({
      configFile: false,
      root: repoRoot,
      mode: 'production',
      logLevel: 'error',
      define: { global: 'globalThis' },
      resolve: { alias: browserAliases },
      build: {
        outDir: out,
        emptyOutDir: true,
        lib: { entry: join(repoRoot, 'src/index.ts'), formats: ['es'], fileName: 'sandpit' },
      },
    });
    const outputs = (Array.isArray(result) ? result : [result]).flatMap((r) => ('output' in r ? r.output : []));
    const chunks = outputs.filter((o) => o.type === 'chunk');
    expect(chunks.map((c) => c.fileName)).toContain('sandpit.js');
    // Every dependency is bundled: a chunk may load the build's own chunks (git's verbs load on
    // first use), but anything else would need a resolver in the browser.
    const own = new Set(chunks.map((c) => c.fileName));
    expect(chunks.flatMap((c) => [...c.imports, ...c.dynamicImports]).filter((id) => !own.has(id))).toEqual([]);
    expect(chunks.length).toBeGreaterThan(1);
    const js = await readFile(join(out, 'sandpit.js'), 'utf8');
    expect(js).toMatch(/export\s*\{[^}]*\bcreateWorkspace\b/);
    expect(await offences(out)).toEqual([]);
  });

  it('the scan finds what it looks for', async () => {
    // Guards the guard: a planted Node import, wasm file and magic bytes are each reported.
    const { mkdir, writeFile } = await import('node:fs/promises');
    const out = join(base, 'planted');
    await mkdir(out, { recursive: true });
    await writeFile(join(out, 'a.js'), 'import{readFile as r}from"node:fs";export const x=WebAssembly.instantiate;');
    await writeFile(join(out, 'b.js'), 'const p=require("path");');
    await writeFile(join(out, 'c.wasm'), Buffer.concat([WASM_MAGIC, Buffer.from([1, 0, 0, 0])]));
    expect(await offences(out)).toEqual([
      "a.js: imports 'node:fs'",
      "a.js: a 'node:' specifier string",
      'a.js: mentions WebAssembly',
      "b.js: imports 'path'",
      'c.wasm: a .wasm file',
      'c.wasm: WebAssembly magic bytes',
    ]);
  });
});
