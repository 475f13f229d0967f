/** One line of an edit script: kept, removed from a, or added from b. */
export type Edit = { op: ' ' | '-' | '+'; line: string; a: number; b: number };

/**
 * A shortest edit script between two line arrays (Myers' O(ND) algorithm, after the common head
 * and tail are cut off), with each run of changes slid as far down as it goes, as git places them.
 */
export function editScript(a: string[], b: string[]): Edit[] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const am = a.slice(head, a.length - tail);
  const bm = b.slice(head, b.length - tail);
  const middle = myers(am, bm);
  const out: Edit[] = [];
  for (let i = 0; i < head; i++) out.push({ op: ' ', line: a[i]!, a: i, b: i });
  for (const e of middle) out.push({ ...e, a: e.a + head, b: e.b + head });
  for (let i = tail; i > 0; i--) out.push({ op: ' ', line: a[a.length - i]!, a: a.length - i, b: b.length - i });
  return slideDown(out);
}

function myers(a: string[], b: string[]): Edit[] {
  const n = a.length;
  const m = b.length;
  const max = n + m;
  const v = new Int32Array(2 * max + 2);
  const trace: Int32Array[] = [];
  outer: for (let d = 0; d <= max; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[max + k - 1]! < v[max + k + 1]!) ? v[max + k + 1]! : v[max + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[max + k] = x;
      if (x >= n && y >= m) break outer;
    }
  }
  const edits: Edit[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d >= 0; d--) {
    const vd = trace[d]!;
    const k = x - y;
    const down = k === -d || (k !== d && vd[max + k - 1]! < vd[max + k + 1]!);
    const pk = down ? k + 1 : k - 1;
    const px = d === 0 ? 0 : vd[max + pk]!;
    const py = px - pk;
    while (x > px && y > py) {
      x--;
      y--;
      edits.push({ op: ' ', line: a[x]!, a: x, b: y });
    }
    if (d === 0) break;
    if (down) {
      y--;
      edits.push({ op: '+', line: b[y]!, a: x, b: y });
    } else {
      x--;
      edits.push({ op: '-', line: a[x]!, a: x, b: y });
    }
  }
  return edits.reverse();
}

/** Move each run of only-removed or only-added lines down while the line after it equals its first. */
function slideDown(edits: Edit[]): Edit[] {
  for (let i = 0; i < edits.length; i++) {
    const op = edits[i]!.op;
    if (op === ' ' || (i > 0 && edits[i - 1]!.op === op)) continue;
    let end = i;
    while (end < edits.length && edits[end]!.op === op) end++;
    const pure = (i === 0 || edits[i - 1]!.op === ' ') && (end === edits.length || edits[end]!.op === ' ');
    if (!pure) continue;
    let start = i;
    while (end < edits.length && edits[end]!.op === ' ' && edits[end]!.line === edits[start]!.line) {
      const kept = edits[end]!;
      const moved = edits[start]!;
      edits[start] = { op: ' ', line: moved.line, a: moved.a, b: moved.b };
      edits[end] = { op, line: kept.line, a: kept.a, b: kept.b };
      start++;
      end++;
    }
    i = end - 1;
  }
  return renumber(edits);
}

function renumber(edits: Edit[]): Edit[] {
  let a = 0;
  let b = 0;
  return edits.map((e) => {
    const out = { ...e, a, b };
    if (e.op !== '+') a++;
    if (e.op !== '-') b++;
    return out;
  });
}

/** A text's lines, each without its "\n", and whether the last one lacked it. */
export function splitText(text: string): { lines: string[]; noEol: boolean } {
  if (text === '') return { lines: [], noEol: false };
  const lines = text.split('\n');
  const noEol = lines[lines.length - 1] !== '';
  if (!noEol) lines.pop();
  return { lines, noEol };
}

const FUNC = /^[A-Za-z_$]/;

/** The unified diff hunks between two texts (git's `@@ -a,b +c,d @@ func` form), with `context` lines around changes. */
export function hunks(
  before: string,
  after: string,
  context: number,
): { text: string; added: number; removed: number } {
  const a = splitText(before);
  const b = splitText(after);
  // the last line differs when only its newline does: mark it so the two compare unequal
  const al = a.noEol && a.lines.length ? [...a.lines.slice(0, -1), `${a.lines[a.lines.length - 1]}\u0000`] : a.lines;
  const bl = b.noEol && b.lines.length ? [...b.lines.slice(0, -1), `${b.lines[b.lines.length - 1]}\u0000`] : b.lines;
  const edits = editScript(al, bl);
  let text = '';
  let added = 0;
  let removed = 0;
  const changed = edits.map((e, i) => (e.op === ' ' ? -1 : i)).filter((i) => i >= 0);
  let i = 0;
  while (i < changed.length) {
    let j = i + 1;
    while (j < changed.length && changed[j]! - changed[j - 1]! - 1 <= 2 * context) j++;
    const start = Math.max(0, changed[i]! - context);
    const end = Math.min(edits.length, changed[j - 1]! + context + 1);
    const part = edits.slice(start, end);
    const first = part[0]!;
    const oldCount = part.filter((e) => e.op !== '+').length;
    const newCount = part.filter((e) => e.op !== '-').length;
    const oldStart = oldCount === 0 ? first.a : first.a + 1;
    const newStart = newCount === 0 ? first.b : first.b + 1;
    const range = (s: number, c: number) => (c === 1 ? `${s}` : `${s},${c}`);
    let func = '';
    for (let k = first.a - 1; k >= 0; k--) {
      if (FUNC.test(a.lines[k]!)) {
        func = ` ${a.lines[k]!.slice(0, 80).replace(/\s+$/, '')}`;
        break;
      }
    }
    text += `@@ -${range(oldStart, oldCount)} +${range(newStart, newCount)} @@${func}\n`;
    for (const e of part) {
      const noEol = e.line.endsWith('\u0000');
      text += `${e.op}${noEol ? e.line.slice(0, -1) : e.line}\n`;
      if (noEol) text += '\\ No newline at end of file\n';
      if (e.op === '+') added++;
      if (e.op === '-') removed++;
    }
    i = j;
  }
  return { text, added, removed };
}

/** Lines added and removed, for `--stat` and `--numstat`. */
export function countChanges(before: string, after: string): { added: number; removed: number } {
  const { added, removed } = hunks(before, after, 0);
  return { added, removed };
}
