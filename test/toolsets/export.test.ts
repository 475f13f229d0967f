import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { createMemoryFs, createWorkspace } from '../../src/index.js';
import { TOOLSET_NAMES, toolset } from '../../src/toolsets/index.js';

const ajv = new Ajv({ strict: false, allErrors: true });

describe('toolset export', () => {
  for (const name of TOOLSET_NAMES) {
    it(`${name}: OpenAI, Anthropic and MCP definitions are valid JSON Schema and name every tool`, async () => {
      const set = toolset(name);
      const names = set.tools.map((t) => t.name);
      expect(names.length).toBeGreaterThan(0);
      const openai = set.toOpenAI();
      const anthropic = set.toAnthropic();
      const mcp = set.toMcp();
      expect(openai.map((t) => t.function.name)).toEqual(names);
      expect(anthropic.map((t) => t.name)).toEqual(names);
      expect(mcp.map((t) => t.name)).toEqual(names);
      for (const schema of [
        ...openai.map((t) => t.function.parameters),
        ...anthropic.map((t) => t.input_schema),
        ...mcp.map((t) => t.inputSchema),
      ]) {
        expect(ajv.validateSchema(schema), JSON.stringify(ajv.errors)).toBe(true);
        expect(schema.type).toBe('object');
        expect(() => ajv.compile(schema)).not.toThrow();
      }
      for (const t of openai) {
        expect(t.type).toBe('function');
        expect(t.function.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
        expect(t.function.description.length).toBeGreaterThan(10);
      }
      // The same schema objects validate calls: what a model is shown is what the workspace checks.
      const ws = createWorkspace({ fs: createMemoryFs(), tools: set.tools, processRunner: false });
      expect(ws.listTools().map((t) => t.input_schema)).toEqual(anthropic.map((t) => t.input_schema));
      // Bound to the built-in shell, run_command takes the same arguments; only its wording says "bash".
      const shelled = createWorkspace({ fs: createMemoryFs(), tools: set.tools }).listTools();
      const plain = (schema: unknown) =>
        JSON.parse(JSON.stringify(schema, (k, v) => (k === 'description' ? undefined : v)));
      expect(shelled.map((t) => plain(t.input_schema))).toEqual(anthropic.map((t) => plain(t.input_schema)));
      // JSON round trip: the definitions are plain data an API request can carry.
      expect(JSON.parse(JSON.stringify(openai))).toEqual(openai);
    });
  }

  it('marks read-only and destructive tools in the MCP annotations', () => {
    const byName = Object.fromEntries(
      toolset('canonical')
        .toMcp()
        .map((t) => [t.name, t.annotations]),
    );
    expect(byName.read_file).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(byName.search_files).toMatchObject({ readOnlyHint: true });
    expect(byName.delete_path).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(byName.write_file).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(byName.create_directory).toMatchObject({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
    });
    expect(byName.run_command).toMatchObject({ destructiveHint: true, openWorldHint: true });
    const cowork = Object.fromEntries(
      toolset('cowork')
        .toMcp()
        .map((t) => [t.name, t.annotations]),
    );
    expect(cowork.text_file_read!.readOnlyHint).toBe(true);
    expect(cowork.rename_path!.destructiveHint).toBe(true);
  });

  it('an exported schema rejects what the workspace rejects', () => {
    const [fm] = toolset('file_manager').toOpenAI();
    const validate = ajv.compile(fm!.function.parameters);
    expect(validate({ operations: [{ action: 'read_file', path: 'a' }] })).toBe(true);
    expect(validate({ action: 'read_file', path: 'a' })).toBe(false);
    expect(validate({ operations: [{ action: 'delete_file', path: 'a' }] })).toBe(false);
  });
});
