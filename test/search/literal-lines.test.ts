import { linkSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMemoryFs, createWorkspace } from '../../src/index.js';
import { createNodeFs } from '../../src/fs/node.js';
import { readHelperCount } from '../../src/fs/node-direct.js';
import { LINES_BINARY, LINES_NOT_HERE, LINES_NOT_UTF8, literalLines } from '../../src/fs/literal-lines.js';
import { prepareBytes, typedFind } from '../../src/search/bytes.js';

const enc = (s: string) => new TextEncoder().encode(s);

// A byte search's lines are found where each file is read (on the node backend's read helper
// thread), and the page only decodes them. Whatever a file holds, a search must answer as if the
// page had scanned it: against the memory backend, which finds nothing as it reads.

/** The lines holding `needle`, found by splitting decoded text (`\n` and `\r\n` end lines). */
function naiveLines(text: string, needle: string): Array<{ line: number; column: number; content: string }> {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  return body.split('\n').flatMap((raw, i) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const at = line.indexOf(needle);
    return at === -1 ? [] : [{ line: i + 1, column: [...line.slice(0, at)].length + 1, content: line }];
  });
}

describe('literalLines', () => {
  const search = literalLines(typedFind, undefined);

  it('finds the same lines as splitting the text, on random text over a small alphabet', () => {
    let seed = 5;
    const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    const alphabet = ['a', 'b', 'ab', '\n', '\r\n', 'é', '😀', ' '];
    for (let round = 0; round < 300; round++) {
      const text =
        (rnd() < 0.2 ? '\uFEFF' : '') +
        Array.from({ length: Math.floor(rnd() * 400) }, () => alphabet[Math.floor(rnd() * alphabet.length)]).join('');
      const needle = rnd() < 0.5 ? 'ab' : 'ba';
      const bytes = enc(text);
      const into: number[] = [];
      const n = search.lines(bytes, prepareBytes(enc(needle)), 0, Number.MAX_SAFE_INTEGER, into);
      const expected = naiveLines(text, needle);
      expect(n, text).toBe(expected.length);
      const found = [];
      for (let k = 0; k < into.length; k += 4) {
        const [line, start, end] = [into[k]!, into[k + 1]!, into[k + 2]!];
        const content = new TextDecoder().decode(bytes.subarray(start, end)).replace(/\r$/, '');
        found.push({ line, content });
      }
      expect(found).toEqual(expected.map(({ line, content }) => ({ line, content })));
    }
  });

  it('skips lines up to afterLine and stops at the most asked for', () => {
    const bytes = enc('x\nneedle 2\nx\nneedle 4\nneedle 5\nneedle 6\n');
    const into: number[] = [];
    expect(search.lines(bytes, prepareBytes(enc('needle')), 2, 2, into)).toBe(2);
    expect([into[0], into[4]]).toEqual([4, 5]);
  });

  it('leaves to the reader what it cannot number, and says binary or not UTF-8 only where the literal is', () => {
    const literal = prepareBytes(enc('needle'));
    const lines = (bytes: Uint8Array) => search.lines(bytes, literal, 0, 100, []);
    expect(lines(Uint8Array.from([0xff, 0xfe, ...enc('n\0e\0')]))).toBe(LINES_NOT_HERE);
    expect(lines(enc('one\rneedle\n'))).toBe(LINES_NOT_HERE);
    expect(lines(enc('needle\0'))).toBe(LINES_BINARY);
    expect(lines(enc('no literal\0'))).toBe(0);
    expect(lines(Uint8Array.from([...enc('needle '), 0xc3, 0x28]))).toBe(LINES_NOT_UTF8);
  });
});

describe('search_files with lines found where the files are read', () => {
  const base = mkdtempSync(join(tmpdir(), 'sandpit-literal-lines-'));
  afterAll(() => rmSync(base, { recursive: true, force: true }));
  const files: Record<string, Uint8Array | string> = {
    'bom.txt': '\uFEFFneedle at the start\nand needle again\n',
    'crlf.txt': 'one\r\nthe needle\r\nthree needle\r\n',
    'lone-cr.txt': 'one\rtwo needle\rthree\n',
    'utf16.txt': Uint8Array.from([0xff, 0xfe, ...[...'a needle\n'].flatMap((c) => [c.charCodeAt(0), 0])]),
    'binary.bin': Uint8Array.from([...enc('a needle'), 0, 1, 2]),
    'binary-without.bin': Uint8Array.from([0, 1, 2, 3]),
    'latin1.txt': Uint8Array.from([...enc('needle '), 0xe9, 10]),
    'wide.txt': `${'é😀'.repeat(400)} needle ${'x'.repeat(3000)}\n`,
    'many.txt': Array.from({ length: 1500 }, (_, i) => `line ${i} needle`).join('\n'),
    'edge.txt': 'needle',
    'empty.txt': '',
  };
  // enough files for the node backend to start its read helper (its first 256 files are read in place)
  for (let i = 0; i < 400; i++)
    files[`filler/f${String(i).padStart(3, '0')}.txt`] = i % 3 === 0 ? `x\nneedle ${i}\ny needle\n` : `nothing ${i}\n`;
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(base, path, '..'), { recursive: true });
    writeFileSync(join(base, path), content);
  }

  const search = async (ws: ReturnType<typeof createWorkspace>, args: Record<string, unknown>) => {
    const env = await ws.call<{ matches: unknown[]; skipped?: unknown[] }>('search_files', {
      pattern: 'needle',
      ...args,
    });
    if (!env.ok) throw new Error(JSON.stringify(env.error));
    return env.result;
  };

  it('answers as the memory backend does, on its root and not, in one page and in pages', async () => {
    const memory = createWorkspace({ fs: createMemoryFs(files), root: '/' });
    const plain = createWorkspace({ fs: createNodeFs(), root: base });
    const rooted = createWorkspace({ fs: createNodeFs({ root: base }), root: base });
    for (const args of [{ max_matches: 100_000 }, { max_matches: 100_000, context_lines: 1 }]) {
      const expected = await search(memory, args);
      expect(expected.matches.length).toBeGreaterThan(1700);
      expect(await search(plain, args)).toEqual(expected);
      expect(await search(rooted, args)).toEqual(expected);
    }
    const expected = await pages(memory);
    expect(expected.length).toBeGreaterThan(1700);
    expect(await pages(plain)).toEqual(expected);
    expect(await pages(rooted)).toEqual(expected);
    expect(readHelperCount()).toBeGreaterThan(0);
  });

  /** Every page of 300 matches, through the cursors. */
  async function pages(ws: ReturnType<typeof createWorkspace>): Promise<unknown[]> {
    const all: unknown[] = [];
    let cursor: string | null = null;
    do {
      const page = (await search(ws, { max_matches: 300, ...(cursor ? { cursor } : {}) })) as {
        matches: unknown[];
        next_cursor: string | null;
      };
      all.push(...page.matches);
      cursor = page.next_cursor;
    } while (cursor);
    return all;
  }

  it('still reports a hard-linked file without the literal as skipped', async () => {
    const linked = mkdtempSync(join(tmpdir(), 'sandpit-literal-linked-'));
    try {
      writeFileSync(join(linked, 'a.txt'), 'nothing here\n');
      linkSync(join(linked, 'a.txt'), join(linked, 'b.txt'));
      writeFileSync(join(linked, 'c.txt'), 'a needle\n');
      const ws = createWorkspace({ fs: createNodeFs({ root: linked }), root: linked });
      const result = (await search(ws, {})) as { matches: Array<{ path: string }>; skipped?: Array<{ path: string }> };
      expect(result.matches.map((m) => m.path)).toEqual(['c.txt']);
      expect(result.skipped?.map((s) => s.path)).toEqual(['a.txt', 'b.txt']);
    } finally {
      rmSync(linked, { recursive: true, force: true });
    }
  });
});
