import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { FULL, SEED } from './sizes.js';

/** One line of the reliability table. Counts of failures are what the README publishes. */
export interface FigureRow {
  area: string;
  backend: string;
  attempts: number;
  escapes: number;
  uncaught: number;
  partial: number;
  lost: number;
  torn: number;
  note?: string;
}

const dir = fileURLToPath(new URL('../../test-results/hardening/', import.meta.url));
const table = fileURLToPath(new URL('../../test-results/hardening.md', import.meta.url));

/**
 * Record one row and rebuild test-results/hardening.md from every row recorded so far. Test files
 * run in separate workers, so each row is its own file and the table is rebuilt from all of them.
 */
export function recordFigures(row: FigureRow): void {
  mkdirSync(dir, { recursive: true });
  const key = `${row.area}--${row.backend}--${FULL ? 'full' : 'slice'}`.replace(/[^a-z0-9-]+/gi, '_');
  writeFileSync(`${dir}${key}.json`, JSON.stringify({ ...row, mode: FULL ? 'full' : 'slice', seed: SEED }, null, 2));
  // the newest row per area, backend and mode
  const latest = new Map<string, FigureRow & { mode: string; seed: number; at: number }>();
  for (const f of readdirSync(dir).filter((name) => name.endsWith('.json'))) {
    const row = {
      ...JSON.parse(readFileSync(`${dir}${f}`, 'utf8')),
      at: statSync(`${dir}${f}`).mtimeMs,
    } as FigureRow & { mode: string; seed: number; at: number };
    const id = `${row.area}|${row.backend}|${row.mode}`;
    if ((latest.get(id)?.at ?? -1) < row.at) latest.set(id, row);
  }
  const rows = [...latest.values()].sort((a, b) =>
    `${a.mode}${a.area}${a.backend}`.localeCompare(`${b.mode}${b.area}${b.backend}`),
  );
  const lines = [
    '# Hardening figures',
    '',
    '| area | backend | mode | seed | attempts tried | escapes | uncaught errors | partial states | lost updates | torn files | note |',
    '| --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
    ...rows.map(
      (r) =>
        `| ${r.area} | ${r.backend} | ${r.mode} | ${r.seed} | ${r.attempts.toLocaleString('en-US')} | ${r.escapes} | ${r.uncaught} | ${r.partial} | ${r.lost} | ${r.torn} | ${r.note ?? ''} |`,
    ),
    '',
  ];
  writeFileSync(table, lines.join('\n'));
}
