import { rm } from 'node:fs/promises';
import { Ajv } from 'ajv';
import { afterAll, describe, expect, it } from 'vitest';
import { createMemoryFs, createWorkspace, systemPrompt } from '../../src/index.js';
import { nodeTools, openNodeWorkspace } from '../../src/node/index.js';
import { nodeToolset } from '../../src/node/mcp/workspace.js';
import {
  fromStrictArgs,
  OPENAI_DESCRIPTION_LIMIT,
  TOOLSET_NAMES,
  toolset,
  toStrictSchema,
} from '../../src/toolsets/index.js';
import { folderWith } from '../agent/fixture-folder.js';
import { strictProblems } from './strict-rules.js';

const ajv = new Ajv({ strict: false, allErrors: true });
const folders: string[] = [];
afterAll(async () => {
  for (const f of folders) await rm(f, { recursive: true, force: true });
});

// Node's sets too: run_command with its env map, and the task tools.
const node = nodeTools();
const sets = [...TOOLSET_NAMES.map((name) => toolset(name)), ...TOOLSET_NAMES.map((name) => nodeToolset(name, node))];
afterAll(() => node.close());

describe('exports each API accepts', () => {
  it('keeps every OpenAI description within 1,024 characters, in both APIs, strict or not', () => {
    for (const set of sets) {
      for (const strict of [false, true]) {
        for (const t of set.toOpenAI({ strict }))
          expect(t.function.description.length, `${set.name}/${t.function.name}`).toBeLessThanOrEqual(
            OPENAI_DESCRIPTION_LIMIT,
          );
        for (const t of set.toOpenAI({ api: 'responses', strict }))
          expect(t.description.length, `${set.name}/${t.name}`).toBeLessThanOrEqual(OPENAI_DESCRIPTION_LIMIT);
      }
    }
  });

  it("moves file_manager's long guidance to the toolset's instructions, which the system prompt carries", () => {
    const set = toolset('file_manager');
    expect(set.instructions.length).toBeGreaterThan(OPENAI_DESCRIPTION_LIMIT);
    expect(set.instructions).toContain('Valid call shape is always');
    expect(set.tools[0]!.description).not.toContain('Output contract');
    const ws = createWorkspace({ fs: createMemoryFs(), tools: set.tools });
    expect(systemPrompt(ws.listTools(), set.instructions)).toContain('Output contract:');
    expect(toolset('canonical').instructions).toBe('');
  });

  it('gives the Responses API its flat shape and says whether it is strict', () => {
    const [first] = toolset('canonical').toOpenAI({ api: 'responses' });
    expect(Object.keys(first!).sort()).toEqual(['description', 'name', 'parameters', 'strict', 'type']);
    expect(first).toMatchObject({ type: 'function', name: 'read_file', strict: false });
    expect(toolset('canonical').toOpenAI({ api: 'responses', strict: true })[0]!.strict).toBe(true);
    expect(toolset('canonical').toOpenAI({ strict: true })[0]!.function.strict).toBe(true);
    expect('strict' in toolset('canonical').toOpenAI()[0]!.function).toBe(false);
  });

  it('gives strict schemas that pass every strict-mode rule, for every toolset', () => {
    for (const set of sets) {
      for (const t of set.toOpenAI({ strict: true })) {
        expect(strictProblems(t.function.parameters), `${set.name}/${t.function.name}`).toEqual([]);
        expect(ajv.validateSchema(t.function.parameters)).toBe(true);
      }
    }
    // The checker is not a rubber stamp: the ordinary schemas break its rules.
    expect(strictProblems(toolset('canonical').toOpenAI()[0]!.function.parameters).length).toBeGreaterThan(0);
  });

  it("expresses run_command's env map as name/value pairs", () => {
    const run = sets
      .at(-4)!
      .toOpenAI({ strict: true })
      .find((t) => t.function.name === 'run_command')!;
    const env = (run.function.parameters.properties as Record<string, any>).env;
    expect(JSON.stringify(env)).toContain('"name"');
    expect(env).toMatchObject({ type: ['array', 'null'], items: { type: 'object', required: ['name', 'value'] } });
  });

  it("turns a strict call's nulls back into absent arguments, so the workspace runs it as meant", async () => {
    const ws = createWorkspace({ fs: createMemoryFs({ '/a.txt': 'one\ntwo\nthree\n' }) });
    const readFile = ws.listTools().find((t) => t.name === 'read_file')!;
    const strict = toStrictSchema(readFile.input_schema);
    const args = Object.fromEntries(Object.keys(strict.properties!).map((k) => [k, k === 'path' ? 'a.txt' : null]));
    // What a strict model sends is valid against the strict schema ...
    expect(ajv.compile(strict)(args)).toBe(true);
    // ... and the workspace reads it as a call with only the path.
    expect(await ws.call('read_file', args)).toMatchObject({
      ok: true,
      result: { content: 'one\ntwo\nthree\n', start_line: 1 },
    });
    // A null where a value is required is still a mistake, named exactly.
    expect(await ws.call('read_file', { path: null })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_ARGUMENTS', problems: [{ path: '/path' }] },
    });
  });

  it("reads file_manager's nested operations with nulls as the operations they mean", async () => {
    const set = toolset('file_manager');
    const ws = createWorkspace({ fs: createMemoryFs(), tools: set.tools });
    const op = (action: string, extra: Record<string, unknown>) => {
      const props = toStrictSchema(set.tools[0]!.schema).properties!.operations!.items!.properties!;
      return { ...Object.fromEntries(Object.keys(props).map((k) => [k, null])), action, ...extra };
    };
    const envelope = await ws.call('file_manager', {
      operations: [op('write_file', { path: 'n.md', content: 'hi\n' }), op('read_file', { path: 'n.md' })],
    });
    expect(envelope).toMatchObject({ ok: true, result: { results: [{ ok: true }, { ok: true, content: 'hi\n' }] } });
  });

  it('runs a strict run_command whose env came as pairs', async () => {
    const root = await folderWith({});
    folders.push(root);
    const ws = openNodeWorkspace(root);
    try {
      const args = {
        command: ['node', '-e', 'console.log(process.env.GREETING)'],
        cwd: null,
        timeout_seconds: null,
        background: null,
        env: [{ name: 'GREETING', value: 'hej' }],
      };
      expect(await ws.call('run_command', args)).toMatchObject({ ok: true, result: { exit_code: 0, stdout: 'hej\n' } });
    } finally {
      await ws.close();
    }
  });

  it('leaves arguments that are not strict-shaped alone', () => {
    const schema = {
      type: 'object',
      properties: {
        env: { type: 'object', additionalProperties: { type: 'string' } },
        n: { type: ['integer', 'null'] },
      },
    };
    const args = { env: { A: '1' }, n: null };
    expect(fromStrictArgs(schema, args)).toBe(args);
    expect(fromStrictArgs(schema, { env: [{ name: 'A', value: '1' }] })).toEqual({ env: { A: '1' } });
  });
});
