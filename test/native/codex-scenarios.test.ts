import { describe, expect, it } from 'vitest';
import { createMemoryFs, createWorkspace, toolset } from '../../src/index.js';
import type { ApplyPatchOperation } from '../../src/toolsets/index.js';
import { hex, loadScenarios, type Scenario } from '../patch/scenarios.js';

/**
 * The apply_patch scenarios in Codex's format, split into the per-file operations the Responses
 * API emits (an Add File section is create_file with its '+' lines, an Update File section is
 * update_file with its chunks as the V4A diff), applied one call each through the openai toolset.
 * Left out: moves (no API operation moves a file), patches not in the plain envelope (the API
 * sends no heredoc or CRLF wrapper), engine options, and failures meant to undo earlier files
 * of the same patch (each operation is its own call).
 */
function operations(s: Scenario): ApplyPatchOperation[] | null {
  if (Object.keys(s.options ?? {}).length > 0) return null;
  const lines = s.patch.split('\n');
  if (s.patch.includes('\r') || lines[0] !== '*** Begin Patch') return null;
  const end = lines.lastIndexOf('*** End Patch');
  if (end < 0) return null;
  const ops: Array<ApplyPatchOperation & { body: string[] }> = [];
  for (const line of lines.slice(1, end)) {
    const header = /^\*\*\* (Add|Update|Delete) File: (.+)$/.exec(line);
    if (header) {
      const type = header[1] === 'Add' ? 'create_file' : header[1] === 'Update' ? 'update_file' : 'delete_file';
      ops.push({ type, path: header[2]!, body: [] });
    } else if (line.startsWith('*** Move to:')) return null;
    else if (ops.length === 0) return null;
    else ops.at(-1)!.body.push(line);
  }
  return ops.map(({ body, ...op }) =>
    op.type === 'delete_file' ? op : { ...op, diff: body.length ? `${body.join('\n')}\n` : '' },
  );
}

const usable = loadScenarios()
  .map((s) => ({ s, ops: operations(s) }))
  .filter((c): c is { s: Scenario; ops: ApplyPatchOperation[] } => c.ops !== null)
  .filter(({ s, ops }) => !s.expectedError || ops.length === 1);

describe("Codex's apply_patch scenarios through the openai toolset's V4A path", () => {
  it('covers most of the scenario folders', () => {
    expect(usable.length).toBeGreaterThanOrEqual(20);
  });

  for (const { s, ops } of usable) {
    it(s.name, async () => {
      const fs = createMemoryFs(Object.fromEntries(Object.entries(s.input).map(([p, b]) => [p, b])));
      const ws = createWorkspace({ fs, tools: toolset('openai').tools });
      const read = async (p: string) => {
        try {
          return hex(await fs.readFile(`/${p}`));
        } catch {
          return null;
        }
      };
      try {
        const results = [];
        for (const operation of ops) results.push(await ws.call('apply_patch', { operation }));
        if (s.expectedError) {
          const last = results.at(-1)!;
          expect(last.ok ? null : last.error.code).toBe(s.expectedError.code);
          for (const [p, bytes] of Object.entries(s.input)) expect(await read(p), p).toBe(hex(bytes));
          return;
        }
        for (const r of results) expect(r.ok, JSON.stringify(r)).toBe(true);
        for (const [p, bytes] of Object.entries(s.expected ?? {})) expect(await read(p), p).toBe(hex(bytes));
        for (const p of Object.keys(s.input))
          if (!(p in (s.expected ?? {}))) expect(await read(p), `${p} is gone`).toBeNull();
      } finally {
        await ws.close();
      }
    });
  }
});
