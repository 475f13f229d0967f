import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseAst } from 'rolldown/parseAst';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildCli, cliPath, repoRoot } from '../cli/built-cli.js';
import { scratch } from './scratch.js';

const { folder } = scratch('sandpit-mcp-files-');
beforeAll(async () => {
  await buildCli();
});

/**
 * What `sandpit mcp` may read of the package before its first read and write are answered: the bin,
 * the bundle's entry and its start, early and server chunks, the runtime helpers, and the small
 * files through which a dynamic import reaches a module inside a chunk (16 when written, from about
 * 180 module files before the CLI was bundled).
 */
const MOST_FILES = 20;

/**
 * Node reads an ES module graph one file at a time, and that was most of the server's start-up
 * (about 180 files before the first tools/list). The build bundles the CLI (scripts/build-cli.mjs):
 * the start is a few files. A module loader hook lists every file of the package the process reads.
 */
describe('sandpit mcp --root DIR, started as a client starts it', () => {
  it('reads a few files of the package, all of them the bundled CLI, before its first read and write are answered', async () => {
    const dir = folder({ 'read.txt': 'alpha\n' });
    const aside = folder();
    const hooks = join(aside, 'hooks.mjs');
    const register = join(aside, 'register.mjs');
    const log = join(aside, 'loaded.txt');
    writeFileSync(
      hooks,
      `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  const loaded = await next(url, context);
  appendFileSync(${JSON.stringify(log)}, url + '\\n');
  return loaded;
}\n`,
    );
    writeFileSync(
      register,
      `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`,
    );
    writeFileSync(log, '');
    // A small environment, as a client gives: no credentials, so no relaunch.
    const child = spawn(process.execPath, ['--import', pathToFileURL(register).href, cliPath, 'mcp', '--root', dir], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH ?? '' },
    });
    const send = (message: object) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
    const answers = new Map<unknown, Record<string, any>>();
    let buffer = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      for (let at = buffer.indexOf('\n'); at !== -1; at = buffer.indexOf('\n')) {
        const message = JSON.parse(buffer.slice(0, at)) as Record<string, any>;
        buffer = buffer.slice(at + 1);
        answers.set(message.id, message);
      }
    });
    const answer = async (id: number) => {
      await expect.poll(() => answers.get(id), { timeout: 60_000 }).toBeDefined();
      return answers.get(id)!;
    };
    let loaded: string[];
    try {
      send({
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      });
      await answer(1);
      send({ method: 'notifications/initialized' });
      send({ id: 2, method: 'tools/list' });
      expect((await answer(2)).result.tools.map((t: { name: string }) => t.name)).toContain('read_file');
      send({ id: 3, method: 'tools/call', params: { name: 'read_file', arguments: { path: 'read.txt' } } });
      expect((await answer(3)).result.isError).toBeFalsy();
      send({
        id: 4,
        method: 'tools/call',
        params: { name: 'write_file', arguments: { path: 'b.txt', content: 'b\n' } },
      });
      expect((await answer(4)).result.isError).toBeFalsy();
      loaded = readFileSync(log, 'utf8').split('\n');
    } finally {
      child.kill();
    }
    const dist = pathToFileURL(join(repoRoot, 'dist')).href;
    const ours = loaded.filter((url) => url.startsWith(`${dist}/`)).map((url) => url.slice(dist.length + 1));
    expect(ours[0]).toBe('node/cli.js');
    expect(ours.slice(1).filter((f) => !f.startsWith('node/bin/'))).toEqual([]);
    expect(ours.length, ours.join('\n')).toBeLessThanOrEqual(MOST_FILES);
  });

  // The bundle runs each module's top level when its chunk loads (scripts/build-cli.mjs), not on
  // first import: in the chunks every start loads, a top level may only define things, or a module
  // needed only later would act at start-up.
  it('has early and start chunks whose modules only define things at their top level', () => {
    const bin = join(repoRoot, 'dist', 'node', 'bin');
    const chunks = readdirSync(bin).filter((f) => /^(early|start)-.+\.js$/.test(f));
    expect(chunks.length).toBe(2);
    for (const chunk of chunks) {
      const source = readFileSync(join(bin, chunk), 'utf8');
      const acting = parseAst(source).body.filter((statement) => !definesOnly(statement));
      expect(
        acting.map((s) => source.slice(s.start, Math.min(s.end, s.start + 120))),
        chunk,
      ).toEqual([]);
    }
  });
});

type Node = { type: string; start: number; end: number; [key: string]: any };

/** Declarations, and a loop or assignment that fills a table the chunk declares (`T[i] = ...`). */
function definesOnly(statement: Node): boolean {
  if (/^(Import|Export\w*|Function|Class|Variable)Declaration$/.test(statement.type))
    return statement.type !== 'ExportDefaultDeclaration' || /Declaration$/.test(statement.declaration.type);
  if (statement.type === 'ForStatement') return fillsTable(statement.body);
  return fillsTable(statement);
}

function fillsTable(statement: Node): boolean {
  if (statement.type !== 'ExpressionStatement') return false;
  let target = statement.expression;
  while (target.type === 'AssignmentExpression' && target.right.type === 'AssignmentExpression') target = target.right;
  return (
    target.type === 'AssignmentExpression' &&
    target.left.type === 'MemberExpression' &&
    target.left.object.type === 'Identifier' &&
    !['globalThis', 'process', 'module', 'exports'].includes(target.left.object.name)
  );
}
