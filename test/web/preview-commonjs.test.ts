import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { importServed, packageFiles, previewServer } from './preview-module-loader.js';

/**
 * CommonJS packages in the live preview: each served graph is loaded for real (in Node, module by
 * module as the browser would fetch them), from files in a memory workspace.
 */
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function run(files: Record<string, string | Uint8Array>, entry = '/main.js') {
  const { server, problems } = previewServer(files);
  const loaded = await importServed(server, entry);
  cleanups.push(loaded.cleanup);
  return { ...loaded, problems };
}

describe('CommonJS modules in the preview', () => {
  it('loads a package whose main has no extension, with named exports and a default of module.exports', async () => {
    const { namespace } = await run({
      'main.js': "import lib, { add, twice } from 'lib';\nexport const out = [add(2, 3), twice(4), lib.add === add];\n",
      'node_modules/lib/package.json': '{"name":"lib","main":"src/index"}',
      'node_modules/lib/src/index.js': "exports.add = (a, b) => a + b;\nexports.twice = require('./twice');\n",
      'node_modules/lib/src/twice.js': 'module.exports = (n) => n * 2;\n',
    });
    expect(namespace.out).toEqual([5, 8, true]);
  });

  it('gives each importer a facade of the names it takes, over one module run once; a namespace import gets every name', async () => {
    const { namespace, urls } = await run({
      'main.js': [
        "import { add } from 'lib';",
        "import lib, { runs } from 'lib';",
        "import { twice } from './other.js';",
        "import { all } from './third.js';",
        'export const out = [add(1, 2), twice(2), lib.runs, runs, Object.keys(all).sort()];',
        '',
      ].join('\n'),
      'other.js': "export { twice } from 'lib';\n",
      'third.js': "import * as ns from 'lib';\nexport const all = ns;\n",
      'node_modules/lib/package.json': '{"name":"lib"}',
      'node_modules/lib/index.js':
        'globalThis.libRuns = (globalThis.libRuns ?? 0) + 1;\nexports.runs = globalThis.libRuns;\nexports.add = (a, b) => a + b;\nexports.twice = (n) => n * 2;\n',
    });
    expect(namespace.out).toEqual([3, 4, 1, 1, ['add', 'default', 'runs', 'twice']]);
    expect(urls).toEqual(
      expect.arrayContaining([
        '/@fs/node_modules/lib/index.js?names=add,runs',
        '/@fs/node_modules/lib/index.js?names=twice',
        '/@fs/node_modules/lib/index.js',
      ]),
    );
  });

  it('runs a package that only sets module.exports to a function', async () => {
    const { namespace } = await run({
      'main.js': "import pad from 'left-pad';\nexport const out = pad('7', 3);\n",
      'node_modules/left-pad/package.json': '{"name":"left-pad"}',
      'node_modules/left-pad/index.js': "module.exports = function (s, n) { return '0'.repeat(n - s.length) + s; };\n",
    });
    expect(namespace.out).toBe('007');
  });

  it('gives a circular require the partly filled exports, as Node does', async () => {
    const { namespace } = await run({
      'main.js': "import { fromA, seenB } from 'cycle';\nexport const out = [fromA, seenB];\n",
      'node_modules/cycle/package.json': '{"name":"cycle"}',
      'node_modules/cycle/index.js':
        "exports.early = 'a-early';\nconst b = require('./b.js');\nexports.fromA = 'a-done';\nexports.seenB = b.sawA;\n",
      'node_modules/cycle/b.js': "const a = require('./index.js');\nexports.sawA = [a.early, a.fromA];\n",
    });
    expect(namespace.out).toEqual(['a-done', ['a-early', undefined]]);
  });

  it('requires JSON, honours __esModule for the default export, and reads NODE_ENV as development', async () => {
    const { namespace } = await run({
      'main.js':
        "import dflt, { named, version, env } from 'interop';\nexport const out = { dflt, named, version, env };\n",
      'node_modules/interop/package.json': '{"name":"interop","version":"1.2.3","main":"lib/index.js"}',
      'node_modules/interop/lib/index.js': [
        "Object.defineProperty(exports, '__esModule', { value: true });",
        "exports.default = 'the default';",
        "exports.named = 'a name';",
        "exports.version = require('../package.json').version;",
        'exports.env = process.env.NODE_ENV;',
        '',
      ].join('\n'),
    });
    expect(namespace.out).toEqual({ dflt: 'the default', named: 'a name', version: '1.2.3', env: 'development' });
  });

  it('resolves exports maps with the browser and require conditions, and subpath patterns', async () => {
    const { namespace, urls } = await run({
      'main.js':
        "import { who, viaRequire } from 'cond';\nimport { part } from 'cond/parts/one';\nexport const out = [who, viaRequire, part];\n",
      'node_modules/cond/package.json': JSON.stringify({
        name: 'cond',
        exports: {
          '.': { node: './node.js', browser: './browser.js', default: './default.js' },
          './parts/*': { require: './cjs/*.js', import: './esm/*.mjs' },
        },
      }),
      'node_modules/cond/browser.js':
        "exports.who = require('./inner');\nexports.viaRequire = require('cond/parts/inner');\n",
      'node_modules/cond/inner.js': "module.exports = 'browser build';\n",
      'node_modules/cond/node.js': "exports.who = 'node build';\n",
      'node_modules/cond/esm/one.mjs': "import inner from '../cjs/inner.js';\nexport const part = `esm+${inner}`;\n",
      'node_modules/cond/cjs/inner.js': "module.exports = 'cjs inner';\n",
    });
    expect(namespace.out).toEqual(['browser build', 'cjs inner', 'esm+cjs inner']);
    expect(urls.some((url) => url.includes('node.js'))).toBe(false);
  });

  it('gives a require of an ES module its namespace, loaded ahead, with the default marked as bundlers mark it', async () => {
    const { namespace } = await run({
      'main.js': "import { shout, both } from 'uses-esm';\nexport const out = [shout('hi'), both];\n",
      'node_modules/uses-esm/package.json': '{"name":"uses-esm","main":"index.js"}',
      'node_modules/uses-esm/index.js': [
        "const esm = require('esm-only');",
        "const { default: interop } = require('esm-only');",
        'exports.shout = (s) => esm.upper(s) + esm.default;',
        'exports.both = [esm.__esModule, interop === esm.default];',
        '',
      ].join('\n'),
      'node_modules/esm-only/package.json': '{"name":"esm-only","type":"module","exports":"./index.js"}',
      'node_modules/esm-only/index.js': "export const upper = (s) => s.toUpperCase();\nexport default '!';\n",
    });
    expect(namespace.out).toEqual(['HI!', [true, true]]);
  });

  it('resolves #name through package `imports`, in the app, in CommonJS and in ES module packages', async () => {
    const { namespace, problems } = await run({
      'package.json': JSON.stringify({ imports: { '#app/*': './src/*.js' } }),
      'main.js': "import { label } from '#app/label';\nimport kit from 'kit';\nexport const out = [label, kit];\n",
      'src/label.js': "export const label = 'app label';\n",
      'node_modules/kit/package.json': JSON.stringify({
        name: 'kit',
        main: 'index.js',
        imports: {
          '#impl': { node: './impl-node.js', browser: './impl-browser.js' },
          '#esm': './esm.mjs',
          '#shared': 'shared-dep',
        },
      }),
      'node_modules/kit/index.js': "module.exports = require('#impl') + '+' + require('#esm').part;\n",
      'node_modules/kit/impl-browser.js': "module.exports = 'browser impl';\n",
      'node_modules/kit/impl-node.js': "module.exports = 'node impl';\n",
      'node_modules/kit/esm.mjs': "import dep from '#shared';\nexport const part = dep;\n",
      'node_modules/shared-dep/package.json': '{"name":"shared-dep"}',
      'node_modules/shared-dep/index.js': "module.exports = 'shared dep';\n",
    });
    expect(problems).toEqual([]);
    expect(namespace.out).toEqual(['app label', 'browser impl+shared dep']);
  });

  it('says which #name is not in the package `imports`', async () => {
    const { server, problems } = previewServer({
      'package.json': '{"imports":{"#a":"./a.js"}}',
      'main.js': "import b from '#b';\n",
      'node_modules/kit/package.json': '{"name":"kit"}',
      'node_modules/kit/index.js': "module.exports = require('#c');\n",
    });
    await server.serve('main.js');
    const define = new TextDecoder().decode((await server.serve('@fs/node_modules/kit/index.js?sandpit=define')).body);
    expect(define).toContain(
      '{"#c":{"absent":"\'#c\' is not defined in the \\"imports\\" of node_modules/kit/package.json"}}',
    );
    expect(problems).toEqual([`main.js imports '#b': '#b' is not defined in the "imports" of package.json.`]);
  });

  it('names a package that is not installed and says to run npm install', async () => {
    const { server, problems } = previewServer({
      'main.js': "import x from 'not-there';\n",
      'node_modules/uses/package.json': '{"name":"uses"}',
      'node_modules/uses/index.js': "module.exports = require('absent-dep');\n",
    });
    await server.serve('main.js');
    const define = new TextDecoder().decode((await server.serve('@fs/node_modules/uses/index.js?sandpit=define')).body);
    expect(define).toContain('{"absent-dep":{"missing":"absent-dep"}}');
    expect(problems).toEqual([
      "main.js imports 'not-there', but the package 'not-there' is not installed: run npm install (or map it in the page's import map).",
      "node_modules/uses/index.js imports 'absent-dep', but the package 'absent-dep' is not installed: run npm install (or map it in the page's import map).",
    ]);
  });
});

describe('React from node_modules in the preview', () => {
  let react: Record<string, Uint8Array>;
  beforeAll(async () => {
    // Only the development builds and entry files: what a preview loads.
    react = await packageFiles(['react', 'react-dom', 'react-dom/node_modules/scheduler'], (path) =>
      /\/cjs\//.test(path) ? path.includes('.development.') : true,
    );
  });

  it('renders a TSX component with the automatic runtime through react-dom/server, loading only development builds', async () => {
    const { namespace, urls, problems } = await run(
      {
        ...react,
        'package.json': '{"dependencies":{"react":"19.3.1","react-dom":"19.3.1"}}',
        'app.tsx': [
          "import { useState } from 'react';",
          "import { renderToString } from 'react-dom/server';",
          'function Counter({ start }: { start: number }) {',
          '  const [n] = useState(start);',
          '  return <button type="button">count {n}</button>;',
          '}',
          'export const html = renderToString(<main><Counter start={3} /></main>);',
          '',
        ].join('\n'),
      },
      '/app.tsx',
    );
    expect(problems).toEqual([]);
    expect(namespace.html).toBe('<main><button type="button">count <!-- -->3</button></main>');
    // the facade exports what the module takes, so react's files are not lexed for their exports
    expect(urls.filter((url) => url.startsWith('/@fs/node_modules/react/jsx-runtime.js'))).toEqual([
      '/@fs/node_modules/react/jsx-runtime.js?names=jsx,jsxs',
      '/@fs/node_modules/react/jsx-runtime.js?sandpit=define',
    ]);
    expect(urls.filter((url) => url.includes('.production.'))).toEqual([]);
  });
});
