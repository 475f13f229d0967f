import { RangeSet, StateEffect, StateField, type Extension } from '@codemirror/state';
import { gutter, GutterMarker } from '@codemirror/view';
import type { BlameRange } from '../../src/review-hooks.js';

/** Show these ranges in the gutter (null: none, e.g. while the text has unsaved edits). */
export const setBlame = StateEffect.define<BlameRange[] | null>();

const who = (r: BlameRange) => r.actor ?? (r.change_id ? (r.tool ?? 'a tool') : 'before the workspace');

/** The first line of a range: who wrote it and in which change; its title says all of it. */
class BlameMark extends GutterMarker {
  constructor(readonly blame: BlameRange) {
    super();
  }

  override eq(other: GutterMarker): boolean {
    if (!(other instanceof BlameMark)) return false;
    const a = this.blame;
    const b = other.blame;
    return (
      a.change_id === b.change_id && a.actor === b.actor && a.start_line === b.start_line && a.end_line === b.end_line
    );
  }

  override toDOM(): Node {
    const r = this.blame;
    const mark = document.createElement('span');
    mark.className = 'blame-mark';
    mark.dataset.line = String(r.start_line);
    if (r.actor) mark.dataset.actor = r.actor;
    if (r.change_id) mark.dataset.change = r.change_id;
    mark.textContent = r.change_id ? `${who(r)} · ${r.change_id}` : who(r);
    const lines = r.start_line === r.end_line ? `line ${r.start_line}` : `lines ${r.start_line}–${r.end_line}`;
    mark.title = r.change_id
      ? `${lines}: ${who(r)}, ${r.tool} in ${r.change_id}${r.call_id ? ` (tool call ${r.call_id})` : ''}`
      : `${lines}: no change the workspace recorded wrote them`;
    return mark;
  }
}

const ranges = StateField.define<BlameRange[] | null>({
  create: () => null,
  update(value, tr) {
    for (const effect of tr.effects) if (effect.is(setBlame)) return effect.value;
    // typing makes the lines unsaved: nobody the workspace knows wrote them yet
    return tr.docChanged ? null : value;
  },
});

/**
 * Blame in the editor's gutter: beside the first line of each run of lines, the actor and the
 * change that last wrote them (from the workspace's blame), cleared while the text has edits.
 */
export function blameGutter(): Extension {
  return [
    ranges,
    gutter({
      class: 'cm-blame',
      markers: (view) => {
        const list = view.state.field(ranges);
        const doc = view.state.doc;
        if (!list) return RangeSet.empty;
        return RangeSet.of(
          list.filter((r) => r.start_line <= doc.lines).map((r) => new BlameMark(r).range(doc.line(r.start_line).from)),
          true,
        );
      },
    }),
  ];
}
