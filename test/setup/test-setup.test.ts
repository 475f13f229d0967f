import { spawnSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const script = fileURLToPath(new URL('../../scripts/test-setup.mjs', import.meta.url));
const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;

let dir: string;
let bin: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sandpit-setup-'));
  bin = join(dir, 'bin');
  await mkdir(bin);
  // A PATH with node and nothing else the tests need: what a fresh machine looks like.
  await symlink(process.execPath, join(bin, 'node'));
  await writeFile(join(dir, 'debian'), 'ID=debian\n');
  await writeFile(join(dir, 'fedora'), 'ID=fedora\n');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

async function script_(path: string, body: string): Promise<string> {
  await writeFile(path, `#!/bin/sh\n${body}\n`);
  await chmod(path, 0o755);
  return path;
}

/** A fake apt-get that logs its arguments and "installs" each package as an executable on PATH. */
async function fakeAptGet(): Promise<void> {
  await script_(
    join(bin, 'apt-get'),
    [
      `echo "$@" >> ${join(dir, 'apt.log')}`,
      'if [ "$1" = install ]; then shift 2; for p in "$@"; do',
      `  case "$p" in ripgrep) n=rg;; bubblewrap) n=bwrap;; *) n="$p";; esac; printf '#!/bin/sh\\n' > ${bin}/$n; /bin/chmod +x ${bin}/$n;`,
      'done; fi',
    ].join('\n'),
  );
}

function setup(extra: Record<string, string> = {}) {
  const env: Record<string, string> = {
    PATH: bin,
    HOME: dir,
    PLAYWRIGHT_BROWSERS_PATH: join(dir, 'pw'),
    SANDPIT_SETUP_NO_SYSTEM_PATHS: '1',
    SANDPIT_SETUP_OS_RELEASE: join(dir, 'debian'),
    SANDPIT_SETUP_PLAYWRIGHT_CLI: join(dir, 'no-playwright.mjs'),
    ...extra,
  };
  const r = spawnSync(process.execPath, [script], { env, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('the step before npm test', () => {
  beforeEach(() => writeFile(join(dir, 'no-playwright.mjs'), 'process.exit(1);\n'));

  it('stops at once with one line naming every missing tool and how to install it', () => {
    const r = setup({ SANDPIT_SETUP_NO_INSTALL: '1' });
    expect(r.code).toBe(1);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^test-setup: missing chromium .*, git .*, rg .*, tree .*, bwrap .*: install with apt-get install -y chromium git ripgrep tree bubblewrap/,
    );
    expect(lines[0]).toContain('npx playwright install chromium');
    expect(lines[0]).toContain('CHROMIUM_PATH');
  });

  it('finds what is there: CHROMIUM_PATH, or a Chromium on PATH', async () => {
    for (const name of ['git', 'rg', 'tree', 'bwrap']) await script_(join(bin, name), '');
    const chrome = await script_(join(dir, 'my-chrome'), '');
    expect(setup({ CHROMIUM_PATH: chrome, SANDPIT_SETUP_NO_INSTALL: '1' })).toMatchObject({
      code: 0,
      stdout: `CHROMIUM_PATH=${chrome}\n`,
    });
    await script_(join(bin, 'chromium-browser'), '');
    expect(setup({ SANDPIT_SETUP_NO_INSTALL: '1' })).toMatchObject({
      code: 0,
      stdout: `CHROMIUM_PATH=${join(bin, 'chromium-browser')}\n`,
    });
    const bad = setup({ CHROMIUM_PATH: join(dir, 'nothing-here') });
    expect(bad.code).toBe(1);
    expect(bad.stderr.trim().split('\n')).toEqual([
      'test-setup: CHROMIUM_PATH does not name an executable Chromium; unset it or point it at one',
    ]);
  });

  it("takes Chromium from Playwright's own download when that works, and its cache afterwards", async () => {
    for (const name of ['git', 'rg', 'tree', 'bwrap']) await script_(join(bin, name), '');
    const chrome = join(dir, 'pw', 'chromium-1200', 'chrome-linux64', 'chrome');
    await writeFile(
      join(dir, 'playwright.mjs'),
      [
        "import { mkdirSync, writeFileSync } from 'node:fs';",
        `if (process.argv.slice(2).join(' ') !== 'install chromium') process.exit(2);`,
        `mkdirSync(${JSON.stringify(join(dir, 'pw', 'chromium-1200', 'chrome-linux64'))}, { recursive: true });`,
        `writeFileSync(${JSON.stringify(chrome)}, '#!/bin/sh\\n', { mode: 0o755 });`,
      ].join('\n'),
    );
    const r = setup({ SANDPIT_SETUP_PLAYWRIGHT_CLI: join(dir, 'playwright.mjs') });
    expect(r).toMatchObject({ code: 0, stdout: `CHROMIUM_PATH=${chrome}\n` });
    expect(setup({ SANDPIT_SETUP_NO_INSTALL: '1' })).toMatchObject({ code: 0, stdout: `CHROMIUM_PATH=${chrome}\n` });
  });

  it.skipIf(!asRoot)('installs what is missing with apt-get as root on Debian, then carries on', async () => {
    await fakeAptGet();
    const r = setup();
    expect(r.stderr).not.toContain('missing');
    expect(r).toMatchObject({ code: 0, stdout: `CHROMIUM_PATH=${join(bin, 'chromium')}\n` });
    expect((await readFile(join(dir, 'apt.log'), 'utf8')).trim().split('\n')).toEqual([
      'update',
      'install -y chromium git ripgrep tree bubblewrap',
    ]);
  });

  it('does not use apt-get on another system: it stops with the one line instead', async () => {
    await fakeAptGet();
    const r = setup({ SANDPIT_SETUP_OS_RELEASE: join(dir, 'fedora') });
    expect(r.code).toBe(1);
    expect(
      r.stderr
        .trim()
        .split('\n')
        .filter((l) => l.includes('missing')),
    ).toHaveLength(1);
    await expect(readFile(join(dir, 'apt.log'), 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
