import { describe, expect, it } from 'vitest';
import { createMemoryFs, createWorkspace } from '../../src/index.js';
import { toolset, type ToolsetName } from '../../src/toolsets/index.js';

type Row = Record<string, any>;

/** CRLF, a lone CR, LF and CRLF again: four lines, as read_file counts them. */
const MIXED = 'one\r\ntwo\rthree\nfour\r\n';
const WORDS = ['one', 'two', 'three', 'four'];
const BOM = [0xef, 0xbb, 0xbf];
const UTF16LE_BOM = [0xff, 0xfe];

function utf16le(text: string): Uint8Array {
  const out = new Uint8Array(UTF16LE_BOM.length + text.length * 2);
  out.set(UTF16LE_BOM);
  for (let i = 0; i < text.length; i++) out[UTF16LE_BOM.length + 2 * i] = text.charCodeAt(i);
  return out;
}

const FILES: Record<string, string | Uint8Array> = {
  'p/mixed.txt': MIXED,
  'p/bom.txt': new Uint8Array([...BOM, ...new TextEncoder().encode(MIXED)]),
  'p/wide.txt': utf16le(MIXED),
};

/** Each toolset that searches: its search call and its read of one line, in its own arguments. */
interface Surface {
  search(pattern: string, file: string, extra: Row): [string, Row];
  readLine(file: string, line: number): [string, Row];
  /** the one line the read returned, without numbering or line end */
  lineOf(result: Row): string;
}

const SURFACES: Partial<Record<ToolsetName, Surface>> = {
  canonical: {
    search: (pattern, file, extra) => ['search_files', { pattern, path: file, ...extra }],
    readLine: (file, line) => ['read_file', { path: file, start_line: line, end_line: line }],
    lineOf: (r) => r.content.replace(/\n$/, ''),
  },
  fs_process: {
    search: (pattern, file, extra) => ['search_files', { path: 'p', pattern, include: [file.slice(2)], ...extra }],
    readLine: (file, line) => ['read_file', { path: 'p', file: file.slice(2), start_line: line, end_line: line }],
    lineOf: (r) => r.content.replace(/^ *\d+\t/, '').replace(/\n$/, ''),
  },
  cowork: {
    search: (pattern, file, extra) => ['grep', { pattern, path: file, ...extra }],
    readLine: (file, line) => ['text_file_read', { path: file, offset: line, limit: 1 }],
    lineOf: (r) => r.content.replace(/\n$/, ''),
  },
};

/** The byte search (case-sensitive literal) and both decoded ones (regex, case-insensitive literal). */
const MODES: Array<[string, (word: string) => [string, Row]]> = [
  ['literal', (w) => [w, {}]],
  ['regex', (w) => [`^${w}$`, { is_regex: true }]],
  ['case-insensitive', (w) => [w.toUpperCase(), { case_sensitive: false }]],
];

async function ok(ws: ReturnType<typeof createWorkspace>, [tool, args]: [string, Row]): Promise<Row> {
  const envelope = await ws.call(tool, args);
  if (!envelope.ok) throw new Error(`${tool} ${JSON.stringify(args)}: ${JSON.stringify(envelope.error)}`);
  return envelope.result as Row;
}

describe('search line numbers agree with read windows when a lone CR ends a line', () => {
  for (const [name, surface] of Object.entries(SURFACES) as Array<[ToolsetName, Surface]>) {
    it(`${name}: every line found is the line its read window shows`, async () => {
      const set = toolset(name);
      const ws = createWorkspace({ fs: createMemoryFs(FILES), tools: set.tools });
      const takes = (tool: string, arg: string) =>
        Boolean(set.tools.find((t) => t.name === tool)?.schema.properties?.[arg]);
      const modes = new Set<string>();
      for (const file of Object.keys(FILES)) {
        for (const [mode, query] of MODES) {
          const searchTool = surface.search('', file, {})[0];
          if (Object.keys(query('')[1]).some((arg) => !takes(searchTool, arg))) continue; // fs_process has no case_sensitive
          for (const [index, word] of WORDS.entries()) {
            const [p, e] = query(word);
            const found = await ok(ws, surface.search(p, file, e));
            const where = `${name} ${mode} ${file} '${word}'`;
            expect(
              found.matches.map((m: Row) => [m.line, m.content]),
              where,
            ).toEqual([[index + 1, word]]);
            expect(surface.lineOf(await ok(ws, surface.readLine(file, found.matches[0].line))), where).toBe(word);
          }
          modes.add(mode);
        }
      }
      expect([...modes]).toEqual(name === 'fs_process' ? ['literal', 'regex'] : MODES.map(([mode]) => mode));
      await ws.close();
    });
  }

  it('context lines and the cursor count lone CR lines too (canonical, byte and decoded scans)', async () => {
    const ws = createWorkspace({ fs: createMemoryFs(FILES), tools: toolset('canonical').tools });
    for (const extra of [{}, { is_regex: true }]) {
      const around = await ok(ws, [
        'search_files',
        { pattern: 'three', path: 'p/mixed.txt', context_lines: 1, ...extra },
      ]);
      expect(around.matches).toEqual([
        expect.objectContaining({ line: 3, content: 'three', before: ['two'], after: ['four'] }),
      ]);
      // 'o' is on lines 1, 2 and 4: a page of one, then the rest through the cursor
      const first = await ok(ws, ['search_files', { pattern: 'o', path: 'p/mixed.txt', max_matches: 1, ...extra }]);
      expect(first.matches.map((m: Row) => m.line)).toEqual([1]);
      const rest = await ok(ws, [
        'search_files',
        { pattern: 'o', path: 'p/mixed.txt', cursor: first.next_cursor, ...extra },
      ]);
      expect(rest.matches.map((m: Row) => m.line)).toEqual([2, 4]);
    }
    await ws.close();
  });
});
