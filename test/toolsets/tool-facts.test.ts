import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryFs, createWorkspace, TOOLSET_NAMES, toolset, type ToolDefinition } from '../../src/index.js';
import { BUILTIN_TOOL_NAMES, nodeTools } from '../../src/node/index.js';
import { nodeToolset } from '../../src/node/mcp/workspace.js';
import { importFilesTool } from '../../src/tools/import-files.js';
import { writeToolsFolder } from '../manifests/fixtures.js';

let base: string;
let node: ReturnType<typeof nodeTools>;
beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'sandpit-facts-'));
  await writeToolsFolder(join(base, 'tools'));
  node = nodeTools({ toolsDir: join(base, 'tools'), onWarning: () => {} });
});
afterAll(async () => {
  await node.close();
  await rm(base, { recursive: true, force: true });
});

/** Every tool a user can meet: each toolset browser-side and with Node's tools, plus import_files. */
function everyTool(): ToolDefinition[] {
  return [
    ...TOOLSET_NAMES.flatMap((name) => [
      ...toolset(name).tools,
      ...nodeToolset(name, node).tools,
      ...nodeToolset(name, nodeTools({ gitTools: true })).tools,
    ]),
    importFilesTool,
  ];
}

const byName = (tools: ToolDefinition[]) => Object.fromEntries(tools.map((t) => [t.name, t]));

describe('tools carry their own facts', () => {
  it('every tool of every toolset has a title, annotations and an object result schema', () => {
    for (const tool of everyTool()) {
      expect(tool.title, tool.name).toMatch(/^[A-Z]/);
      expect(tool.annotations, tool.name).toEqual({
        readOnly: expect.any(Boolean),
        destructive: expect.any(Boolean),
        idempotent: expect.any(Boolean),
        openWorld: expect.any(Boolean),
      });
      expect(tool.resultSchema?.type, tool.name).toBe('object');
      // a tool that changes files is never read-only, and a read-only tool destroys nothing
      if (tool.mutates) expect(tool.annotations!.readOnly, tool.name).toBe(false);
      if (tool.annotations!.readOnly) expect(tool.annotations!.destructive, tool.name).toBe(false);
    }
  });

  it('annotations say what each tool really does', () => {
    const canonical = byName(nodeToolset('canonical', node).tools);
    // snapshot writes a commit and task_kill ends a process: neither is read-only
    expect(canonical.snapshot!.annotations).toMatchObject({ readOnly: false, destructive: false, idempotent: false });
    expect(canonical.task_kill!.annotations).toMatchObject({ readOnly: false, destructive: true, openWorld: true });
    expect(canonical.run_command!.annotations).toMatchObject({ readOnly: false, destructive: true, openWorld: true });
    expect(canonical.word_count!.annotations).toMatchObject({ readOnly: false, openWorld: true });
    expect(canonical.delete_path!.annotations).toMatchObject({ destructive: true, idempotent: true });
    expect(canonical.append_file!.annotations).toMatchObject({ destructive: false, idempotent: false });
    expect(canonical.create_directory!.annotations).toMatchObject({ destructive: false, idempotent: true });
    for (const name of [
      'read_file',
      'list_directory',
      'glob',
      'search_files',
      'file_bytes',
      'exists',
      'list_snapshots',
      'diff_snapshots',
      'list_tasks',
    ]) {
      expect(canonical[name]!.annotations!.readOnly, name).toBe(true);
    }
    expect(
      toolset('canonical')
        .toMcp()
        .find((t) => t.name === 'snapshot')!.annotations.readOnlyHint,
    ).toBe(false);
  });

  it('the reserved names are exactly the built-in tools of every toolset, from their definitions', () => {
    // the git tools are offered only on request, but no manifest may take their names either
    const builtIn = new Set(
      TOOLSET_NAMES.flatMap((name) => nodeToolset(name, nodeTools({ gitTools: true })).tools.map((t) => t.name)),
    );
    expect(new Set(BUILTIN_TOOL_NAMES)).toEqual(builtIn);
  });

  it("the task tools join only the toolset whose run_command starts tasks, and Node's run_command takes canonical's place", () => {
    expect(nodeToolset('canonical', node).tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(['task_output', 'task_kill']),
    );
    for (const name of ['file_manager', 'fs_process', 'cowork'] as const) {
      expect(nodeToolset(name, node).tools.map((t) => t.name)).not.toContain('task_output');
    }
    const run = nodeToolset('canonical', node).tools.find((t) => t.name === 'run_command');
    expect(run).toBe(node.tools.find((t) => t.name === 'run_command'));
    // made over Node's runner, so no workspace rebinds it
    expect(run?.programs?.runner).toBeDefined();
  });

  it('listTools carries title, output schema and annotations', () => {
    const ws = createWorkspace({ fs: createMemoryFs() });
    const read = ws.listTools().find((t) => t.name === 'read_file')!;
    expect(read).toMatchObject({
      title: 'Read file',
      output_schema: { type: 'object' },
      annotations: { readOnly: true },
    });
    const mcp = toolset('canonical')
      .toMcp()
      .find((t) => t.name === 'read_file')!;
    expect(mcp).toMatchObject({
      title: 'Read file',
      outputSchema: {
        type: 'object',
        anyOf: [{ required: expect.arrayContaining(['content']) }, { required: ['code', 'message'] }],
      },
    });
  });

  it("a dotted call names the tool, and file_manager's own hint shows the operations shape", async () => {
    const ws = createWorkspace({ fs: createMemoryFs(), tools: toolset('file_manager').tools });
    expect(await ws.call('file_manager.read_file', {})).toMatchObject({
      ok: false,
      error: { code: 'UNKNOWN_TOOL', hint: expect.stringContaining('{"operations": [{"action": "read_file"') },
    });
    const canonical = createWorkspace({ fs: createMemoryFs() });
    const plain = await canonical.call('read_file.whole', {});
    expect(plain).toMatchObject({ ok: false, error: { code: 'UNKNOWN_TOOL' } });
    if (!plain.ok) expect(plain.error.hint).toBe("Call the tool 'read_file' itself and name 'whole' in its arguments.");
  });
});
