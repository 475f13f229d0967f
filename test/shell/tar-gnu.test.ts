import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMemoryFs, type SeedFiles } from '../../src/fs/memory.js';
import type { WorkspaceFs } from '../../src/fs/types.js';
import { runShell } from '../../src/shell/run.js';
import { ChangeLog } from '../../src/workspace/change-log.js';
import { FileWriter } from '../../src/workspace/file-writer.js';
import { PathLocks } from '../../src/workspace/locks.js';
import { PathResolver } from '../../src/workspace/paths.js';

const hasTools = spawnSync('/bin/sh', ['-c', 'command -v tar && command -v gzip'], { encoding: 'utf8' }).status === 0;
const base = mkdtempSync(join(tmpdir(), 'sandpit-tar-gnu-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

// A path past tar's 100-byte name field, and a binary file with every byte value.
const LONG = `tree/${'d'.repeat(60)}/${'e'.repeat(60)}/a-file-whose-whole-path-is-longer-than-one-hundred-bytes.txt`;
const BINARY = Uint8Array.from({ length: 3000 }, (_, i) => (i * 7) % 256);
const FILES: Record<string, string | Uint8Array> = {
  'tree/a.txt': 'alpha\n',
  'tree/run.sh': '#!/bin/sh\necho run\n',
  'tree/sub/b.bin': BINARY,
  'tree/sub/deeper/c.md': '# c\n',
  [LONG]: 'long\n',
};

function hostTree(): string {
  const dir = mkdtempSync(join(base, 'host-'));
  for (const [path, data] of Object.entries(FILES)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), data);
  }
  chmodSync(join(dir, 'tree/run.sh'), 0o755);
  mkdirSync(join(dir, 'tree/empty'));
  symlinkSync('a.txt', join(dir, 'tree/link'));
  return dir;
}

const sh = (line: string, cwd: string) => spawnSync('/bin/sh', ['-c', line], { cwd, encoding: 'utf8' });

async function shell(fs: WorkspaceFs, command: string) {
  const writer = new FileWriter(fs, new PathResolver(fs, '/'), new PathLocks(), new ChangeLog(), null);
  return runShell({
    fs,
    root: '/',
    command,
    cwd: '.',
    env: {},
    timeoutMs: 20_000,
    apply: (steps) => writer.apply(steps, { allOrNothing: false }),
  });
}

/** Every file below a host folder: path -> bytes, links as `-> target`, folders as `/`. */
function listHost(dir: string, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir).sort()) {
    const full = join(dir, name);
    const rel = prefix + name;
    const st = lstatSync(full);
    if (st.isSymbolicLink()) out[rel] = `-> ${readlinkSync(full)}`;
    else if (st.isDirectory()) Object.assign(out, { [`${rel}/`]: '' }, listHost(full, `${rel}/`));
    else out[rel] = `${(st.mode & 0o111) !== 0 ? 'x ' : ''}${Buffer.from(readFileSync(full)).toString('base64')}`;
  }
  return out;
}

describe.runIf(hasTools)('tar and gzip against GNU tar and gzip', () => {
  it('extracts what GNU tar made: long names, binary bytes, the executable bit, empty folders, links', async () => {
    const dir = hostTree();
    expect(sh('tar -czf a.tgz tree && tar -cf a.tar tree', dir).status).toBe(0);
    const fs = createMemoryFs({
      '/a.tgz': readFileSync(join(dir, 'a.tgz')),
      '/a.tar': readFileSync(join(dir, 'a.tar')),
    });
    const r = await shell(
      fs,
      [
        'mkdir z p && tar -xzf a.tgz -C z && tar -xf a.tar -C p',
        'stat -c %a z/tree/run.sh z/tree/a.txt',
        'readlink z/tree/link',
        'tar -tzf a.tgz | sort > shell-list',
      ].join(' && '),
    );
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('755\n644\na.txt\n');
    for (const [path, data] of Object.entries(FILES))
      for (const top of ['z', 'p'])
        expect(Buffer.from(await fs.readFile(`/${top}/${path}`)).equals(Buffer.from(data))).toBe(true);
    expect((await fs.stat('/z/tree/empty')).isDirectory()).toBe(true);
    const gnuList = sh('tar -tzf a.tgz | sort', dir).stdout;
    expect(new TextDecoder().decode(await fs.readFile('/shell-list'))).toBe(gnuList);
  });

  it('writes archives GNU tar lists and extracts to the same tree, and gzip streams GNU gzip reads', async () => {
    const seed: SeedFiles = Object.fromEntries(Object.entries(FILES).map(([p, d]) => [`/${p}`, d]));
    const fs = createMemoryFs(seed);
    const r = await shell(
      fs,
      'chmod +x tree/run.sh && mkdir tree/empty && ln -s a.txt tree/link && tar -czf s.tgz tree && tar -cf s.tar tree && gzip -k tree/sub/b.bin && tar -tvf s.tar > shell-tv',
    );
    expect(r.stderr).toBe('');
    const dir = mkdtempSync(join(base, 'shell-'));
    for (const name of ['s.tgz', 's.tar', 'tree/sub/b.bin.gz']) {
      mkdirSync(dirname(join(dir, name)), { recursive: true });
      writeFileSync(join(dir, name), await fs.readFile(`/${name}`));
    }
    expect(statSync(join(dir, 's.tar')).size % 10240).toBe(0);
    const gnu = sh(
      'mkdir z p && tar -xzf s.tgz -C z && tar -xf s.tar -C p && gzip -t tree/sub/b.bin.gz && gzip -dc tree/sub/b.bin.gz > b.out',
      dir,
    );
    expect(gnu.stderr).toBe('');
    expect(gnu.status).toBe(0);
    const want = listHost(join(hostTree(), 'tree'));
    expect(listHost(join(dir, 'z/tree'))).toEqual(want);
    expect(listHost(join(dir, 'p/tree'))).toEqual(want);
    expect(readFileSync(join(dir, 'b.out')).equals(Buffer.from(BINARY))).toBe(true);
    // GNU's own long listing of the shell's archive is the shell's, but for the owner the host names
    const gnuTv = sh('tar -tvf s.tar', dir).stdout.replace(/ \S+\/\S+ +/g, ' ');
    const shellTv = new TextDecoder().decode(await fs.readFile('/shell-tv')).replace(/ \S+\/\S+ +/g, ' ');
    expect(shellTv.replace(/ \d{4}-\d\d-\d\d \d\d:\d\d /g, ' ')).toBe(
      gnuTv.replace(/ \d{4}-\d\d-\d\d \d\d:\d\d /g, ' '),
    );
  });
});
