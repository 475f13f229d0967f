import { loadManifests, type ManifestLoad } from './load.js';

/**
 * `sandpit doctor --tools DIR`: one line per tool folder, `OK` or each exact problem.
 * `healthy` is false when any manifest was skipped or the folder cannot be read.
 */
export function doctorReport(toolsDir: string, reserved: Iterable<string> = []): { text: string; healthy: boolean; load: ManifestLoad } {
  const load = loadManifests(toolsDir, reserved);
  if (load.folderProblem) return { text: `tools: ${load.folderProblem}\n`, healthy: false, load };
  if (load.reports.length === 0) return { text: 'tools: no tool folders found\n', healthy: true, load };
  const lines = load.reports.map((r) =>
    r.status === 'ok' ? `${r.name}: OK` : `${r.name}: SKIPPED\n${r.problems.map((p) => `  - ${p}`).join('\n')}`);
  const ok = load.reports.filter((r) => r.status === 'ok').length;
  lines.push(`${ok} of ${load.reports.length} tools load`);
  return { text: `${lines.join('\n')}\n`, healthy: ok === load.reports.length, load };
}
