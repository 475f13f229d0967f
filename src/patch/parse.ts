import { ToolError } from '../contract/index.js';

/** One line of a chunk: kept context, a removed line or an added line. */
export interface ChunkLine {
  kind: ' ' | '-' | '+';
  text: string;
}

/** An `@@` chunk of an update: where it goes and what it changes. */
export interface PatchChunk {
  /** the texts of its `@@ ...` lines, outermost first; each narrows the place further */
  headers: string[];
  lines: ChunkLine[];
  /** followed by `*** End of File`: the chunk sits at the end of the file */
  eof: boolean;
  /** 1-based line of the patch where the chunk starts */
  patchLine: number;
}

export type PatchOp =
  | { kind: 'add'; path: string; lines: string[]; patchLine: number }
  | { kind: 'delete'; path: string; patchLine: number }
  | { kind: 'update'; path: string; moveTo: string | null; chunks: PatchChunk[]; patchLine: number };

export const BEGIN = '*** Begin Patch';
export const END = '*** End Patch';
const ADD = '*** Add File:';
const DELETE = '*** Delete File:';
const UPDATE = '*** Update File:';
const MOVE = '*** Move to:';
const EOF_MARK = '*** End of File';
const FILE_HEADERS = [ADD, DELETE, UPDATE, MOVE];

export const VALID_HEADERS =
  "'*** Add File: <path>' (then lines starting with '+'), '*** Delete File: <path>', " +
  "'*** Update File: <path>' (optionally '*** Move to: <path>', then '@@' chunks of ' ', '-' and '+' lines, " +
  "optionally ending with '*** End of File'); the patch starts with '*** Begin Patch' and ends with '*** End Patch'";

interface Line {
  text: string;
  /** 1-based line number in the text the caller sent */
  no: number;
}

function parseError(no: number, message: string): ToolError {
  return new ToolError('PATCH_PARSE_ERROR', `patch line ${no}: ${message}`, {
    hint: `Valid headers: ${VALID_HEADERS}.`,
    details: { patch_line: no },
  });
}

const shown = (text: string) => `'${text.length > 80 ? `${text.slice(0, 80)}...` : text}'`;

/**
 * Parse a `*** Begin Patch` patch into its file operations. Lenient where agents are sloppy:
 * CRLF or lone CR line ends, a heredoc or code-fence wrapper, blank lines and whitespace around markers, a missing
 * final newline, unified-diff line numbers after `@@`, and empty lines meant as empty context.
 */
export function parsePatch(patch: string): PatchOp[] {
  const lines = unwrap(
    (patch.includes('\r') ? patch.replace(/\r\n?/g, '\n') : patch).split('\n').map((text, i) => ({ text, no: i + 1 })),
  );
  const first = lines[0];
  if (!first || first.text.trim() !== BEGIN) {
    throw parseError(
      first?.no ?? 1,
      `the patch must start with '${BEGIN}'${first ? `, not ${shown(first.text.trim())}` : ' (it is empty)'}`,
    );
  }
  const last = lines[lines.length - 1]!;
  if (lines.length < 2 || last.text.trim() !== END) {
    throw parseError(last.no, `the patch must end with '${END}' (is it cut short?)`);
  }
  const body = lines.slice(1, -1);
  const ops: PatchOp[] = [];
  let i = 0;
  while (i < body.length) {
    const line = body[i]!;
    const t = line.text.trim();
    if (t === '') {
      i++;
      continue;
    }
    if (t.startsWith(ADD)) {
      const path = pathOf(line, ADD);
      const added: string[] = [];
      i++;
      while (i < body.length) {
        const text = body[i]!.text;
        if (text.startsWith('+')) added.push(text.slice(1));
        else if (text === '' && nextNonEmpty(body, i)?.text.startsWith('+')) added.push('');
        else break;
        i++;
      }
      const next = body[i];
      if (next && next.text.trim() !== '' && !next.text.trim().startsWith('***')) {
        throw parseError(
          next.no,
          `${shown(next.text)} is in the added file '${path}', where every line starts with '+'`,
        );
      }
      ops.push({ kind: 'add', path, lines: added, patchLine: line.no });
    } else if (t.startsWith(DELETE)) {
      ops.push({ kind: 'delete', path: pathOf(line, DELETE), patchLine: line.no });
      i++;
    } else if (t.startsWith(UPDATE)) {
      const path = pathOf(line, UPDATE);
      i++;
      let moveTo: string | null = null;
      if (body[i]?.text.trim().startsWith(MOVE)) moveTo = pathOf(body[i++]!, MOVE);
      const parsed = parseChunks(body, i, path);
      i = parsed.next;
      if (parsed.chunks.length === 0 && moveTo === null) {
        throw parseError(line.no, `the update of '${path}' has no chunks: add '@@' followed by ' ', '-' and '+' lines`);
      }
      ops.push({ kind: 'update', path, moveTo, chunks: parsed.chunks, patchLine: line.no });
    } else if (t.startsWith(MOVE)) {
      throw parseError(line.no, `'${MOVE}' must come right after an '${UPDATE} <path>' line`);
    } else if (t === EOF_MARK) {
      throw parseError(line.no, `'${EOF_MARK}' must end a chunk of an '${UPDATE} <path>' section`);
    } else {
      throw parseError(line.no, `${shown(line.text)} is not a valid file header`);
    }
  }
  if (ops.length === 0) throw parseError(last.no, 'the patch holds no file operations');
  return ops;
}

/** Chunks of an update section, from `start` to the next column-0 `***` header. */
function parseChunks(body: Line[], start: number, path: string): { chunks: PatchChunk[]; next: number } {
  const chunks: PatchChunk[] = [];
  let current: PatchChunk | null = null;
  let i = start;
  const close = () => {
    if (current && current.lines.length === 0) {
      throw parseError(current.patchLine, `a chunk of '${path}' has no lines after its '@@' line`);
    }
  };
  for (; i < body.length; i++) {
    const { text, no } = body[i]!;
    const t = text.trim();
    // Headers end a chunk even when indented; so a context line cannot itself be a patch header.
    const header = FILE_HEADERS.some((m) => t.startsWith(m)) || t === EOF_MARK;
    if (header || text.startsWith('***') || ((current === null || current.eof) && t.startsWith('***'))) {
      if (t !== EOF_MARK) break;
      if (!current || current.lines.length === 0) throw parseError(no, `'${EOF_MARK}' must follow a chunk's lines`);
      current.eof = true;
      continue;
    }
    if (text.trimEnd().startsWith('@@')) {
      const context = headerText(text.trimEnd());
      if (current && current.lines.length === 0) {
        if (context) current.headers.push(context);
        continue;
      }
      close();
      current = { headers: context ? [context] : [], lines: [], eof: false, patchLine: no };
      chunks.push(current);
      continue;
    }
    const kind = text[0];
    if (kind === ' ' || kind === '-' || kind === '+' || text === '') {
      if (text === '' && restIsBlank(body, i)) continue;
      if (current?.eof) throw parseError(no, `after '${EOF_MARK}' a new chunk must start with '@@'`);
      if (!current) {
        if (chunks.length > 0) throw parseError(no, `a new chunk must start with '@@'`);
        current = { headers: [], lines: [], eof: false, patchLine: no };
        chunks.push(current);
      }
      current.lines.push({ kind: text === '' ? ' ' : (kind as ChunkLine['kind']), text: text.slice(1) });
      continue;
    }
    throw parseError(
      no,
      `${shown(text)} in the update of '${path}' is not a chunk line: each starts with ' ' (context), '-' (remove) or '+' (add), and a chunk starts with '@@'`,
    );
  }
  close();
  return { chunks, next: i };
}

/** The context text of an `@@` line; unified-diff ranges (`@@ -3,4 +3,5 @@ name`) are dropped. */
function headerText(line: string): string {
  const rest = line.trimStart().slice(2).replace(/^ /, '');
  const ranged = /^\s*-\d+(?:,\d+)?\s+\+\d+(?:,\d+)?\s*@@ ?(.*)$/.exec(rest);
  const text = ranged ? ranged[1]! : rest;
  return text.trim() === '' ? '' : text;
}

function pathOf(line: Line, marker: string): string {
  const path = line.text.trim().slice(marker.length).trim();
  if (path === '') throw parseError(line.no, `'${marker}' needs a path after it`);
  return path;
}

function nextNonEmpty(body: Line[], i: number): Line | undefined {
  for (let j = i + 1; j < body.length; j++) if (body[j]!.text.trim() !== '') return body[j];
  return undefined;
}

/** Empty lines up to the next header or chunk: separators, not empty context. */
function restIsBlank(body: Line[], i: number): boolean {
  for (let j = i; j < body.length; j++) {
    const text = body[j]!.text;
    if (text.startsWith('***') || text.startsWith('@@')) return true;
    if (text !== '') return false;
  }
  return true;
}

/** Drop blank edges, a code fence and a heredoc wrapper (`apply_patch <<'EOF'` ... `EOF`). */
function unwrap(lines: Line[]): Line[] {
  let out = trimBlank(lines);
  for (let pass = 0; pass < 2 && out.length >= 2; pass++) {
    const head = out[0]!.text.trim();
    const tail = out[out.length - 1]!.text.trim();
    const heredoc = /<<-?\s*(['"]?)([A-Za-z_][A-Za-z0-9_]*)\1(?:\s|$)/.exec(head);
    if (heredoc && tail === heredoc[2]) out = trimBlank(out.slice(1, -1));
    else if (head.startsWith('```') && tail === '```') out = trimBlank(out.slice(1, -1));
    else break;
  }
  return out;
}

function trimBlank(lines: Line[]): Line[] {
  let a = 0;
  let b = lines.length;
  while (a < b && lines[a]!.text.trim() === '') a++;
  while (b > a && lines[b - 1]!.text.trim() === '') b--;
  return lines.slice(a, b);
}
