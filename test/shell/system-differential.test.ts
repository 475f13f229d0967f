import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMemoryFs } from '../../src/fs/memory.js';
import { runShell } from '../../src/shell/run.js';
import { ChangeLog } from '../../src/workspace/change-log.js';
import { FileWriter } from '../../src/workspace/file-writer.js';
import { PathLocks } from '../../src/workspace/locks.js';
import { PathResolver } from '../../src/workspace/paths.js';

const FILES: Record<string, string> = {
  'code.py': 'def f():\n\n    return 1\n\nprint(f())\n',
  'short.txt': 'a\nb',
};

/** Lines whose output GNU coreutils and the shell must agree on byte for byte. */
const LINES = [
  'nl code.py',
  'nl -ba code.py',
  "nl -ba code.py | sed -n '2,4p'",
  'nl -b a -w 3 -s ": " code.py',
  'nl -bn code.py',
  'nl -v 10 -i 5 -ba short.txt',
  'nl -n rz -w 4 code.py',
  'nl -n ln code.py',
  'cat code.py | nl -ba',
  'nl short.txt code.py',
  'nl missing.txt; echo $?',
];

const base = mkdtempSync(join(tmpdir(), 'sandpit-system-diff-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

function bash(line: string): string {
  for (const [path, text] of Object.entries(FILES)) writeFileSync(join(base, path), text);
  return spawnSync('/bin/bash', ['-c', line], {
    cwd: base,
    encoding: 'utf8',
    env: { PATH: '/usr/bin:/bin', LC_ALL: 'C' },
  }).stdout;
}

async function shell(line: string) {
  const fs = createMemoryFs(Object.fromEntries(Object.entries(FILES).map(([p, t]) => [`/${p}`, t])));
  const writer = new FileWriter(fs, new PathResolver(fs, '/'), new PathLocks(), new ChangeLog(), null);
  return runShell({
    fs,
    root: '/',
    command: line,
    cwd: '.',
    env: { LC_ALL: 'C' },
    timeoutMs: 10_000,
    apply: (steps) => writer.apply(steps, { allOrNothing: false }),
  });
}

describe('nl and the host commands of the browser shell', () => {
  it('numbers lines as GNU nl does', async () => {
    const mismatches: string[] = [];
    for (const line of LINES) {
      const want = bash(line);
      const got = (await shell(line)).stdout;
      if (got !== want) mismatches.push(`${line}: ${JSON.stringify(got)} != ${JSON.stringify(want)}`);
    }
    expect(mismatches).toEqual([]);
  });

  it('answers which, command -v and type from its own command table', async () => {
    expect((await shell('which ls git nosuch; echo $?')).stdout).toBe('/usr/bin/ls\n/usr/bin/git\n1\n');
    expect((await shell('command -v grep if; command -v nosuch || echo none')).stdout).toBe(
      '/usr/bin/grep\nif\nnone\n',
    );
    expect((await shell('type sed')).stdout).toBe('sed is /usr/bin/sed\n');
    const missing = await shell('type nosuch');
    expect(missing.exit_code).toBe(1);
    expect(missing.stderr).toContain('nosuch: not found');
    expect((await shell('command echo hi')).stdout).toBe('hi\n');
  });

  it('says who and where it is, the same way each time', async () => {
    expect((await shell('whoami; id -un; hostname; uname; uname -sm')).stdout).toBe(
      'user\nuser\nsandpit\nLinux\nLinux x86_64\n',
    );
    expect((await shell('id')).stdout).toBe('uid=1000(user) gid=1000(user) groups=1000(user)\n');
    const bad = await shell('uname -z');
    expect(bad.exit_code).not.toBe(0);
    expect(bad.stderr).toContain("'z'");
  });
});
