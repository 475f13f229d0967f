import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

/**
 * What an MCP test file makes and must clean up: temporary folders, removed after its last test,
 * and clients and servers, closed before that in the reverse order they were opened.
 */
export function scratch(prefix: string) {
  const dirs: string[] = [];
  const closers: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    for (const close of closers.reverse()) await close().catch(() => {});
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });
  return {
    closers,
    /** A new temporary folder holding `files`; nested paths get their folders. */
    folder(files: Record<string, string | Uint8Array> = {}): string {
      const dir = mkdtempSync(join(tmpdir(), prefix));
      dirs.push(dir);
      for (const [name, content] of Object.entries(files)) {
        mkdirSync(join(dir, name, '..'), { recursive: true });
        writeFileSync(join(dir, name), content);
      }
      return dir;
    },
  };
}
