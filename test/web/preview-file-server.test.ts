import { describe, expect, it } from 'vitest';
import { createMemoryFs, createWorkspace } from '../../src/index.js';
import { createFileServer, linkedUrls, type PreviewProblem } from '../../web/preview/file-server.js';
import { readPreviewEntry } from '../../web/preview/read-file.js';
import { transpile } from '../../web/preview/transform.js';

/** A real memory workspace behind the preview's file server, as the playground wires it. */
function serverOn(files: Record<string, string | Uint8Array>, root = '') {
  const ws = createWorkspace({ fs: createMemoryFs(files), root: '/' });
  const problems: string[] = [];
  const server = createFileServer({
    entry: (rel) => readPreviewEntry(ws, rel),
    root: () => root,
    playgroundOrigin: 'http://127.0.0.1:1',
    prefix: '/preview/s/',
    onProblem: (p: PreviewProblem) => problems.push(p.message),
  });
  const text = async (path: string, referrer?: string) => {
    const served = await server.serve(path, referrer);
    return { ...served, text: new TextDecoder().decode(served.body) };
  };
  return { ws, server, problems, text };
}

describe('the preview file server', () => {
  it('serves index.html for a folder with the page hook injected, and redirects a folder without its slash', async () => {
    const { text } = serverOn({
      'index.html': '<html><head><title>t</title></head><body>hi</body></html>',
      'sub/index.html': '<p>sub</p>',
    });
    const home = await text('');
    expect(home.status).toBe(200);
    expect(home.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(home.text).toMatch(/^<html><head><script>\(function previewHook|^<html><head><script>\(/);
    expect(home.text).toContain('<title>t</title></head><body>hi</body>');
    expect((await text('sub')).status).toBe(301);
    expect((await text('sub')).headers.location).toBe('sub/');
    expect((await text('sub/')).text).toContain('<p>sub</p>');
  });

  it('gives the bytes of binary files as stored, with their content type', async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 255]);
    const { server } = serverOn({ 'img/a.png': png, 'f.woff2': new Uint8Array([1, 2]) });
    const served = await server.serve('img/a.png');
    expect([...served.body]).toEqual([...png]);
    expect(served.headers['content-type']).toBe('image/png');
    expect((await server.serve('f.woff2')).headers['content-type']).toBe('font/woff2');
  });

  it('turns TSX into a module with an inline source map, and finds greet.ts for ./greet.js', async () => {
    const { text } = serverOn({
      'app.tsx': "import { greet } from './greet.js';\nconst el: any = <b>{greet()}</b>;\n",
      'greet.ts': 'export const greet = (): string => "hi";\n',
    });
    const app = await text('app.tsx');
    expect(app.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(app.text).toContain("React.createElement('b'");
    expect(app.text).toMatch(/\/\/# sourceMappingURL=data:application\/json;charset=utf-8;base64,/);
    const map = JSON.parse(Buffer.from(app.text.split('base64,')[1]!, 'base64').toString('utf8'));
    expect(map.sourcesContent[0]).toContain('<b>{greet()}</b>');
    // each output line maps to the same line of the source, where sucrase keeps it
    const code = app.text.slice(0, app.text.lastIndexOf('\n//# sourceMappingURL='));
    expect(code.split('\n')[1]).toContain("React.createElement('b'");
    expect(map.mappings).toMatch(/^AAAA(;AACA)*$/);
    expect(map.mappings.split(';')).toHaveLength(code.split('\n').length);
    const greet = await text('greet.js');
    expect(greet.status).toBe(200);
    expect(greet.text).toContain('export const greet = () => "hi"');
  });

  it('reports a syntax error at the workspace line and a missing file with who asked for it', async () => {
    const { text, problems } = serverOn({ 'bad.ts': 'const a = 1;\nconst b = ;\n' });
    expect((await text('bad.ts')).status).toBe(500);
    expect((await text('nope.css', 'index.html')).status).toBe(404);
    expect(problems).toEqual([
      'Syntax error in bad.ts:2:11: Unexpected token',
      'Not found: nope.css (asked for by index.html). No such file in the workspace.',
    ]);
  });

  it('resolves bare imports through node_modules (ES builds and CommonJS), leaves import-mapped ones, and names the rest', async () => {
    const { text, problems } = serverOn({
      'index.html': '<script type="importmap">{"imports":{"mapped":"https://x.test/m.js"}}</script>',
      'app/main.js':
        "import a from 'esm-pkg';\nimport { b } from '@s/pkg/sub';\nimport m from 'mapped';\nimport c from 'cjs-only';\nimport g from 'gone';\nconst d = import('esm-pkg');\n",
      'node_modules/esm-pkg/package.json': '{"module":"./dist/index.js","main":"./cjs.js"}',
      'node_modules/esm-pkg/dist/index.js': 'export default 1;',
      'node_modules/@s/pkg/package.json':
        '{"exports":{".":"./i.js","./sub":{"browser":"./sub.browser.js","default":"./sub.js"}}}',
      'node_modules/@s/pkg/sub.browser.js': 'export const b = 2;',
      'node_modules/cjs-only/package.json': '{"main":"index.js"}',
      'node_modules/cjs-only/index.js': 'module.exports = 3;',
    });
    await text('');
    const main = await text('app/main.js');
    expect(main.text).toContain("import a from '/@fs/node_modules/esm-pkg/dist/index.js'");
    expect(main.text).toContain("import { b } from '/@fs/node_modules/@s/pkg/sub.browser.js'");
    expect(main.text).toContain("import m from 'mapped'");
    // A CommonJS package loads through the wrapper, its facade exporting what the import takes
    // (here the default alone); what is not installed is named, with the fix.
    expect(main.text).toContain("import c from '/@fs/node_modules/cjs-only/index.js?names='");
    expect(main.text).toContain("import g from '/@missing/gone?names=default'");
    expect(main.text).toContain("import('/@fs/node_modules/esm-pkg/dist/index.js')");
    expect(problems).toEqual([
      "app/main.js imports 'gone', but the package 'gone' is not installed: run npm install (or map it in the page's import map).",
    ]);
    const missing = await text('@missing/gone');
    expect(missing.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(missing.text).toContain("the package 'gone' is not installed: run npm install");
    expect((await text('@fs/node_modules/cjs-only/index.js')).text).toContain(
      'load("/@fs/node_modules/cjs-only/index.js")',
    );
    expect((await text('@fs/node_modules/esm-pkg/dist/index.js')).text).toBe('export default 1;');
  });

  it('never serves .sandpit or anything above the root', async () => {
    const { ws, server } = serverOn({ 'a.txt': 'a' });
    await ws.call('write_file', { path: 'b.txt', content: 'b' });
    for (const path of ['@fs/.sandpit/config', '@fs/%2E%2E/etc/passwd', '%2E%2E/%2E%2E/x', '@fs/a.txt%00'])
      expect((await server.serve(path)).status).toBe(404);
    expect((await server.serve('@fs/a.txt')).status).toBe(200);
  });

  it('picks the browser ES build of a package the way a bundler does', async () => {
    const { text } = serverOn({
      'a.js': "import a from 'p1';\nimport b from 'p2/x/y';\nimport c from 'p3';\nimport d from 'p4';\n",
      'node_modules/p1/package.json': '{"exports":{".":[{"import":"./a.mjs"},"./a.cjs"]}}',
      'node_modules/p1/a.mjs': 'export default 1;',
      'node_modules/p2/package.json': '{"exports":{"./*":"./dist/*.js"}}',
      'node_modules/p2/dist/x/y.js': 'export default 2;',
      'node_modules/p3/package.json': '{"type":"module","main":"m.js"}',
      'node_modules/p3/m.js': 'export default 3;',
      'node_modules/p4/package.json': '{"main":"index.js","module":"esm.js"}',
      'node_modules/p4/index.js': 'module.exports = 4;',
      'node_modules/p4/esm.js': 'export default 4;',
    });
    const a = (await text('a.js')).text;
    for (const target of ['p1/a.mjs', 'p2/dist/x/y.js', 'p3/m.js', 'p4/esm.js'])
      expect(a).toContain(`'/@fs/node_modules/${target}'`);
    expect(transpile('x.jsx', 'const a = <i/>;').ok).toBe(true);
  });

  it('names the files a page links that every load fetches, and only those', async () => {
    const html = [
      '<!doctype html><html><head>',
      '<link rel="stylesheet" href="style.css"><link rel=stylesheet href=/theme.css?v=2><link rel="icon" href="fav.png">',
      '<link rel=\'modulepreload\' href=\'./lib/a.ts\'><link rel="stylesheet" href="https://cdn.example/x.css"><link rel="stylesheet" href="//cdn.example/y.css">',
      '<script type="importmap">{"imports":{}}</script><script type="text/template" src="t.html"></script><script nomodule src="old.js"></script>',
      '<!-- <script src="commented.js"></script> --><script src="data:text/javascript,1"></script>',
      '</head><body><img src="a.png"><script type="module" src="app.tsx"></script><script src="app.tsx"></script><script src=\'classic.js\'></script></body></html>',
    ].join('');
    expect(linkedUrls(html)).toEqual(['style.css', '/theme.css?v=2', './lib/a.ts', 'app.tsx', 'classic.js']);
    const { server } = serverOn({ 'index.html': html });
    expect((await server.serve('')).links).toEqual(linkedUrls(html));
    expect((await server.serve('index.html')).links).toEqual(linkedUrls(html));
  });
});
