import { resolve } from 'node:path';
import { createNodeFs } from '../../fs/node.js';
import { checkHistory, repairHistory } from '../../snapshots/repair.js';

/**
 * The snapshot history of a folder, checked (and with `repair`, reset to its newest intact
 * commit), as lines for a person. Healthy when nothing is left broken.
 */
export async function doctorHistory(root: string, repair: boolean): Promise<{ text: string; healthy: boolean }> {
  const fs = createNodeFs();
  const gitdir = `${resolve(root)}/.sandpit/git`;
  const report = repair ? await repairHistory(fs, gitdir) : await checkHistory(fs, gitdir);
  if (report.absent) return { text: 'history: OK (no snapshots yet)\n', healthy: true };
  if (report.healthy) return { text: `history: OK (${report.snapshots} snapshots)\n`, healthy: true };
  if (report.repairedTo) {
    return {
      text: `history: DAMAGED: ${report.damage}\nhistory: REPAIRED: the branch now points at ${report.repairedTo.slice(0, 12)}, the newest intact snapshot (${report.snapshots} snapshots kept)\n`,
      healthy: true,
    };
  }
  const next = repair
    ? 'no intact snapshot was found to reset to; move .sandpit/git aside to start a new history'
    : 'run `sandpit doctor --root DIR --repair` to reset it to the newest intact snapshot';
  return { text: `history: DAMAGED: ${report.damage}\nhistory: ${next}\n`, healthy: false };
}
