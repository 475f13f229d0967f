/** The files the crash child changes, and the one shape every whole version of them has. */
export const FILES = ['a.txt', 'b.txt', 'dir/c.txt', 'dir/deep/d.txt'];

/** Body sizes swing from a few bytes to ~600 KiB so a kill often lands in the middle of a write. */
function bodySize(b: number): number {
  return ((b * 7919) % 97) * 6_500 + 10;
}

export function render(name: string, h: number, b: number): string {
  const line = `${name}:${b}:`.padEnd(63, '.') + '\n';
  const size = bodySize(b);
  return `${name} version ${h}\n${line.repeat(Math.ceil(size / line.length))}end ${name} ${b}\n`;
}

/** The version a file holds, or null when it is not exactly one whole version (torn or missing). */
export function parseVersion(name: string, text: string | null): { h: number; b: number } | null {
  if (text === null) return null;
  const head = /^(\S+) version (\d+)\n/.exec(text);
  const tail = /end (\S+) (\d+)\n$/.exec(text);
  if (!head || !tail || head[1] !== name || tail[1] !== name) return null;
  const h = Number(head[2]);
  const b = Number(tail[2]);
  return render(name, h, b) === text ? { h, b } : null;
}
