import { describe, expect, it } from 'vitest';
import { createMemoryFs, createWorkspace } from '../../src/index.js';
import { coworkTools } from '../../src/toolsets/cowork.js';

type Row = Record<string, any>;

function open(seed: Record<string, string | Uint8Array> = {}, confirm?: (paths: string[], action: string) => boolean) {
  const fs = createMemoryFs(seed);
  const asked: Array<[string[], string]> = [];
  const policy = confirm
    ? {
        confirm: (paths: string[], action: string) => {
          asked.push([paths, action]);
          return confirm(paths, action);
        },
      }
    : {};
  const ws = createWorkspace({ fs, tools: coworkTools({ artifactDir: 'artifacts/run1' }), policy });
  const call = (tool: string, args: unknown) => ws.call(tool, args) as Promise<Row>;
  const ok = async (tool: string, args: unknown): Promise<Row> => {
    const e = await call(tool, args);
    if (!e.ok) throw new Error(`${tool} failed: ${JSON.stringify(e.error)}`);
    return e.result;
  };
  const fail = async (tool: string, args: unknown): Promise<Row> => {
    const e = await call(tool, args);
    if (e.ok) throw new Error(`${tool} succeeded: ${JSON.stringify(e.result)}`);
    return e.error;
  };
  const text = async (p: string) => new TextDecoder().decode(await fs.readFile(`/${p}`));
  return { ws, fs, ok, fail, text, asked };
}

const patch = (...body: string[]) => ['*** Begin Patch', ...body, '*** End Patch'].join('\n');
const many = Array.from({ length: 3000 }, (_, i) => `l${i + 1}`).join('\n') + '\n';

describe('cowork (seed 004)', () => {
  it('offers text_file_read, apply_patch, glob, grep, rename_path and delete_path', () => {
    const { ws } = open();
    expect(ws.listTools().map((t) => t.name)).toEqual([
      'text_file_read',
      'apply_patch',
      'glob',
      'grep',
      'rename_path',
      'delete_path',
    ]);
  });

  it('text_file_read pages with offset/limit and reads the whole file (past 2,000 lines) with offset=1 and no limit', async () => {
    const { ok } = open({ 'big.txt': many });
    const page = await ok('text_file_read', { path: 'big.txt', offset: 10, limit: 5 });
    expect(page).toMatchObject({
      content: 'l10\nl11\nl12\nl13\nl14\n',
      offset: 10,
      lines: 5,
      has_more: true,
      next_offset: 15,
      total_lines: 3000,
      write_audit: false,
    });
    const whole = await ok('text_file_read', { path: 'big.txt' });
    expect(whole).toMatchObject({ content: many, lines: 3000, has_more: false, write_audit: true });
  });

  it('text_file_read decodes strictly, honours a BOM and named encodings, and refuses Office/PDF', async () => {
    const { ok, fail } = open({
      'bad.txt': new Uint8Array([0x61, 0xff, 0x62]),
      'bom.txt': new Uint8Array([0xef, 0xbb, 0xbf, 0x68, 0x69]),
      'l1.txt': new Uint8Array([0x63, 0x61, 0x66, 0xe9]),
      'r.docx': 'x',
      'r.pdf': 'x',
      's.xlsx': 'x',
      'p.pptx': 'x',
      'o.xls': 'x',
    });
    expect((await fail('text_file_read', { path: 'bad.txt' })).code).toBe('DECODE_ERROR');
    expect(await ok('text_file_read', { path: 'bom.txt' })).toMatchObject({
      content: 'hi',
      bom: true,
      encoding: 'utf-8',
    });
    expect((await ok('text_file_read', { path: 'l1.txt', encoding: 'latin1' })).content).toBe('café');
    for (const p of ['r.docx', 'r.pdf', 's.xlsx', 'p.pptx', 'o.xls'])
      expect((await fail('text_file_read', { path: p })).code).toBe('UNSUPPORTED_FILE_TYPE');
    expect((await fail('apply_patch', { patch: patch('*** Add File: new.docx', '+x') })).code).toBe(
      'UNSUPPORTED_FILE_TYPE',
    );
  });

  it('refuses files over 10 MiB', async () => {
    const { fail } = open({ 'huge.txt': 'a'.repeat(10 * 1024 * 1024 + 1) });
    expect((await fail('text_file_read', { path: 'huge.txt' })).code).toBe('TOO_LARGE');
  });

  it('read audit: an existing file changes only after a full read with no limit, and only if unchanged since', async () => {
    const { ok, fail, text, fs } = open({ 'artifacts/run1/r.md': 'a\nb\n' });
    const edit = patch('*** Update File: artifacts/run1/r.md', '@@', '-a', '+A');
    expect((await fail('apply_patch', { patch: edit })).code).toBe('NOT_READ');
    await ok('text_file_read', { path: 'artifacts/run1/r.md', offset: 1, limit: 2 });
    expect((await fail('apply_patch', { patch: edit })).code).toBe('NOT_READ'); // a paged read reaching the end grants nothing
    await ok('text_file_read', { path: 'artifacts/run1/r.md', offset: 1 });
    await fs.writeFile('/artifacts/run1/r.md', new TextEncoder().encode('a\nb\nc\n'));
    expect((await fail('apply_patch', { patch: edit })).code).toBe('STALE_FILE');
    await ok('text_file_read', { path: 'artifacts/run1/r.md' });
    expect((await ok('apply_patch', { patch: edit })).files[0]).toMatchObject({
      path: 'artifacts/run1/r.md',
      action: 'update',
    });
    expect(await text('artifacts/run1/r.md')).toBe('A\nb\nc\n');
  });

  it('approval: new files and edits in the artifact folder need none; changes elsewhere go to confirm first', async () => {
    const { ok, fail, text, fs, asked } = open({ 'src/a.ts': 'x\n' }, (paths) => !paths.includes('src/deny.ts'));
    await ok('apply_patch', { patch: patch('*** Add File: artifacts/run1/new.md', '+hi') });
    expect(asked).toEqual([]);
    await ok('apply_patch', { patch: patch('*** Add File: src/b.ts', '+b') });
    expect(asked).toEqual([[['src/b.ts'], 'overwrite']]);
    expect(await text('src/b.ts')).toBe('b\n');
    expect((await fail('apply_patch', { patch: patch('*** Add File: src/deny.ts', '+no') })).code).toBe(
      'CONFIRMATION_DENIED',
    );
    await expect(fs.readFile('/src/deny.ts')).rejects.toThrow();
    await ok('rename_path', { from: 'artifacts/run1/new.md', to: 'artifacts/run1/renamed.md' });
    expect(asked.length).toBe(2);
    await ok('rename_path', { from: 'src/b.ts', to: 'src/c.ts' });
    expect(asked[2]).toEqual([['src/b.ts', 'src/c.ts'], 'move']);
  });

  it('a rejected delete in a patch leaves the whole patch unapplied; delete_path asks for confirmation', async () => {
    const { ok, fail, text, fs } = open(
      { 'artifacts/run1/gone.txt': 'g\n', 'artifacts/run1/keep.txt': 'k\n' },
      (_p, action) => action !== 'delete',
    );
    const p = patch('*** Add File: artifacts/run1/added.txt', '+a', '*** Delete File: artifacts/run1/gone.txt');
    expect((await fail('apply_patch', { patch: p })).code).toBe('CONFIRMATION_DENIED');
    await expect(fs.readFile('/artifacts/run1/added.txt')).rejects.toThrow();
    expect(await text('artifacts/run1/gone.txt')).toBe('g\n');
    expect((await fail('delete_path', { path: 'artifacts/run1/keep.txt' })).code).toBe('CONFIRMATION_DENIED');
    const open2 = open({ 'x.txt': 'x' }, () => true);
    expect((await open2.ok('delete_path', { path: 'x.txt' })).deleted).toBe(true);
    void ok;
  });

  it('glob finds paths and grep finds lines, neither granting the write audit', async () => {
    const { ok, fail } = open({ 'artifacts/run1/n.md': 'TODO one\n', 'src/m.ts': 'x\n' });
    expect((await ok('glob', { pattern: '*.md' })).matches).toEqual(['artifacts/run1/n.md']);
    expect((await ok('grep', { pattern: 'TODO' })).matches[0]).toMatchObject({ path: 'artifacts/run1/n.md', line: 1 });
    expect(
      (
        await fail('apply_patch', {
          patch: patch('*** Update File: artifacts/run1/n.md', '@@', '-TODO one', '+DONE one'),
        })
      ).code,
    ).toBe('NOT_READ');
  });

  it('a patch over more than 100 files is refused whole', async () => {
    const { fail, fs } = open({}, () => true);
    const body = Array.from({ length: 101 }, (_, i) => [`*** Add File: artifacts/run1/f${i}.txt`, '+x']).flat();
    expect((await fail('apply_patch', { patch: patch(...body) })).code).toBe('TOO_LARGE');
    await expect(fs.readFile('/artifacts/run1/f0.txt')).rejects.toThrow();
  });
});
