import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { indexPack, PackIndexer } from '../../src/git/index-pack.js';
import { NODE_NATIVE } from '../../src/fs/node.js';
import { installPlatformNative, platformNative } from '../../src/fs/platform-native.js';
import { sha1 } from '../../src/snapshots/sha1.js';
import { ToolError } from '../../src/contract/index.js';
import { leanExecFileSync } from '../support/lean-spawn.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const env = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 't',
  GIT_AUTHOR_EMAIL: 't@t',
  GIT_COMMITTER_NAME: 't',
  GIT_COMMITTER_EMAIL: 't@t',
};
const run = (cwd: string, args: string[], input?: Buffer | string) =>
  leanExecFileSync('git', args, { cwd, env, input, maxBuffer: 1 << 30 });

/** A repository with history (so packs hold deltas, chains of them), packed by the real git CLI. */
function repoWithDeltas(): { dir: string; pack: Uint8Array; idx: Uint8Array } {
  const dir = mkdtempSync(join(tmpdir(), 'sandpit-index-pack-'));
  dirs.push(dir);
  run(dir, ['init', '-q', '-b', 'main']);
  const lines = Array.from({ length: 4000 }, (_, i) => `line ${i}: some text that deltas well\n`);
  for (let v = 0; v < 6; v++) {
    lines[v * 500] = `changed in version ${v}\n`;
    writeFileSync(join(dir, 'a.txt'), lines.join(''));
    writeFileSync(join(dir, `v${v}.txt`), `version ${v}\n`);
    run(dir, ['add', '-A']);
    run(dir, ['commit', '-q', '-m', `v${v}`]);
  }
  run(dir, ['repack', '-adq', '--window=10', '--depth=50']);
  const packDir = join(dir, '.git', 'objects', 'pack');
  const name = readdirSync(packDir).find((n) => n.endsWith('.pack'))!;
  return {
    dir,
    pack: readFileSync(join(packDir, name)),
    idx: readFileSync(join(packDir, name.replace(/\.pack$/, '.idx'))),
  };
}

/** Run with Node's zlib and crypto installed, as the Node entry does, then restore what was there. */
async function withNative<T>(helpers: typeof NODE_NATIVE | null, work: () => Promise<T>): Promise<T> {
  const was = platformNative();
  installPlatformNative(helpers);
  try {
    return await work();
  } finally {
    installPlatformNative(was);
  }
}

describe('indexPack', () => {
  it.each([
    ['portable code', null],
    ["Node's zlib and crypto", NODE_NATIVE],
  ])(
    'inflates and hashes small objects whole with %s: the same .idx as git, and a damaged stream refused',
    async (_, helpers) => {
      const { pack, idx } = repoWithDeltas();
      const indexed = await withNative(helpers, () => indexPack(pack, { maxObjectBytes: 1 << 20 }));
      expect(Buffer.from(indexed.idx).equals(idx)).toBe(true);
      // a stream damaged inside an object (the pack's checksum made right again) is refused, never misread
      const damaged = Uint8Array.from(pack);
      let at = 12;
      while ((damaged[at]! & 0x80) !== 0) at++;
      damaged[at + 3] = damaged[at + 3]! ^ 0x55;
      damaged.set(sha1(damaged.subarray(0, damaged.length - 20)), damaged.length - 20);
      await expect(withNative(helpers, () => indexPack(damaged, { maxObjectBytes: 1 << 20 }))).rejects.toThrow();
    },
  );

  it('writes the same .idx as git index-pack, with every size and content git reports', async () => {
    const { dir, pack, idx } = repoWithDeltas();
    const listed = run(dir, [
      'cat-file',
      '--batch-check=%(objectname) %(objectsize) %(deltabase)',
      '--batch-all-objects',
    ])
      .toString()
      .trim()
      .split('\n')
      .map((l) => l.split(' '));
    expect(listed.filter(([, , base]) => !/^0+$/.test(base!)).length).toBeGreaterThan(3);
    const indexed = await indexPack(pack, { maxObjectBytes: 1 << 20 });
    expect(Buffer.from(indexed.idx).equals(idx)).toBe(true);
    expect(new Map([...indexed.sizes].sort())).toEqual(
      new Map(listed.map(([oid, size]) => [oid!, Number(size)] as const).sort()),
    );
    for (const [oid] of listed) {
      const type = run(dir, ['cat-file', '-t', oid!]).toString().trim();
      expect(
        Buffer.from((await indexed.read(oid!))!).equals(run(dir, ['cat-file', type, oid!])),
        `${type} ${oid}`,
      ).toBe(true);
    }
  });

  it('refuses a delta whose base is over the cap with TOO_LARGE, before inflating the base', async () => {
    const { pack } = repoWithDeltas();
    const error = await indexPack(pack, { maxObjectBytes: 1000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolError);
    expect((error as ToolError).code).toBe('TOO_LARGE');
  });

  it('refuses a damaged pack with IO_ERROR', async () => {
    const { pack } = repoWithDeltas();
    const flipped = Uint8Array.from(pack);
    flipped[40] = flipped[40]! ^ 0xff;
    const error = await indexPack(flipped, { maxObjectBytes: 1 << 20 }).catch((e: unknown) => e);
    expect((error as ToolError).code).toBe('IO_ERROR');
    const cut = pack.subarray(0, pack.length - 1);
    expect(((await indexPack(cut, { maxObjectBytes: 1 << 20 }).catch((e: unknown) => e)) as ToolError).code).toBe(
      'IO_ERROR',
    );
  });

  it('reads a pack as it arrives, in pieces of any size: the same index, sizes and contents as read whole', async () => {
    const { pack, idx } = repoWithDeltas();
    const whole = await indexPack(pack, { maxObjectBytes: 1 << 20 });
    for (const piece of [1, 7, 100, 4096, 65536]) {
      const indexer = new PackIndexer({ maxObjectBytes: 1 << 20 });
      for (let end = piece; end < pack.length; end += piece) await indexer.advance(pack.subarray(0, end));
      const streamed = await indexer.finish(pack);
      expect(Buffer.from(streamed.idx).equals(idx), `pieces of ${piece}`).toBe(true);
      expect(streamed.sizes).toEqual(whole.sizes);
      for (const oid of whole.sizes.keys())
        expect(Buffer.from((await streamed.read(oid))!).equals(Buffer.from((await whole.read(oid))!))).toBe(true);
    }
  });

  it('refuses a pack damaged inside an object the same way when it was read as it arrived', async () => {
    const { pack } = repoWithDeltas();
    const damaged = Uint8Array.from(pack);
    let at = 12;
    while ((damaged[at]! & 0x80) !== 0) at++;
    damaged[at + 3] = damaged[at + 3]! ^ 0x55;
    damaged.set(sha1(damaged.subarray(0, damaged.length - 20)), damaged.length - 20);
    const indexer = new PackIndexer({ maxObjectBytes: 1 << 20 });
    for (let end = 512; end < damaged.length; end += 512) await indexer.advance(damaged.subarray(0, end));
    const read = await indexPack(damaged, { maxObjectBytes: 1 << 20 }).catch((e: unknown) => e);
    expect(read).toBeInstanceOf(Error);
    expect(((await indexer.finish(damaged).catch((e: unknown) => e)) as Error).message).toBe((read as Error).message);
    // and a checksum that does not match is IO_ERROR, whatever was read before
    const flipped = Uint8Array.from(pack);
    flipped[40] = flipped[40]! ^ 0xff;
    const again = new PackIndexer({ maxObjectBytes: 1 << 20 });
    await again.advance(flipped.subarray(0, 30));
    expect(((await again.finish(flipped).catch((e: unknown) => e)) as ToolError).code).toBe('IO_ERROR');
  });
});
