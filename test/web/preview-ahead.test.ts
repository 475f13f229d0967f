import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryFs, createWorkspace } from '../../src/index.js';
import { AheadLoad, nextUrlsOf, requestPathsOf, serveAhead } from '../../web/preview/ahead.js';
import { answerPreview } from '../../web/preview/answer.js';
import type { FileReply, LinkedBatch, LinkedFile } from '../../web/preview/messages.js';
import type { ServedFile } from '../../web/preview/file-server.js';
import { importServed, packageFiles, previewServer } from './preview-module-loader.js';

/**
 * Serving a page's module graph ahead: from the page, every module the browser will fetch before
 * it runs (its scripts, their static imports, level after level, CommonJS wrappers included) is
 * served once and handed on, so the Service Worker holds it before the browser asks.
 */
const PREFIX = '/preview/s/';
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** Serve the page at `page` and everything ahead of it, as the playground does on a navigation. */
async function walk(server: ReturnType<typeof previewServer>['server'], page = '') {
  const load = new AheadLoad();
  const served = await server.serve(page);
  const first = load.claim(requestPathsOf(PREFIX, page, nextUrlsOf(served)));
  const sent = new Map<string, { text: string; announced: string[] } | null>();
  const order: string[] = [];
  await serveAhead(load, PREFIX, first, page, server.serve, (path, file, announced) => {
    order.push(path);
    sent.set(path, file && { text: new TextDecoder().decode(file.body), announced });
  });
  return { first, sent, order, load };
}

let react: Record<string, Uint8Array>;
beforeAll(async () => {
  react = await packageFiles(['react', 'react-dom', 'react-dom/node_modules/scheduler'], (path) =>
    /\/cjs\//.test(path) ? path.includes('.development.') : true,
  );
});

describe('the preview serves a module graph ahead', () => {
  it("names a page's and a module's next fetches as the Service Worker names requests", () => {
    expect(
      requestPathsOf(PREFIX, 'app/', ['main.ts', '/style.css', 'https://cdn.test/x.js', '//cdn.test/y.js']),
    ).toEqual(['app/main.ts', 'style.css']);
    expect(
      requestPathsOf(PREFIX, 'app/src/main.tsx?x=1', ['./App', '../lib/a.js', '/@fs/node_modules/r/i.js?names=a,b']),
    ).toEqual(['app/src/App', 'app/lib/a.js', '@fs/node_modules/r/i.js?names=a,b']);
    const load = new AheadLoad();
    expect(load.claim(['a', 'b'])).toEqual(['a', 'b']);
    expect(load.claim(['b', 'c'])).toEqual(['c']);
  });

  it('sends the whole static graph of a React page once each: exactly the modules the browser loads', async () => {
    const { server, problems } = previewServer({
      ...react,
      'package.json': '{"dependencies":{"react":"19.3.1","react-dom":"19.3.1"}}',
      'index.html': '<!doctype html><div id="root"></div><script type="module" src="src/main.tsx"></script>',
      'src/main.tsx':
        "import { createRoot } from 'react-dom/client';\nimport { App } from './App';\nexport const make = () => createRoot(document.createElement('div'));\nexport { App };\n",
      'src/App.tsx': "import { useState } from 'react';\nexport function App() {\n  return <h1>hi</h1>;\n}\n",
    });
    const { first, sent, order } = await walk(server);
    expect(first).toEqual(['src/main.tsx']);
    expect(order.length).toBe(new Set(order).size);
    expect([...sent.values()].every((file) => file !== null)).toBe(true);
    // What the browser would fetch, module by module, from the page's script on.
    const loaded = await importServed(server, '/src/main.tsx');
    cleanups.push(loaded.cleanup);
    expect(new Set(order)).toEqual(new Set(loaded.urls.map((url) => url.replace(/^\//, ''))));
    expect(order).toEqual(
      expect.arrayContaining([
        '@sandpit/cjs.js',
        '@fs/node_modules/react-dom/client.js?names=createRoot',
        '@fs/node_modules/react-dom/cjs/react-dom-client.development.js?sandpit=define',
        '@fs/node_modules/react-dom/node_modules/scheduler/cjs/scheduler.development.js?sandpit=define',
      ]),
    );
    // Each file announces the files it makes the browser fetch that no earlier file announced.
    const announced = [...sent.values()].flatMap((file) => file!.announced);
    expect(announced.length).toBe(new Set(announced).size);
    expect(new Set([...first, ...announced])).toEqual(new Set(order));
    expect(problems).toEqual([]);
  });

  it('serves what the workspace holds at each load: an edited module deep in the graph is new in the next', async () => {
    const files = {
      'index.html': '<script type="module" src="main.ts"></script><link rel="stylesheet" href="style.css">',
      'style.css': 'p { color: red; }\n',
      'main.ts': "import { a } from './lib/a.ts';\nimport data from './data.json';\nexport const out = [a, data.n];\n",
      'lib/a.ts': "export { b as a } from '../deep/b.ts';\n",
      'deep/b.ts': "export const b: string = 'one';\n",
      'data.json': '{"n": 1}\n',
    };
    const { server, ws } = previewServer(files);
    const before = await walk(server);
    expect(before.first).toEqual(['main.ts', 'style.css']);
    expect([...before.sent.keys()].sort()).toEqual(
      ['data.json?sandpit=json', 'deep/b.ts', 'lib/a.ts', 'main.ts', 'style.css'].sort(),
    );
    expect(before.sent.get('deep/b.ts')!.text).toContain("'one'");
    expect((await ws.call('write_file', { path: 'deep/b.ts', content: "export const b: string = 'two';\n" })).ok).toBe(
      true,
    );
    const after = await walk(server);
    expect(after.sent.get('deep/b.ts')!.text).toContain("'two'");
    expect(after.sent.get('deep/b.ts')!.text).not.toContain("'one'");
  });

  it('sends nothing more for a load a newer one replaced: the Service Worker asks again instead', async () => {
    const { server } = previewServer({
      'index.html': '<script type="module" src="main.ts"></script>',
      'main.ts': "import './a.ts';\n",
      'a.ts': "import './b.ts';\n",
      'b.ts': 'export {};\n',
    });
    const load = new AheadLoad();
    const sent: Array<[string, ServedFile | null]> = [];
    await serveAhead(load, PREFIX, ['main.ts'], '', server.serve, (path, file, announced) => {
      sent.push([path, file]);
      // The page is navigated away while its graph is being sent.
      if (path === 'a.ts') load.stale = true;
      expect(announced.length).toBeLessThanOrEqual(1);
    });
    // b.ts was announced with a.ts: it is answered with null, so the Service Worker stops waiting for it.
    expect(sent.map(([path, file]) => [path, file === null])).toEqual([
      ['main.ts', false],
      ['a.ts', false],
      ['b.ts', true],
    ]);
  });
});

/** Answer one request as the worker does, on a real MessageChannel; gives the reply and every file sent after it. */
async function answered(ws: ReturnType<typeof createWorkspace>, path: string, navigation = true) {
  const { port1, port2 } = new MessageChannel();
  const messages: Array<FileReply | LinkedFile | LinkedBatch> = [];
  port1.onmessage = (event) => messages.push(event.data);
  const request = { path, referrer: '', navigation, root: '', prefix: PREFIX, playgroundOrigin: 'http://127.0.0.1:1' };
  // the worker closes its end once all is sent; Node delivers what was posted before the close
  const closed = new Promise((resolve) =>
    (port1 as unknown as { once(e: string, f: () => void): void }).once('close', () => resolve(null)),
  );
  const problems = await answerPreview(ws, request, port2 as unknown as MessagePort);
  await closed;
  const [reply, ...rest] = messages as [FileReply, ...Array<LinkedFile | LinkedBatch>];
  const files = new Map<string, FileReply | null>();
  for (const message of rest)
    for (const file of message.type === 'sandpit-preview-linked-batch' ? message.files : [message])
      files.set(file.path, file.reply);
  const text = (file: string) => new TextDecoder().decode(files.get(file)!.body!);
  return { reply, files, problems, text, rest };
}

describe('the worker answers a preview request on the Service Worker port', () => {
  it('sends the page, then every file it announced, each announcing what it leads to; an edit shows in the next load', async () => {
    const ws = createWorkspace({
      fs: createMemoryFs({
        'index.html': '<script type="module" src="main.ts"></script>',
        'main.ts':
          "import { b } from './b.ts';\nimport 'gone-pkg';\nexport const out: string = b;\nexport const later = () => import('./lazy.ts');\n",
        'lazy.ts': "export { c } from './c.ts';\n",
        'c.ts': 'export const c = 3;\n',
        'b.ts': "export const b: string = 'one';\n",
      }),
      root: '/',
    });
    const first = await answered(ws, '');
    expect(first.reply.status).toBe(200);
    expect(first.reply.linked).toEqual(['main.ts']);
    expect([...first.files.keys()].sort()).toEqual(['@missing/gone-pkg', 'b.ts', 'main.ts']);
    expect(first.files.get('main.ts')!.linked?.sort()).toEqual(['@missing/gone-pkg', 'b.ts']);
    expect(first.text('b.ts')).toContain("'one'");
    expect(first.problems).toEqual([
      "main.ts imports 'gone-pkg', but the package 'gone-pkg' is not installed: run npm install (or map it in the page's import map).",
    ]);
    expect((await ws.call('write_file', { path: 'b.ts', content: "export const b: string = 'two';\n" })).ok).toBe(true);
    const second = await answered(ws, '');
    expect(second.text('b.ts')).toContain("'two'");
    // A dynamic import is not sent ahead; when the page asks for it, its own static imports are.
    expect(second.files.has('lazy.ts')).toBe(false);
    const lazy = await answered(ws, 'lazy.ts', false);
    expect(lazy.reply.linked).toEqual(['c.ts']);
    expect(lazy.text('c.ts')).toContain('export const c = 3');
  });
});

describe("a page's module graph goes out as it is served", () => {
  it('in batches of at most 48 files while the rest are still transpiled, each module once, not in one message at the end', async () => {
    const count = 80;
    const files: Record<string, string> = {
      'index.html': '<script type="module" src="main.ts"></script>',
      // each import used, so the TypeScript transform keeps it
      'main.ts': `${Array.from({ length: count }, (_, n) => `import { v${n} } from './m${n}.tsx';`).join('\n')}\nexport const all = [${Array.from({ length: count }, (_, n) => `v${n}`).join(', ')}];\n`,
    };
    for (let n = 0; n < count; n++)
      files[`m${n}.tsx`] = `export const v${n}: number = ${n};\nexport const view${n} = () => <p>{v${n}}</p>;\n`;
    const ws = createWorkspace({ fs: createMemoryFs(files), root: '/' });
    // the page's request, as the Service Worker hands it over: the page, then all it leads to
    const { rest } = await answered(ws, '');
    const isModule = (file: { path: string }) => /^m\d+\.tsx$/.test(file.path);
    const sent = rest.map((message) => (message.type === 'sandpit-preview-linked-batch' ? message.files : [message]));
    const batches = sent.filter((files) => files.some(isModule)).map((files) => files.length);
    const modules = sent
      .flat()
      .filter(isModule)
      .map((file) => file.path);
    expect(modules.sort()).toEqual(Array.from({ length: count }, (_, n) => `m${n}.tsx`).sort());
    expect(Math.max(...batches)).toBeLessThanOrEqual(48);
    expect(batches.length).toBeGreaterThanOrEqual(Math.ceil(count / 48));
  });
});
