/** A small deterministic generator, so a failure can be replayed. */
export function random(seed: number): () => number {
  return () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

/**
 * Up to `maxLines` lines drawn from an alphabet of `alphabet` words, and the same lines edited at
 * random: about a tenth removed, a tenth followed by a new line, a tenth changed.
 */
export function randomEdit(next: () => number, alphabet: number, maxLines: number): [string[], string[]] {
  const before = Array.from({ length: Math.floor(next() * maxLines) }, () => `line ${Math.floor(next() * alphabet)}`);
  const after = before.flatMap((line) => {
    const r = next();
    if (r < 0.1) return [];
    if (r < 0.2) return [line, `new ${Math.floor(next() * alphabet)}`];
    if (r < 0.3) return [`changed ${Math.floor(next() * alphabet)}`];
    return [line];
  });
  return [before, after];
}
