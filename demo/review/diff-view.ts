import { el } from '../page/dom.js';

interface DiffLine {
  kind: 'context' | 'add' | 'del';
  text: string;
  old?: number;
  new?: number;
}

export interface FileDiff {
  from: string;
  to: string;
  hunks: Array<{ header: string; lines: DiffLine[] }>;
  note?: string;
}

const stripPrefix = (name: string) => (name === '/dev/null' ? name : name.replace(/^[ab]\//, '').replace(/\t.*$/, ''));

/** Split a multi-file unified diff (git style or `diff` style) into files and hunks. */
export function parseUnifiedDiff(text: string): FileDiff[] {
  const files: FileDiff[] = [];
  let file: FileDiff | null = null;
  let oldLine = 0;
  let newLine = 0;
  // Lines still owed to the current hunk: a removed line reading "-- x" is body, not a header.
  let owedOld = 0;
  let owedNew = 0;
  for (const line of text.split('\n')) {
    if (file && file.hunks.length > 0 && (owedOld > 0 || owedNew > 0) && /^[ +-]/.test(line)) {
      const hunk = file.hunks[file.hunks.length - 1]!;
      const body = line.slice(1);
      if (line[0] === '+') {
        hunk.lines.push({ kind: 'add', text: body, new: newLine++ });
        owedNew--;
      } else if (line[0] === '-') {
        hunk.lines.push({ kind: 'del', text: body, old: oldLine++ });
        owedOld--;
      } else {
        hunk.lines.push({ kind: 'context', text: body, old: oldLine++, new: newLine++ });
        owedOld--;
        owedNew--;
      }
    } else if (line.startsWith('--- ')) {
      file = { from: stripPrefix(line.slice(4)), to: '', hunks: [] };
      files.push(file);
    } else if (line.startsWith('+++ ') && file && file.to === '') {
      file.to = stripPrefix(line.slice(4));
    } else if (line.startsWith('@@') && file) {
      const match = /@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))?/.exec(line);
      oldLine = Number(match?.[1] ?? 1);
      owedOld = Number(match?.[2] ?? 1);
      newLine = Number(match?.[3] ?? 1);
      owedNew = Number(match?.[4] ?? 1);
      file.hunks.push({ header: line, lines: [] });
    } else if (line.startsWith('Binary or unrecorded file ')) {
      files.push({ from: line.slice(26), to: line.slice(26), hunks: [], note: 'binary or not recorded' });
      file = null;
    }
  }
  return files;
}

function fileTitle(file: FileDiff): HTMLElement {
  const title =
    file.from === '/dev/null'
      ? `${file.to} (new)`
      : file.to === '/dev/null'
        ? `${file.from} (deleted)`
        : file.from !== file.to
          ? `${file.from} → ${file.to}`
          : file.to;
  const adds = file.hunks.reduce((n, h) => n + h.lines.filter((l) => l.kind === 'add').length, 0);
  const dels = file.hunks.reduce((n, h) => n + h.lines.filter((l) => l.kind === 'del').length, 0);
  const head = el('div', undefined, 'diff-file-title');
  head.append(el('span', title, 'diff-path'), el('span', `+${adds}`, 'adds'), el('span', `−${dels}`, 'dels'));
  if (file.note) head.append(el('span', file.note, 'muted'));
  return head;
}

/** Fixed column widths: with table-layout fixed, the hunk header row would otherwise split the width evenly. */
function columns(table: HTMLTableElement, kinds: Array<'ln' | 'code'>): void {
  const group = el('colgroup');
  group.append(...kinds.map((kind) => el('col', undefined, `col-${kind}`)));
  table.append(group);
}

const num = (n: number | undefined) => el('td', n === undefined ? '' : String(n), 'ln');

/** One column of line numbers per side and the text, marked as the diff marks it. */
function unifiedTable(file: FileDiff): HTMLTableElement {
  const table = el('table', undefined, 'diff unified');
  columns(table, ['ln', 'ln', 'code']);
  for (const hunk of file.hunks) {
    const header = el('tr', undefined, 'hunk');
    header.append(el('td', hunk.header, 'hunk-header'));
    (header.firstChild as HTMLTableCellElement).colSpan = 3;
    table.append(header);
    for (const line of hunk.lines) {
      const row = el('tr', undefined, line.kind);
      const sign = line.kind === 'add' ? '+' : line.kind === 'del' ? '-' : ' ';
      row.append(num(line.old), num(line.new), el('td', `${sign} ${line.text}`, 'code'));
      table.append(row);
    }
  }
  return table;
}

/** Old on the left, new on the right; a run of removals sits beside the additions that replace it. */
function splitTable(file: FileDiff): HTMLTableElement {
  const table = el('table', undefined, 'diff split');
  columns(table, ['ln', 'code', 'ln', 'code']);
  for (const hunk of file.hunks) {
    const header = el('tr', undefined, 'hunk');
    header.append(el('td', hunk.header, 'hunk-header'));
    (header.firstChild as HTMLTableCellElement).colSpan = 4;
    table.append(header);
    const lines = hunk.lines;
    for (let i = 0; i < lines.length; ) {
      if (lines[i]!.kind === 'context') {
        const row = el('tr', undefined, 'context');
        row.append(
          num(lines[i]!.old),
          el('td', lines[i]!.text, 'code'),
          num(lines[i]!.new),
          el('td', lines[i]!.text, 'code'),
        );
        table.append(row);
        i++;
        continue;
      }
      const dels: DiffLine[] = [];
      const adds: DiffLine[] = [];
      while (i < lines.length && lines[i]!.kind === 'del') dels.push(lines[i++]!);
      while (i < lines.length && lines[i]!.kind === 'add') adds.push(lines[i++]!);
      for (let k = 0; k < Math.max(dels.length, adds.length); k++) {
        const row = el('tr', undefined, 'change');
        const left = dels[k];
        const right = adds[k];
        row.append(
          num(left?.old),
          el('td', left?.text ?? '', left ? 'code del' : 'code blank'),
          num(right?.new),
          el('td', right?.text ?? '', right ? 'code add' : 'code blank'),
        );
        table.append(row);
      }
    }
  }
  return table;
}

/** Render a unified diff as the reviewer asked: one column, or old and new side by side. */
export function renderDiff(
  host: HTMLElement,
  diff: string,
  mode: 'unified' | 'split',
  /** files left out of the rendering (an install's node_modules, summarised above it instead) */
  hidden: (path: string) => boolean = () => false,
): void {
  const files = parseUnifiedDiff(diff).filter((file) => !hidden(file.to === '/dev/null' ? file.from : file.to));
  if (files.length === 0) {
    host.replaceChildren(el('p', 'No file content changed in this step.', 'empty-hint'));
    return;
  }
  host.replaceChildren(
    ...files.map((file) => {
      const box = el('section', undefined, 'diff-file');
      box.dataset.path = file.to === '/dev/null' ? file.from : file.to;
      box.append(fileTitle(file), mode === 'unified' ? unifiedTable(file) : splitTable(file));
      return box;
    }),
  );
}
