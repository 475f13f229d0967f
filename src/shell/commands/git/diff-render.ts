import { countChanges, hunks } from './unified.js';

/** One side of a changed file: where it is, its blob id and mode, and a way to read its bytes. */
export interface Side {
  path: string;
  oid: string;
  mode: string;
  load(): Promise<Uint8Array>;
}

/** A changed file: `from` absent for an added one, `to` absent for a removed one. */
export interface FilePair {
  from?: Side;
  to?: Side;
}

export interface RenderOptions {
  context: number;
  /** how a path is shown (relative to the shell's folder for some commands) */
  show?: (path: string) => string;
}

const ZERO = '0000000';
const decoder = new TextDecoder();
const isBinary = (data: Uint8Array) => data.subarray(0, 8000).includes(0);

/** Pair removed and added files with the same content as renames, as git's default rename detection does for exact copies. */
export function findRenames(pairs: FilePair[]): FilePair[] {
  const added = new Map<string, FilePair>();
  for (const p of pairs) if (!p.from && p.to && !added.has(p.to.oid)) added.set(p.to.oid, p);
  const used = new Set<FilePair>();
  const out: FilePair[] = [];
  for (const p of pairs) {
    if (p.from && !p.to) {
      const match = added.get(p.from.oid);
      if (match && !used.has(match)) {
        used.add(match);
        out.push({ from: p.from, to: match.to! });
        continue;
      }
    }
    out.push(p);
  }
  return out
    .filter((p) => !used.has(p))
    .sort((x, y) => {
      const a = (x.to ?? x.from)!.path;
      const b = (y.to ?? y.from)!.path;
      return a < b ? -1 : a > b ? 1 : 0;
    });
}

const isRename = (p: FilePair) => p.from && p.to && p.from.path !== p.to.path;

/** `git diff`'s patch text for the pairs. */
export async function renderPatch(pairs: FilePair[], options: RenderOptions): Promise<string> {
  let out = '';
  for (const p of pairs) {
    const aPath = (p.from ?? p.to)!.path;
    const bPath = (p.to ?? p.from)!.path;
    out += `diff --git a/${aPath} b/${bPath}\n`;
    if (!p.from) out += `new file mode ${p.to!.mode}\n`;
    else if (!p.to) out += `deleted file mode ${p.from.mode}\n`;
    else if (p.from.mode !== p.to.mode) out += `old mode ${p.from.mode}\nnew mode ${p.to.mode}\n`;
    if (isRename(p)) {
      out += `similarity index 100%\nrename from ${aPath}\nrename to ${bPath}\n`;
      if (p.from!.oid === p.to!.oid && p.from!.mode === p.to!.mode) continue;
    }
    const modeTail = p.from && p.to && p.from.mode === p.to.mode ? ` ${p.from.mode}` : '';
    out += `index ${p.from ? p.from.oid.slice(0, 7) : ZERO}..${p.to ? p.to.oid.slice(0, 7) : ZERO}${modeTail}\n`;
    const before = p.from ? await p.from.load() : new Uint8Array();
    const after = p.to ? await p.to.load() : new Uint8Array();
    if (isBinary(before) || isBinary(after)) {
      out += `Binary files ${p.from ? `a/${aPath}` : '/dev/null'} and ${p.to ? `b/${bPath}` : '/dev/null'} differ\n`;
      continue;
    }
    if (before.length === 0 && after.length === 0) continue;
    out += `--- ${p.from ? `a/${aPath}` : '/dev/null'}\n+++ ${p.to ? `b/${bPath}` : '/dev/null'}\n`;
    out += hunks(decoder.decode(before), decoder.decode(after), options.context).text;
  }
  return out;
}

/** `--name-only` and `--name-status` lines. */
export function renderNames(pairs: FilePair[], status: boolean, show = (p: string) => p): string {
  let out = '';
  for (const p of pairs) {
    const path = (p.to ?? p.from)!.path;
    if (!status) out += `${show(path)}\n`;
    else if (isRename(p)) out += `R100\t${show(p.from!.path)}\t${show(path)}\n`;
    else out += `${!p.from ? 'A' : !p.to ? 'D' : 'M'}\t${show(path)}\n`;
  }
  return out;
}

interface StatLine {
  name: string;
  added: number;
  removed: number;
  binary?: string;
}

/** `--stat`'s table and summary line, as git draws it for an 80-column pipe. */
export async function renderStat(pairs: FilePair[], show = (p: string) => p): Promise<string> {
  const lines: StatLine[] = [];
  for (const p of pairs) {
    const name = isRename(p) ? renameName(show(p.from!.path), show(p.to!.path)) : show((p.to ?? p.from)!.path);
    const before = p.from ? await p.from.load() : new Uint8Array();
    const after = p.to ? await p.to.load() : new Uint8Array();
    if (isBinary(before) || isBinary(after)) {
      lines.push({ name, added: 0, removed: 0, binary: `Bin ${before.length} -> ${after.length} bytes` });
      continue;
    }
    lines.push({ name, ...countChanges(decoder.decode(before), decoder.decode(after)) });
  }
  return statTable(lines);
}

function renameName(from: string, to: string): string {
  const a = from.split('/');
  const b = to.split('/');
  let pre = 0;
  while (pre < a.length - 1 && pre < b.length - 1 && a[pre] === b[pre]) pre++;
  let post = 0;
  while (post < a.length - pre - 1 && post < b.length - pre - 1 && a[a.length - 1 - post] === b[b.length - 1 - post])
    post++;
  if (pre === 0 && post === 0) return `${from} => ${to}`;
  const head = a.slice(0, pre).join('/');
  const tail = a.slice(a.length - post).join('/');
  const mid = `{${a.slice(pre, a.length - post).join('/')} => ${b.slice(pre, b.length - post).join('/')}}`;
  return [head, mid, tail].filter(Boolean).join('/');
}

function statTable(lines: StatLine[]): string {
  if (lines.length === 0) return '';
  const width = 80;
  const maxChange = Math.max(...lines.map((l) => l.added + l.removed));
  let numberWidth = String(maxChange).length;
  if (lines.some((l) => l.binary) && numberWidth < 3) numberWidth = 3;
  let nameWidth = Math.max(...lines.map((l) => l.name.length));
  let graphWidth = maxChange;
  const room = width - numberWidth - 6;
  if (nameWidth + graphWidth > room) {
    graphWidth = Math.max(Math.min(graphWidth, Math.floor((room * 3) / 8), 40), 6);
    if (nameWidth > room - graphWidth) nameWidth = room - graphWidth;
    if (graphWidth > room - nameWidth) graphWidth = room - nameWidth;
  }
  const scale = (n: number) =>
    maxChange <= graphWidth || n === 0 ? n : 1 + Math.floor((n * (graphWidth - 1)) / maxChange);
  let out = '';
  let added = 0;
  let removed = 0;
  for (const l of lines) {
    const name = l.name.length > nameWidth ? `...${l.name.slice(l.name.length - nameWidth + 3)}` : l.name;
    if (l.binary) {
      out += ` ${name.padEnd(nameWidth)} | ${l.binary}\n`;
      continue;
    }
    added += l.added;
    removed += l.removed;
    const total = l.added + l.removed;
    let plus = scale(l.added);
    let minus = scale(l.removed);
    if (maxChange > graphWidth && plus + minus > graphWidth) {
      if (plus > minus) plus = graphWidth - minus;
      else minus = graphWidth - plus;
    }
    out += ` ${name.padEnd(nameWidth)} | ${String(total).padStart(numberWidth)}${total ? ' ' : ''}${'+'.repeat(plus)}${'-'.repeat(minus)}\n`;
  }
  return out + summaryLine(lines.length, added, removed);
}

/** ` N files changed, X insertions(+), Y deletions(-)` with git's choice of which parts to show. */
export function summaryLine(files: number, added: number, removed: number): string {
  let out = ` ${files} file${files === 1 ? '' : 's'} changed`;
  if (added > 0 || removed === 0) out += `, ${added} insertion${added === 1 ? '' : 's'}(+)`;
  if (removed > 0 || added === 0) out += `, ${removed} deletion${removed === 1 ? '' : 's'}(-)`;
  return `${out}\n`;
}
