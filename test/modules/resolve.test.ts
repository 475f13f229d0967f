import { Volume } from 'memfs';
import { describe, expect, it } from 'vitest';
import { isCommonJs, requireSpecifiers, withNodeEnv } from '../../src/modules/commonjs-source.js';
import {
  BROWSER_IMPORT,
  BROWSER_REQUIRE,
  NODE_IMPORT,
  NODE_REQUIRE,
  packageTypeOf,
  resolveModule,
  type ModuleFiles,
} from '../../src/modules/resolve.js';

/** Real files on memfs, seen through the resolver's two questions. */
function filesOn(tree: Record<string, string>): ModuleFiles {
  const vol = Volume.fromJSON(tree, '/');
  return {
    readText: async (path) => {
      try {
        return String(await vol.promises.readFile(path, 'utf8'));
      } catch {
        return null;
      }
    },
    isFile: async (path) => {
      try {
        return (await vol.promises.stat(path)).isFile();
      } catch {
        return false;
      }
    },
  };
}

const tree = filesOn({
  '/app/src/main.js': '',
  '/app/src/util/index.ts': '',
  '/app/src/data.json': '{}',
  '/app/node_modules/plain/package.json': '{"main":"lib/entry"}',
  '/app/node_modules/plain/lib/entry.js': '',
  '/app/node_modules/plain/lib/extra/index.js': '',
  '/app/node_modules/no-main/index.js': '',
  '/app/node_modules/no-main/package.json': '{"name":"no-main"}',
  '/app/node_modules/@scope/kit/package.json': JSON.stringify({
    exports: {
      '.': { browser: { import: './b.mjs', require: './b.cjs' }, node: './n.cjs', default: './d.js' },
      './feature': [{ import: './f.mjs' }, './f.cjs'],
      './icons/*': './svg/*.js',
      './icons/private/*': null,
      './icons/big/*': './svg/large/*.js',
      './package.json': './package.json',
    },
  }),
  '/app/node_modules/@scope/kit/b.mjs': '',
  '/app/node_modules/@scope/kit/b.cjs': '',
  '/app/node_modules/@scope/kit/n.cjs': '',
  '/app/node_modules/@scope/kit/d.js': '',
  '/app/node_modules/@scope/kit/f.mjs': '',
  '/app/node_modules/@scope/kit/f.cjs': '',
  '/app/node_modules/@scope/kit/svg/home.js': '',
  '/app/node_modules/@scope/kit/svg/large/home.js': '',
  '/app/node_modules/@scope/kit/svg/private/key.js': '',
  '/app/node_modules/esm/package.json':
    '{"type":"module","module":"./m.js","main":"./c.js","browser":{"./c.js":"./c-browser.js","./node-only.js":false}}',
  '/app/node_modules/esm/m.js': '',
  '/app/node_modules/esm/c.js': '',
  '/app/node_modules/esm/c-browser.js': '',
  '/app/node_modules/esm/node-only.js': '',
  '/app/node_modules/outer/package.json': '{"main":"index.js"}',
  '/app/node_modules/outer/index.js': '',
  '/app/node_modules/outer/node_modules/plain/package.json': '{"main":"nested.js"}',
  '/app/node_modules/outer/node_modules/plain/nested.js': '',
  '/app/node_modules/events/package.json': '{"main":"events.js"}',
  '/app/node_modules/events/events.js': '',
});

const at = async (spec: string, from: string, mode = BROWSER_IMPORT) => {
  const found = await resolveModule(tree, spec, from, mode);
  return found.kind === 'file' ? found.path : found;
};

describe("the module resolver (Node's algorithm)", () => {
  it('resolves paths as files, with extensions, and as folders with an index', async () => {
    expect(await at('./util', '/app/src/main.js')).toBe('/app/src/util/index.ts');
    expect(await at('./data.json', '/app/src/main.js')).toBe('/app/src/data.json');
    expect(await at('../../src/main', '/app/src/util/index.ts')).toBe('/app/src/main.js');
    expect(await at('./nope', '/app/src/main.js')).toMatchObject({ kind: 'missing', reason: "no file './nope'" });
  });

  it('takes `main` without an extension, a subpath inside a package, and index.js without a main', async () => {
    expect(await at('plain', '/app/src/main.js', NODE_REQUIRE)).toBe('/app/node_modules/plain/lib/entry.js');
    expect(await at('plain/lib/extra', '/app/src/main.js')).toBe('/app/node_modules/plain/lib/extra/index.js');
    expect(await at('no-main', '/app/src/main.js')).toBe('/app/node_modules/no-main/index.js');
  });

  it('picks `exports` by condition in the order the package wrote them, with subpaths and patterns', async () => {
    const kit = '/app/node_modules/@scope/kit';
    expect(await at('@scope/kit', '/app/src/main.js', BROWSER_IMPORT)).toBe(`${kit}/b.mjs`);
    expect(await at('@scope/kit', '/app/src/main.js', BROWSER_REQUIRE)).toBe(`${kit}/b.cjs`);
    expect(await at('@scope/kit', '/app/src/main.js', NODE_REQUIRE)).toBe(`${kit}/n.cjs`);
    expect(await at('@scope/kit/feature', '/app/src/main.js', NODE_IMPORT)).toBe(`${kit}/f.mjs`);
    expect(await at('@scope/kit/feature', '/app/src/main.js', NODE_REQUIRE)).toBe(`${kit}/f.cjs`);
    expect(await at('@scope/kit/icons/home', '/app/src/main.js')).toBe(`${kit}/svg/home.js`);
    // The longest matching prefix wins, and a null target hides a subpath.
    expect(await at('@scope/kit/icons/big/home', '/app/src/main.js')).toBe(`${kit}/svg/large/home.js`);
    expect(await at('@scope/kit/icons/private/key', '/app/src/main.js')).toMatchObject({ kind: 'missing' });
    // With `exports`, a file the map does not name is not reachable, though it is there.
    expect(await at('@scope/kit/d.js', '/app/src/main.js')).toMatchObject({ kind: 'missing' });
  });

  it("prefers a browser build's `module`/`browser` fields and applies the `browser` map", async () => {
    expect(await at('esm', '/app/src/main.js', BROWSER_IMPORT)).toBe('/app/node_modules/esm/m.js');
    expect(await at('esm', '/app/src/main.js', BROWSER_REQUIRE)).toBe('/app/node_modules/esm/c-browser.js');
    expect(await at('esm', '/app/src/main.js', NODE_REQUIRE)).toBe('/app/node_modules/esm/c.js');
    expect(await resolveModule(tree, 'esm/node-only.js', '/app/src/main.js', BROWSER_REQUIRE)).toEqual({
      kind: 'empty',
    });
  });

  it('finds the nearest node_modules first, names built-ins, and names a package that is not installed', async () => {
    expect(await at('plain', '/app/node_modules/outer/index.js', NODE_REQUIRE)).toBe(
      '/app/node_modules/outer/node_modules/plain/nested.js',
    );
    expect(await at('plain', '/app/src/main.js', NODE_REQUIRE)).toBe('/app/node_modules/plain/lib/entry.js');
    expect(await at('fs', '/app/src/main.js', NODE_REQUIRE)).toEqual({ kind: 'builtin', name: 'fs' });
    expect(await at('node:events', '/app/src/main.js', BROWSER_REQUIRE)).toEqual({ kind: 'builtin', name: 'events' });
    // A browser build takes an installed polyfill of a built-in's name, as bundlers do.
    expect(await at('events', '/app/src/main.js', BROWSER_REQUIRE)).toBe('/app/node_modules/events/events.js');
    expect(await at('left-pad/x', '/app/src/main.js')).toEqual({
      kind: 'missing',
      package: 'left-pad',
      reason: "package 'left-pad' is not installed",
    });
    expect(await packageTypeOf(tree, '/app/node_modules/esm/m.js')).toBe('module');
    expect(await packageTypeOf(tree, '/app/node_modules/plain/lib/entry.js')).toBe('commonjs');
  });
});

describe('package `imports` (#name specifiers)', () => {
  const inner = filesOn({
    '/app/package.json': JSON.stringify({
      name: 'app',
      imports: {
        '#config': { node: './config.node.js', browser: './config.browser.js', default: './config.js' },
        '#utils/*': './src/utils/*.js',
        '#utils/secret/*': null,
        '#dep': 'plain/lib/extra',
        '#fs': { node: 'fs', default: './fs-shim.js' },
        '#up': '../outside.js',
        '#gone': './not-there.js',
      },
    }),
    '/app/config.node.js': '',
    '/app/config.browser.js': '',
    '/app/config.js': '',
    '/app/fs-shim.js': '',
    '/app/src/main.js': '',
    '/app/src/utils/date.js': '',
    '/app/src/utils/secret/key.js': '',
    '/app/node_modules/plain/package.json': '{"imports":{"#own":"./own.js"}}',
    '/app/node_modules/plain/own.js': '',
    '/app/node_modules/plain/lib/extra/index.js': '',
    '/app/node_modules/plain/lib/entry.js': '',
  });
  const from = async (spec: string, importer: string, mode = BROWSER_IMPORT) => {
    const found = await resolveModule(inner, spec, importer, mode);
    return found.kind === 'file' ? found.path : found;
  };

  it("resolves through the importer's own package.json, by condition and pattern, to files or packages", async () => {
    expect(await from('#config', '/app/src/main.js')).toBe('/app/config.browser.js');
    expect(await from('#config', '/app/src/main.js', NODE_REQUIRE)).toBe('/app/config.node.js');
    expect(await from('#utils/date', '/app/src/main.js')).toBe('/app/src/utils/date.js');
    // a package target is resolved from the package's folder, a built-in named as such
    expect(await from('#dep', '/app/src/main.js')).toBe('/app/node_modules/plain/lib/extra/index.js');
    expect(await from('#fs', '/app/src/main.js', NODE_IMPORT)).toEqual({ kind: 'builtin', name: 'fs' });
    expect(await from('#fs', '/app/src/main.js', BROWSER_REQUIRE)).toBe('/app/fs-shim.js');
    // inside node_modules, a package's own imports, never the app's
    expect(await from('#own', '/app/node_modules/plain/lib/entry.js')).toBe('/app/node_modules/plain/own.js');
    expect(await from('#config', '/app/node_modules/plain/lib/entry.js')).toMatchObject({
      kind: 'missing',
      reason: `'#config' is not defined in the "imports" of /app/node_modules/plain/package.json`,
    });
  });

  it('refuses what Node refuses: a null target, a target outside the package, a name not listed, a file not there', async () => {
    expect(await from('#utils/secret/key', '/app/src/main.js')).toMatchObject({ kind: 'missing' });
    expect(await from('#up', '/app/src/main.js')).toMatchObject({ kind: 'missing' });
    expect(await from('#nope', '/app/src/main.js')).toMatchObject({
      kind: 'missing',
      reason: `'#nope' is not defined in the "imports" of /app/package.json`,
    });
    expect(await from('#gone', '/app/src/main.js')).toMatchObject({
      kind: 'missing',
      reason: "'#gone' is imported as ./not-there.js, which is not there",
    });
    expect(await from('#config', '/elsewhere/main.js')).toMatchObject({
      kind: 'missing',
      reason: "'#config' is not defined: no package.json is above /elsewhere/main.js",
    });
  });
});

describe('reading CommonJS source', () => {
  it('lists literal requires once each, skipping comments, strings and member calls', () => {
    const source = [
      "const a = require('./a');",
      '// require("commented")',
      '/* require("blocked") */',
      'const msg = "use require(\'in-string\') here";',
      'const b = require("b"), again = require(\'./a\');',
      'obj.require("member");',
      'const t = require(`tpl`);',
      'const dyn = require(name);',
    ].join('\n');
    expect(requireSpecifiers(source)).toEqual(['./a', 'b', 'tpl']);
  });

  it('tells CommonJS from ES modules as Node and bundlers do', () => {
    expect(isCommonJs('a.js', 'module.exports = 1;', 'commonjs')).toBe(true);
    expect(isCommonJs('a.js', 'const importMap = 1;\nexports.x = importMap;', 'commonjs')).toBe(true);
    expect(isCommonJs('a.js', "import x from 'y';", 'commonjs')).toBe(false);
    expect(isCommonJs('a.js', 'export default 1;', 'commonjs')).toBe(false);
    expect(isCommonJs('a.js', 'module.exports = 1;', 'module')).toBe(false);
    expect(isCommonJs('a.cjs', 'module.exports = 1;', 'module')).toBe(true);
    expect(isCommonJs('a.mjs', 'module.exports = 1;', 'commonjs')).toBe(false);
  });

  it('puts NODE_ENV in and drops the branch that cannot run, keeping line numbers', () => {
    const entry = [
      "if (process.env.NODE_ENV === 'production') {",
      "  module.exports = require('./prod.js');",
      '} else {',
      "  module.exports = require('./dev.js');",
      '}',
      "if (process.env.NODE_ENV !== 'production') { a(); } else if (x) { b(); }",
      '',
    ].join('\n');
    const out = withNodeEnv(entry, 'development');
    expect(requireSpecifiers(out)).toEqual(['./dev.js']);
    expect(out.split('\n')).toHaveLength(entry.split('\n').length);
    expect(out).toContain('{ a(); }');
    expect(out).toContain('else if (x) { b(); }');
  });
});
