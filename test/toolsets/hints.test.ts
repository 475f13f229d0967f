import { describe, expect, it } from 'vitest';
import { createMemoryFs, createWorkspace, type JsonSchema, type WorkspacePolicy } from '../../src/index.js';
import { TOOLSET_NAMES, toolset, type ToolsetName } from '../../src/toolsets/index.js';

type Row = Record<string, any>;
type Case = [tool: string, args: Row, code: string];

/** Every name a schema declares: its properties, and those of nested objects and arrays. */
function schemaNames(schema: JsonSchema | undefined, into: Set<string>): void {
  if (!schema || typeof schema !== 'object') return;
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    into.add(name);
    schemaNames(property, into);
  }
  schemaNames(schema.items as JsonSchema | undefined, into);
}

function namesOf(name: ToolsetName): Set<string> {
  const names = new Set<string>();
  for (const tool of toolset(name).tools) {
    names.add(tool.name);
    schemaNames(tool.schema, names);
  }
  // file_manager's actions are its tools
  if (name === 'file_manager') for (const a of ['create_directory', 'read_file', 'write_file', 'append_file', 'edit_file', 'list_directory', 'exists']) names.add(a);
  return names;
}

/**
 * Names another surface has and this one lacks. Only identifiers with an underscore count, plus
 * the one-word tools glob and grep, so ordinary words (path, content, limit) never trip the check.
 */
function foreignNames(name: ToolsetName): string[] {
  const own = namesOf(name);
  const foreign = new Set<string>();
  for (const other of TOOLSET_NAMES) {
    if (other === name) continue;
    for (const n of namesOf(other)) if (!own.has(n) && (n.includes('_') || ['glob', 'grep'].includes(n))) foreign.add(n);
  }
  return [...foreign];
}

const BINARY = new Uint8Array([0x61, 0, 0x62]);
const LATIN1 = new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a]);

function seedFiles(): Record<string, string | Uint8Array> {
  return {
    'p/a.txt': 'alpha\nbeta\nalpha\n', 'p/bin.dat': BINARY, 'p/latin.txt': LATIN1, 'p/big.txt': `${'x'.repeat(300)}\n`,
    'p/doc.pdf': '%PDF-1.4\n', 'p/dir/inner.txt': 'inner\n', 'p/full/f.txt': 'f\n',
  };
}

/** Each toolset's error cases: every refusal its own surface can reach, through its own arguments. */
const CASES: Record<ToolsetName, Case[]> = {
  canonical: [
    ['read_file', { path: 'p/missing.txt' }, 'NOT_FOUND'],
    ['edit_file', { path: 'p/a.txt', old_text: 'alpha', new_text: 'A' }, 'NOT_READ'],
  ],
  fs_process: [
    ['read_file', { path: 'p', file: 'missing.txt' }, 'NOT_FOUND'],
    ['read_file', { path: 'p', file: 'dir' }, 'NOT_A_FILE'],
    ['read_file', { path: 'p', file: 'bin.dat' }, 'BINARY_FILE'],
    ['read_file', { path: 'p', file: 'latin.txt' }, 'DECODE_ERROR'],
    ['read_file', { path: 'p', file: 'big.txt' }, 'TOO_LARGE'],
    ['read_file', { path: 'p', file: 'doc.pdf' }, 'UNSUPPORTED_FILE_TYPE'],
    ['read_file', { path: 'p', file: 'a.txt', start_line: 9 }, 'INVALID_ARGUMENTS'],
    ['read_file', { path: 'p', file: '../../x' }, 'OUTSIDE_WORKSPACE'],
    ['edit_file', { path: 'p', file: 'dir/inner.txt', old: 'inner', new: 'A' }, 'NOT_READ'],
    ['edit_file', { path: 'p', file: 'a.txt', old: 'alpha', new: 'A' }, 'AMBIGUOUS_MATCH'],
    ['edit_file', { path: 'p', file: 'a.txt', old: 'gamma', new: 'A' }, 'NO_MATCH'],
    ['edit_file', { path: 'p', file: 'a.txt', old: 'beta', new: 'beta' }, 'INVALID_ARGUMENTS'],
    ['edit_file', { path: 'p', file: 'missing.txt', old: 'a', new: 'b' }, 'NOT_FOUND'],
    ['search_files', { path: 'p', pattern: '(', is_regex: true }, 'INVALID_ARGUMENTS'],
    ['search_files', { path: 'p', pattern: 'x', cursor: 'bogus' }, 'INVALID_ARGUMENTS'],
    ['list_dir', { path: 'p/a.txt' }, 'NOT_A_DIRECTORY'],
    ['file_bytes', { file: 'p/missing.txt' }, 'NOT_FOUND'],
  ],
  cowork: [
    ['text_file_read', { path: 'p/missing.txt' }, 'NOT_FOUND'],
    ['text_file_read', { path: 'p/dir' }, 'NOT_A_FILE'],
    ['text_file_read', { path: 'p/bin.dat' }, 'BINARY_FILE'],
    ['text_file_read', { path: 'p/latin.txt' }, 'DECODE_ERROR'],
    ['text_file_read', { path: 'p/big.txt' }, 'TOO_LARGE'],
    ['text_file_read', { path: 'p/doc.pdf' }, 'UNSUPPORTED_FILE_TYPE'],
    ['text_file_read', { path: 'p/a.txt', offset: 9 }, 'INVALID_ARGUMENTS'],
    ['apply_patch', { patch: '*** Begin Patch\n*** Update File: p/dir/inner.txt\n@@\n-inner\n+B\n*** End Patch' }, 'NOT_READ'],
    ['apply_patch', { patch: '*** Begin Patch\n*** Update File: p/a.txt\n@@\n-beta  \n+B\n*** End Patch' }, 'PATCH_CONFLICT'],
    ['apply_patch', { patch: '*** Begin Patch\n*** Update File: p/missing.txt\n@@\n-beta\n+B\n*** End Patch' }, 'PATCH_CONFLICT'],
    ['apply_patch', { patch: '*** Begin Patch\n*** Frobnicate: p/a.txt\n*** End Patch' }, 'PATCH_PARSE_ERROR'],
    ['apply_patch', { patch: '*** Begin Patch\n*** Add File: p/a.txt\n+x\n*** End Patch' }, 'PATCH_CONFLICT'],
    ['grep', { pattern: 'x', path: 'p/missing' }, 'NOT_FOUND'],
    ['grep', { pattern: 'x', cursor: 'bogus' }, 'INVALID_ARGUMENTS'],
    ['rename_path', { from: 'p/missing.txt', to: 'p/b.txt' }, 'NOT_FOUND'],
    ['rename_path', { from: 'p/a.txt', to: 'p/full/f.txt' }, 'ALREADY_EXISTS'],
    ['delete_path', { path: 'p/missing.txt' }, 'NOT_FOUND'],
    ['delete_path', { path: 'p/dir' }, 'DIRECTORY_NOT_EMPTY'],
  ],
  file_manager: [
    ['read_file', { path: 'p/missing.txt' }, 'NOT_FOUND'],
    ['read_file', { path: 'p/dir' }, 'NOT_A_FILE'],
    ['read_file', { path: 'p/bin.dat' }, 'BINARY_FILE'],
    ['read_file', { path: 'p/latin.txt' }, 'DECODE_ERROR'],
    ['read_file', { path: 'p/big.txt' }, 'TOO_LARGE'],
    ['read_file', { path: 'p/a.txt', start_line: 9 }, 'INVALID_ARGUMENTS'],
    ['edit_file', { path: 'p/dir/inner.txt', old_text: 'inner', new_text: 'A' }, 'NOT_READ'],
    ['edit_file', { path: 'p/a.txt', old_text: 'alpha', new_text: 'A' }, 'AMBIGUOUS_MATCH'],
    ['edit_file', { path: 'p/missing.txt', old_text: 'a', new_text: 'b' }, 'NOT_FOUND'],
    ['write_file', { path: 'p/full/f.txt', content: 'x', overwrite: false }, 'ALREADY_EXISTS'],
    ['list_directory', { path: 'p/a.txt' }, 'NOT_A_DIRECTORY'],
  ],
};

/** The cases that need a file read whole first (so the edit gets past the read audit). */
const READ_FIRST: Record<ToolsetName, Case | null> = {
  canonical: null,
  fs_process: ['read_file', { path: 'p', file: 'a.txt' }, ''],
  cowork: ['text_file_read', { path: 'p/a.txt' }, ''],
  file_manager: ['read_file', { path: 'p/a.txt' }, ''],
};

const policy: WorkspacePolicy = { readBeforeWrite: true, limits: { maxReadBytes: 200 } };

function asCall(name: ToolsetName, [tool, args]: Case): [string, Row] {
  return name === 'file_manager' ? ['file_manager', { operations: [{ action: tool, ...args }] }] : [tool, args];
}

/** The texts of an error a model reads: message, hint, problems, and a file_manager's per-operation errors. */
function texts(error: Row): string[] {
  const nested = (error.results as Row[] | undefined)?.flatMap((r) => (r.error ? texts(r.error) : [])) ?? [];
  return [error.message, error.hint ?? '', ...(error.problems ?? []).flatMap((p: Row) => [p.path, p.message]), ...nested];
}

describe('each toolset speaks its own names in errors and hints', () => {
  for (const name of TOOLSET_NAMES) {
    it(`${name}: no error names another surface's tool or argument`, async () => {
      const set = toolset(name);
      const ws = createWorkspace({ fs: createMemoryFs(seedFiles()), tools: set.tools, policy });
      const first = READ_FIRST[name];
      if (first) expect((await ws.call(...asCall(name, first))).ok).toBe(true);
      const foreign = foreignNames(name);
      expect(foreign.length).toBeGreaterThan(0);
      const word = new RegExp(`\\b(${foreign.join('|')})\\b`);
      for (const c of CASES[name]) {
        const envelope = await ws.call(...asCall(name, c));
        expect(envelope.ok, `${c[0]} ${JSON.stringify(c[1])}`).toBe(false);
        if (envelope.ok) continue;
        expect(envelope.error.code, `${c[0]} ${JSON.stringify(c[1])}`).toBe(c[2]);
        for (const text of texts(envelope.error)) {
          expect(text.match(word)?.[0], `${name} ${c[0]} ${c[2]}: ${text}`).toBeUndefined();
        }
      }
      await ws.close();
    });
  }

  it('the check itself catches canonical wording on a seed surface', () => {
    const word = new RegExp(`\\b(${foreignNames('fs_process').join('|')})\\b`);
    expect('or set replace_all: true to change every occurrence').toMatch(word);
    expect(new RegExp(`\\b(${foreignNames('cowork').join('|')})\\b`).test('Call read_file on it without start_line/end_line')).toBe(true);
  });
});
