import type { Envelope } from '../../src/contract/index.js';
import type { MergeOutcome } from '../../src/workspace-forks.js';
import type { ForkDiff } from '../../web/protocol.js';
import { counted, el } from '../page/dom.js';

/** Each fork's diff against its fork point, one column per fork, side by side. */
export function showCompare(host: HTMLElement, diffs: ForkDiff[]): void {
  host.replaceChildren(
    ...diffs.map((diff) => {
      const column = el('section', undefined, 'fork-column');
      column.dataset.fork = diff.name;
      column.setAttribute('aria-label', `Changes in ${diff.name}`);
      const added = diff.files.reduce((n, f) => n + f.added_lines, 0);
      const removed = diff.files.reduce((n, f) => n + f.removed_lines, 0);
      column.append(
        el('h4', diff.name),
        el(
          'p',
          diff.files.length
            ? `${counted(diff.files.length, 'file')} changed · +${added} −${removed}`
            : 'No changes since the fork.',
          'muted fork-stats',
        ),
        el('ul', undefined, 'fork-files'),
        el('pre', diff.unified_diff, 'fork-diff'),
      );
      column
        .querySelector('ul')!
        .append(...diff.files.map((f) => el('li', `${f.status} ${f.path} +${f.added_lines} −${f.removed_lines}`)));
      return column;
    }),
  );
}

/** What a merge did: the files of a clean one, or each conflicting path with its regions (nothing changed). */
export function showMerge(host: HTMLElement, fork: string, envelope: Envelope<MergeOutcome>): void {
  host.hidden = false;
  host.className = `summary ${envelope.ok ? 'ok' : 'error'}`;
  if (envelope.ok) {
    const files = envelope.result.files;
    host.replaceChildren(
      el('span', 'merged', 'code'),
      el('span', `“${fork}” is in the workspace as one change (Review can undo it):`, 'message'),
      el('ul'),
    );
    host.querySelector('ul')!.append(...files.map((f) => el('li', `${f.action} ${f.path}`)));
    return;
  }
  const { error } = envelope;
  host.replaceChildren(
    el('span', error.code, 'code'),
    el(
      'span',
      error.code === 'PATCH_CONFLICT'
        ? `“${fork}” and the workspace changed the same lines: nothing was merged, nothing changed.`
        : error.message,
      'message',
    ),
    ...(error.hint ? [el('p', error.hint, 'hint')] : []),
  );
  const conflicts = el('ol', undefined, 'fork-conflicts');
  for (const problem of error.problems ?? []) {
    const item = el('li');
    item.dataset.path = problem.path;
    item.append(el('strong', problem.path), el('span', ` ${problem.message}`));
    const regions = (problem as { hunks?: MergeOutcome['conflicts'][number]['hunks'] }).hunks ?? [];
    for (const region of regions) {
      const block = el('div', undefined, 'fork-region');
      block.append(
        el(
          'p',
          `lines ${region.base_start_line}–${region.base_start_line + Math.max(0, region.base_line_count - 1)} at the fork point`,
          'muted',
        ),
        el(
          'pre',
          `at the fork point:\n${region.base}\nin the workspace:\n${region.ours}\nin “${fork}”:\n${region.theirs}`,
        ),
      );
      item.append(block);
    }
    conflicts.append(item);
  }
  host.append(conflicts);
}
