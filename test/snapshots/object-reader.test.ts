import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitFsClient } from '../../src/fs/git-client.js';
import { createNodeFs } from '../../src/node/index.js';
import { readCommit, readObject, type GitAccess } from '../../src/snapshots/object-reader.js';

// The snapshot store's own reader against repositories the real git CLI wrote: loose objects
// (real deflate, not the store's stored blocks), and packs with OFS_DELTA and REF_DELTA entries.
const git = (dir: string, ...args: string[]) =>
  execFileSync('git', args, {
    cwd: dir,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_CONFIG_NOSYSTEM: '1',
      HOME: tmpdir(),
      GIT_AUTHOR_NAME: 'A',
      GIT_AUTHOR_EMAIL: 'a@x',
      GIT_COMMITTER_NAME: 'A',
      GIT_COMMITTER_EMAIL: 'a@x',
      GIT_AUTHOR_DATE: '1700000000 +0130',
      GIT_COMMITTER_DATE: '1700000000 +0130',
    },
  });

let base: string;
let gitdir: string;
const fs = createNodeFs({ root: '/' });
const access = (): GitAccess => ({ fs: gitFsClient(fs), gitdir, cache: {} });
/** Every object id, with its type and content as git prints them. */
let objects: Array<{ oid: string; type: string }>;

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'sandpit-reader-'));
  git(base, 'init', '-q', '-b', 'main');
  // a file that grows by a line a commit: git's packs store the versions as deltas on each other
  let text = '';
  for (let i = 0; i < 6; i++) {
    text += `line ${i} ${'x'.repeat(200)}\n`;
    writeFileSync(join(base, 'grow.txt'), text);
    git(base, 'add', '.');
    git(base, 'commit', '-q', '-m', `step ${i}\n\nbody ${i}`);
  }
  gitdir = join(base, '.git');
  objects = git(base, 'cat-file', '--batch-all-objects', '--batch-check')
    .trim()
    .split('\n')
    .map((l) => ({ oid: l.split(' ')[0]!, type: l.split(' ')[1]! }));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

async function expectEveryObjectAsGitReadsIt(): Promise<void> {
  const reader = access();
  for (const { oid, type } of objects) {
    const read = await readObject(reader, oid);
    expect(read.type).toBe(type);
    const shown = execFileSync('git', ['cat-file', type, oid], { cwd: base });
    expect(Buffer.from(read.content).equals(shown), `${type} ${oid}`).toBe(true);
  }
}

describe("the snapshot store's object reader", () => {
  it('reads loose objects git deflated, and parses commits as git wrote them', async () => {
    await expectEveryObjectAsGitReadsIt();
    const head = git(base, 'rev-parse', 'HEAD').trim();
    const commit = await readCommit(access(), head);
    expect(commit.tree).toBe(git(base, 'rev-parse', 'HEAD^{tree}').trim());
    expect(commit.parent).toEqual([git(base, 'rev-parse', 'HEAD~1').trim()]);
    expect(commit.author).toMatchObject({ name: 'A', email: 'a@x', timestamp: 1700000000, timezoneOffset: -90 });
    expect(commit.message).toBe('step 5\n\nbody 5\n');
  });

  it("reads packs with deltas (git gc's OFS_DELTA, then REF_DELTA), and refuses an object it does not hold", async () => {
    git(base, 'gc', '-q', '--aggressive', '--prune=now');
    const verify = git(
      base,
      'verify-pack',
      '-v',
      ...readdirSync(join(gitdir, 'objects/pack'))
        .filter((n) => n.endsWith('.idx'))
        .map((n) => join(gitdir, 'objects/pack', n)),
    );
    expect(verify).toMatch(/ blob +\d+ \d+ \d+ 1 [0-9a-f]{40}/); // a blob stored as a delta on another
    await expectEveryObjectAsGitReadsIt();
    git(base, '-c', 'repack.useDeltaBaseOffset=false', 'repack', '-a', '-d', '-f', '-q');
    await expectEveryObjectAsGitReadsIt();
    await expect(readObject(access(), '0'.repeat(40))).rejects.toThrow(/not in the repository/);
  });
});
