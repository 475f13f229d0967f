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
});
