import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
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
  const rows = readdirSync(dir).filter((f) => f.endsWith('.json')).sort()
    .map((f) => JSON.parse(readFileSync(`${dir}${f}`, 'utf8')) as FigureRow & { mode: string; seed: number });
  const lines = [
    '# Hardening figures',
    '',
    '| area | backend | mode | seed | attempts tried | escapes | uncaught errors | partial states | lost updates | torn files | note |',
    '| --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
    ...rows.map((r) => `| ${r.area} | ${r.backend} | ${r.mode} | ${r.seed} | ${r.attempts.toLocaleString('en-US')} | ${r.escapes} | ${r.uncaught} | ${r.partial} | ${r.lost} | ${r.torn} | ${r.note ?? ''} |`),
    '',
  ];
  writeFileSync(table, lines.join('\n'));
}
