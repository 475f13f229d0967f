import { describe, expect, it } from 'vitest';
import { planSave } from '../../demo/files/save-plan.js';

/** Apply a plan the way edit_file would: the old text must occur once. */
function apply(before: string, plan: ReturnType<typeof planSave>): string {
  if (plan.tool === 'write_file') return plan.content;
  expect(before.split(plan.old_text).length - 1).toBe(1);
  return before.replace(plan.old_text, () => plan.new_text);
}

describe("the editor's save plan", () => {
  it('sends the changed line as a unique edit_file', () => {
    const before = 'a\nb\nc\n';
    const plan = planSave(before, 'a\nB!\nc\n');
    expect(plan).toEqual({ tool: 'edit_file', old_text: 'b\n', new_text: 'B!\n' });
  });

  it('widens the anchor by whole lines until it is unique', () => {
    const before = 'x\nsame\ny\nsame\n';
    const plan = planSave(before, 'x\nsame\ny\nchanged\n');
    expect(plan.tool).toBe('edit_file');
    expect(apply(before, plan)).toBe('x\nsame\ny\nchanged\n');
  });

  it('handles inserted and deleted lines, and a missing final newline', () => {
    for (const [before, after] of [
      ['a\nb\n', 'a\nX\nb\n'],
      ['a\nb\nc\n', 'a\nc\n'],
      ['one', 'one two'],
      ['a\nb', 'a\nb\n'],
      ['k\nk\nk\n', 'k\nk\n'],
    ] as const) {
      expect(apply(before, planSave(before, after)), JSON.stringify([before, after])).toBe(after);
    }
  });

  it('falls back to write_file for an empty file or when no run of lines is unique', () => {
    expect(planSave('', 'new\n')).toEqual({ tool: 'write_file', content: 'new\n' });
    const repeated = 'z\n'.repeat(20);
    expect(planSave(repeated, `${repeated}z\n`).tool).toBe('write_file');
  });
});
