/** Shared timing helpers for the benchmarks: medians over repeated runs, after a warm-up. */
export async function median(fn, { runs = 200, warmup = 20 } = {}) {
  for (let i = 0; i < warmup; i++) await fn(i);
  const times = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn(i);
    times.push(performance.now() - t);
  }
  return medianOf(times);
}

/** The middle of `values` once sorted (the upper one of an even count), as every table here reports. */
export function medianOf(values) {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
}

export function fmtMs(ms) {
  if (ms < 0.1) return `${(ms * 1000).toFixed(1)} µs`;
  if (ms < 10) return `${ms.toFixed(2)} ms`;
  return `${ms.toFixed(0)} ms`;
}

export function fmtRatio(r) {
  return `${r.toFixed(2)}x`;
}

/** Print rows as a Markdown table. */
export function table(title, header, rows) {
  const lines = [`### ${title}`, '', `| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`];
  for (const row of rows) lines.push(`| ${row.join(' | ')} |`);
  return lines.join('\n');
}
