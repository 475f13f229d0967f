import { loadManifests, type ManifestLoad } from './load.js';

/**
 * `sandpit doctor --tools DIR`: one line per tool folder, `OK`, `NOT FOR THIS PLATFORM` or each
 * exact problem. `healthy` is false when a manifest is broken or the folder cannot be read; a
 * tool whose `platforms` leave this machine out is listed but is not broken.
 */
export function doctorReport(
  toolsDir: string,
  reserved: Iterable<string> = [],
): {
  /** the report, one line per tool folder */
  text: string;
  /** no manifest is broken */
  healthy: boolean;
  /** what loading found */
  load: ManifestLoad;
} {
  const load = loadManifests(toolsDir, reserved);
  if (load.folderProblem) return { text: `tools: ${load.folderProblem}\n`, healthy: false, load };
  if (load.reports.length === 0) return { text: 'tools: no tool folders found\n', healthy: true, load };
  const lines = load.reports.map((r) =>
    r.status === 'ok'
      ? `${r.name}: OK`
      : r.otherPlatform
        ? `${r.name}: NOT FOR THIS PLATFORM (${r.problems.join('; ')})`
        : `${r.name}: SKIPPED\n${r.problems.map((p) => `  - ${p}`).join('\n')}`,
  );
  const ok = load.reports.filter((r) => r.status === 'ok').length;
  const elsewhere = load.reports.filter((r) => r.otherPlatform).length;
  const broken = load.reports.length - ok - elsewhere;
  lines.push(
    `${ok} of ${load.reports.length} tools load${elsewhere ? `, ${elsewhere} not for this platform` : ''}${broken ? `, ${broken} broken` : ''}`,
  );
  return { text: `${lines.join('\n')}\n`, healthy: broken === 0, load };
}
