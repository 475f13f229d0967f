import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { createMemoryFs, createWorkspace, type JsonSchema, type WorkspacePolicy } from '../../src/index.js';
import { TOOLSET_NAMES, toolset, type ToolsetName } from '../../src/toolsets/index.js';
import { errorTexts, forgetReached, reachedFrom, sweepProgram, UNKNOWN, type ErrorText } from './error-texts.js';

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
  if (name === 'file_manager')
    for (const a of [
      'create_directory',
      'read_file',
      'write_file',
      'append_file',
      'edit_file',
      'list_directory',
      'exists',
    ])
      names.add(a);
  return names;
}

/**
 * Names another surface has and this one lacks. Only identifiers with an underscore count, plus
 * the one-word tools glob, grep and undo, so ordinary words (path, content, limit, exists,
 * snapshot) never trip the check.
 */
function foreignNames(name: ToolsetName): string[] {
  const own = namesOf(name);
  const foreign = new Set<string>();
  for (const other of TOOLSET_NAMES) {
    if (other === name) continue;
    for (const n of namesOf(other))
      if (!own.has(n) && (n.includes('_') || ['glob', 'grep', 'undo'].includes(n))) foreign.add(n);
  }
  return [...foreign];
}

const BINARY = new Uint8Array([0x61, 0, 0x62]);
const LATIN1 = new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a]);

function seedFiles(): Record<string, string | Uint8Array> {
  return {
    'p/a.txt': 'alpha\nbeta\nalpha\n',
    'p/bin.dat': BINARY,
    'p/latin.txt': LATIN1,
    'p/big.txt': `${'x'.repeat(300)}\n`,
    'p/doc.pdf': '%PDF-1.4\n',
    'p/dir/inner.txt': 'inner\n',
    'p/full/f.txt': 'f\n',
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
    ['list_dir', { path: '.sandpit' }, 'PERMISSION_DENIED'],
    ['read_file', { path: '.', file: '.sandpit/x' }, 'PERMISSION_DENIED'],
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
    [
      'apply_patch',
      { patch: '*** Begin Patch\n*** Update File: p/dir/inner.txt\n@@\n-inner\n+B\n*** End Patch' },
      'NOT_READ',
    ],
    [
      'apply_patch',
      { patch: '*** Begin Patch\n*** Update File: p/a.txt\n@@\n-beta  \n+B\n*** End Patch' },
      'PATCH_CONFLICT',
    ],
    [
      'apply_patch',
      { patch: '*** Begin Patch\n*** Update File: p/missing.txt\n@@\n-beta\n+B\n*** End Patch' },
      'PATCH_CONFLICT',
    ],
    ['apply_patch', { patch: '*** Begin Patch\n*** Frobnicate: p/a.txt\n*** End Patch' }, 'PATCH_PARSE_ERROR'],
    ['apply_patch', { patch: '*** Begin Patch\n*** Add File: p/a.txt\n+x\n*** End Patch' }, 'PATCH_CONFLICT'],
    ['grep', { pattern: 'x', path: 'p/missing' }, 'NOT_FOUND'],
    ['grep', { pattern: 'x', cursor: 'bogus' }, 'INVALID_ARGUMENTS'],
    ['grep', { pattern: 'a', path: 'p/bin.dat' }, 'BINARY_FILE'],
    ['text_file_read', { path: '.sandpit/x' }, 'PERMISSION_DENIED'],
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
    ['read_file', { path: '.sandpit/x' }, 'PERMISSION_DENIED'],
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
  return [
    error.message,
    error.hint ?? '',
    ...(error.problems ?? []).flatMap((p: Row) => [p.path, p.message]),
    ...nested,
  ];
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
    expect(
      new RegExp(`\\b(${foreignNames('cowork').join('|')})\\b`).test(
        'Call read_file on it without start_line/end_line',
      ),
    ).toBe(true);
  });
});

type SeedName = Exclude<ToolsetName, 'canonical'>;

/** Where each seed toolset's code starts; fs_process's run_command runs on the Node host's runner. */
const SEED_ROOTS: Record<SeedName, string[]> = {
  fs_process: ['src/toolsets/fs-process.ts', 'src/node/process/run-command.ts'],
  cowork: ['src/toolsets/cowork.ts'],
  file_manager: ['src/toolsets/file-manager.ts'],
};

const swept = new Map<SeedName, ErrorText[]>();
/** One program over every seed's files (about 100), which each seed's sweep reads its own files from. */
let seedsProgram: ts.Program | undefined;
afterAll(() => {
  swept.clear();
  seedsProgram = undefined;
  forgetReached();
});

/** The error texts of the code a seed toolset loads (read once per run). */
function textsOf(name: SeedName): ErrorText[] {
  if (!swept.has(name)) {
    seedsProgram ??= sweepProgram([...new Set(Object.values(SEED_ROOTS).flatMap((roots) => reachedFrom(roots)))]);
    swept.set(name, [...errorTexts(reachedFrom(SEED_ROOTS[name]), seedsProgram).values()].flat());
  }
  return swept.get(name)!;
}

/**
 * Each plain-string text that names something the toolset lacks. Texts built as Words
 * (contract/words.ts) keep their names as slots the toolset renames, and the sweep reads them as
 * unknown; a plain string is said as written, so it must name nothing a seed words differently.
 */
function leaks(name: SeedName): string[] {
  const word = new RegExp(`\\b(${foreignNames(name).join('|')})\\b`, 'g');
  return textsOf(name).flatMap(({ where, text }) => (text.match(word) ?? []).map((f) => `${where} says ${f}: ${text}`));
}

describe('every plain error text a seed toolset can reach names only what it has', () => {
  const seeds = Object.keys(SEED_ROOTS) as SeedName[];
  for (const name of seeds) {
    it(`${name}: no plain canonical text names what ${name} lacks`, () => {
      expect(leaks(name)).toEqual([]);
    });
  }

  it('the sweep reaches the texts of the path, read, search and edit layers', () => {
    const texts = textsOf('cowork').map((t) => t.text);
    expect(texts.length).toBeGreaterThan(100);
    expect(texts).toContain('Use a path relative to the workspace root, such as src/index.ts.');
    // texts that name tools or arguments are Words, not plain strings a toolset would say as written
    expect(texts).not.toContain('Use file_bytes to look for bytes in it.');
    expect(textsOf('fs_process').some((t) => t.text.includes('replace_all'))).toBe(false);
    // file_bytes' verdict hints come from a table
    expect(
      textsOf('fs_process').some(
        (t) =>
          t.where.startsWith('src/tools/file-bytes.ts:') && t.text.includes('where escape sequences were expected'),
      ),
    ).toBe(true);
    // cowork loads no canonical snapshot or edit tool
    expect(
      textsOf('cowork').some(
        (t) => t.where.startsWith('src/tools/history/undo.ts:') || t.where.startsWith('src/tools/edit-file.ts:'),
      ),
    ).toBe(false);
  });

  it('the sweep follows how hints are built: imported constants, helper parameters, tables, ?? and templates', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandpit-hints-'));
    try {
      writeFileSync(
        join(dir, 'words.ts'),
        "export const IMPORTED = 'Call list_snapshots first.';\nexport const TABLE = { a: 'Use diff_snapshots.', b: 'Use undo.' };\n",
      );
      writeFileSync(
        join(dir, 'errors.ts'),
        [
          "import { IMPORTED, TABLE } from './words.js';",
          'class ToolError { constructor(code: string, message: string, options?: object) {} }',
          "function refuse(why: string, hint?: string) { return new ToolError('X', `refused: ${why}`, { hint: hint ?? 'Use read_file.' }); }",
          "export const a = refuse('it is big', 'Use search_files.');",
          "export const b = new ToolError('X', 'm', { hint: IMPORTED });",
          "export const c = (k: 'a' | 'b') => new ToolError('X', `${k} failed`, { hint: TABLE[k], problems: [{ path: '/x', message: 'set replace_all' }] });",
        ].join('\n'),
      );
      const texts = [...errorTexts(reachedFrom([join(dir, 'errors.ts')])).values()].flat().map((t) => t.text);
      for (const text of [
        'refused: it is big',
        'Use search_files.',
        'Use read_file.',
        'Call list_snapshots first.',
        'Use diff_snapshots.',
        'Use undo.',
        'set replace_all',
        `${UNKNOWN} failed`,
      ]) {
        expect(texts).toContain(text);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
