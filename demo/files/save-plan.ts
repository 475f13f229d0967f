/** How the editor saves: the smallest unique edit an agent would send, or a whole write. */
export type SavePlan =
  | { tool: 'edit_file'; old_text: string; new_text: string }
  | { tool: 'write_file'; content: string };

const lineStart = (text: string, at: number) => text.lastIndexOf('\n', at - 1) + 1;
const lineEnd = (text: string, at: number) => {
  const end = text.indexOf('\n', at);
  return end === -1 ? text.length : end + 1;
};

/**
 * Turn "the file was `before`, the editor holds `after`" into an edit_file call when a run of
 * whole lines around the change occurs exactly once in `before` (growing the run a line at a
 * time, as an agent widens its anchor); otherwise into a write_file of the whole text.
 */
export function planSave(before: string, after: string): SavePlan {
  let prefix = 0;
  const max = Math.min(before.length, after.length);
  while (prefix < max && before[prefix] === after[prefix]) prefix++;
  let suffix = 0;
  while (suffix < max - prefix && before[before.length - 1 - suffix] === after[after.length - 1 - suffix]) suffix++;
  let start = lineStart(before, prefix);
  let endBefore = lineEnd(before, Math.max(start, before.length - suffix));
  for (let grow = 0; grow < 4; grow++) {
    const old = before.slice(start, endBefore);
    if (old.length > 0 && before.indexOf(old) === before.lastIndexOf(old)) {
      const tail = before.length - endBefore;
      return { tool: 'edit_file', old_text: old, new_text: after.slice(start, after.length - tail) };
    }
    start = start > 0 ? lineStart(before, start - 1) : 0;
    endBefore = endBefore < before.length ? lineEnd(before, endBefore) : before.length;
  }
  return { tool: 'write_file', content: after };
}
