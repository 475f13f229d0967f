import { afterEach, describe, expect, it } from 'vitest';
import type { RemoteWorkspace } from '../../web/client.js';
import { connect, uniqueName } from './connect.js';

const open: RemoteWorkspace[] = [];
afterEach(async () => {
  for (const ws of open.splice(0)) await ws.close();
});

async function run(ws: RemoteWorkspace, command: string) {
  const r = await ws.call('run_command', { command });
  if (!r.ok) throw new Error(`run_command failed: ${JSON.stringify(r.error)}`);
  return r.result as { exit_code: number; stdout: string; stderr: string };
}

/** Packages laid out as npm lays them out: CommonJS with an extensionless main, ES modules behind `exports` conditions. */
const packages: Record<string, string> = {
  'node_modules/lib-cjs/package.json': '{"name":"lib-cjs","main":"lib/index"}',
  'node_modules/lib-cjs/lib/index.js':
    "const data = require('../data.json');\nexports.version = data.v;\nexports.greet = (n) => 'hi ' + n;\n",
  'node_modules/lib-cjs/data.json': '{"v":"1.0.0"}',
  'node_modules/esm-pkg/package.json':
    '{"name":"esm-pkg","type":"module","exports":{".":{"node":"./node.js","default":"./other.js"}}}',
  'node_modules/esm-pkg/node.js': "import { greet } from 'lib-cjs';\nexport const hello = () => greet('esm');\n",
  'node_modules/esm-pkg/other.js': "export const hello = () => 'wrong build';\n",
  'node_modules/dual/package.json': '{"name":"dual","exports":{".":{"import":"./i.mjs","require":"./r.cjs"}}}',
  'node_modules/dual/i.mjs': "export default 'dual via import';\n",
  'node_modules/dual/r.cjs': "module.exports = 'dual via require';\n",
};

describe('node scripts with packages from node_modules', () => {
  it('require and import packages with Node resolution, and name one that is not installed', async () => {
    const ws = await connect({ backend: 'memory', name: uniqueName('node-packages') });
    open.push(ws);
    for (const [path, content] of Object.entries(packages))
      expect((await ws.call('write_file', { path, content })).ok).toBe(true);
    await ws.call('write_file', {
      path: 'main.js',
      content: "const { greet, version } = require('lib-cjs');\nconsole.log(greet('cjs'), version, require('dual'));\n",
    });
    await ws.call('write_file', {
      path: 'mod.mjs',
      content:
        "import { hello } from 'esm-pkg';\nimport dual from 'dual';\nimport lib, { greet } from 'lib-cjs';\nconsole.log(hello(), '|', dual, '|', greet === lib.greet);\n",
    });
    expect(await run(ws, 'node main.js')).toMatchObject({ exit_code: 0, stdout: 'hi cjs 1.0.0 dual via require\n' });
    expect(await run(ws, 'node mod.mjs')).toMatchObject({
      exit_code: 0,
      stdout: 'hi esm | dual via import | true\n',
    });
    expect(await run(ws, `node -e "console.log(require('lib-cjs').greet('eval'))"`)).toMatchObject({
      exit_code: 0,
      stdout: 'hi eval\n',
    });
    const missing = await run(ws, `node -e "require('not-installed')"`);
    expect(missing.exit_code).toBe(1);
    expect(missing.stderr).toContain("Cannot find module 'not-installed': is it installed? Run npm install");
  });

  it('require an ES module package as Node 22 does, resolve #name through package imports, and honour each package’s type', async () => {
    const ws = await connect({ backend: 'memory', name: uniqueName('node-esm') });
    open.push(ws);
    const files: Record<string, string> = {
      // the project is an ES module package; its CommonJS dependency stays CommonJS
      'package.json': JSON.stringify({ type: 'module', imports: { '#lib/*': './lib/*.js' } }),
      'lib/fmt.js': 'export const fmt = (s) => `[${s}]`;\n',
      'node_modules/old-cjs/package.json': JSON.stringify({
        name: 'old-cjs',
        main: 'index.js',
        imports: { '#impl': { node: './impl-node.js', default: './impl-other.js' }, '#esm': 'esm-only' },
      }),
      'node_modules/old-cjs/index.js': [
        "const esm = require('#esm');",
        "const named = require('esm-named');",
        "exports.impl = require('#impl');",
        'exports.shout = (s) => esm.upper(s) + esm.default;',
        "exports.marked = [esm.__esModule, 'default' in named, named.only];",
        'exports.order = globalThis.order;',
        '',
      ].join('\n'),
      'node_modules/old-cjs/impl-node.js': "module.exports = 'node impl';\n",
      'node_modules/old-cjs/impl-other.js': "module.exports = 'other impl';\n",
      'node_modules/esm-only/package.json': '{"name":"esm-only","type":"module","exports":"./index.js"}',
      'node_modules/esm-only/index.js':
        "(globalThis.order ??= []).push('esm-only');\nexport const upper = (s) => s.toUpperCase();\nexport default '!';\n",
      'node_modules/esm-named/package.json': '{"name":"esm-named","exports":{"require":"./n.mjs"}}',
      'node_modules/esm-named/n.mjs': "export const only = 'named only';\n",
      'main.js': [
        "import { fmt } from '#lib/fmt';",
        "import lib from 'old-cjs';",
        "console.log(fmt(lib.shout('hi')), lib.impl, lib.marked.join(' '), lib.order.join(' '));",
        '',
      ].join('\n'),
      'req.cjs': "const lib = require('old-cjs');\nconsole.log(lib.shout('cjs'));\nrequire('#nope');\n",
    };
    for (const [path, content] of Object.entries(files))
      expect((await ws.call('write_file', { path, content })).ok).toBe(true);
    expect(await run(ws, 'node main.js')).toMatchObject({
      exit_code: 0,
      stdout: '[HI!] node impl true false named only esm-only\n',
      stderr: '',
    });
    const cjs = await run(ws, 'node req.cjs');
    expect(cjs).toMatchObject({ exit_code: 1, stdout: 'CJS!\n' });
    expect(cjs.stderr).toContain("Package import specifier '#nope' is not defined in package.json imports");
  });
});
