import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { toHex } from '../../src/fs/hash/hex.js';
import { AnswerSplitter, PackReceiver } from '../../src/git/pack-capture.js';
import { PackIndexer } from '../../src/git/index-pack.js';
import { sha1 } from '../../src/snapshots/sha1.js';

// The pack taken out of an upload-pack answer while it arrives (src/git/pack-capture.ts): however
// the network cuts the answer, the pack, the rest and the checksum hashed on the way must be
// exactly what reading the whole answer gives. The pack is one git itself made.

const dir = mkdtempSync(join(tmpdir(), 'sandpit-pack-capture-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function gitPack(): Uint8Array {
  const env = {
    ...process.env,
    GIT_AUTHOR_NAME: 't',
    GIT_AUTHOR_EMAIL: 't@t',
    GIT_COMMITTER_NAME: 't',
    GIT_COMMITTER_EMAIL: 't@t',
  };
  execFileSync('git', ['init', '-q', dir], { env });
  for (let i = 0; i < 40; i++) writeFileSync(join(dir, `f${i}.txt`), `line ${i}\n`.repeat(50 + i));
  writeFileSync(join(dir, 'noise.bin'), randomBytes(200_000));
  execFileSync('git', ['add', '-A'], { cwd: dir, env });
  execFileSync('git', ['commit', '-qm', 'one'], { cwd: dir, env });
  return execFileSync('git', ['pack-objects', '--stdout', '--revs'], {
    cwd: dir,
    env,
    input: 'HEAD\n',
    maxBuffer: 1 << 28,
  });
}

const pkt = (band: number | null, payload: Uint8Array) => {
  const body = band === null ? payload : Buffer.concat([Buffer.from([band]), payload]);
  return Buffer.concat([Buffer.from((body.length + 4).toString(16).padStart(4, '0')), body]);
};

/** A side-band-64k answer as upload-pack sends it: NAK, progress, the pack in band-1 packets, a flush. */
function answerFor(pack: Uint8Array): { answer: Buffer; rest: Buffer } {
  const nak = pkt(null, Buffer.from('NAK\n'));
  const progress = pkt(2, Buffer.from('Counting objects: 41, done.\n'));
  const packets: Buffer[] = [];
  for (let at = 0; at < pack.length; at += 65515) packets.push(pkt(1, pack.subarray(at, at + 65515)));
  const flush = Buffer.from('0000');
  // what isomorphic-git is handed: the pack's place taken by one packet holding an empty pack
  const empty = Buffer.concat([Buffer.from('PACK'), Buffer.from([0, 0, 0, 2, 0, 0, 0, 0])]);
  const emptyPack = Buffer.concat([empty, sha1(empty)]);
  return {
    answer: Buffer.concat([nak, progress, ...packets, progress, flush]),
    rest: Buffer.concat([nak, progress, pkt(1, emptyPack), progress, flush]),
  };
}

async function capture(answer: Uint8Array, piece: number, bytes: Uint8Array) {
  const receiver = new PackReceiver(new PackIndexer({ maxObjectBytes: 1 << 30 }));
  const splitter = new AnswerSplitter((payload) => receiver.push(payload));
  // each piece a buffer of its own, as the network hands them over
  for (let at = 0; at < answer.length; at += piece) splitter.push(new Uint8Array(answer.subarray(at, at + piece)));
  const rest = splitter.end();
  const pack = await receiver.end();
  expect(Buffer.from(pack!).equals(Buffer.from(bytes)), `pack, pieces of ${piece}`).toBe(true);
  return { rest, pack: pack!, receiver };
}

describe('capturing the pack of an upload-pack answer as it arrives', () => {
  it('gives the same pack, rest and checksum in pieces of any size, and the clone indexes it', async () => {
    const pack = gitPack();
    const { answer, rest } = answerFor(pack);
    const want = toHex(sha1(pack.subarray(0, pack.length - 20)));
    for (const piece of [1, 3, 19, 20, 21, 4095, 65520, answer.length]) {
      const got = await capture(answer, piece, pack);
      expect(Buffer.from(got.rest).equals(rest), `rest, pieces of ${piece}`).toBe(true);
      expect(got.receiver.checksum(got.pack), `checksum, pieces of ${piece}`).toBe(want);
      const indexed = await got.receiver.finish(got.pack);
      expect(indexed.sha).toBe(toHex(pack.subarray(pack.length - 20)));
    }
  });

  it('hashes a pack past the streaming limit (kept in pieces) the same way', async () => {
    // not a pack git would read: only the capture's joining and hashing are under test here
    const body = randomBytes(9 * 1024 * 1024 + 12_345);
    const bytes = Buffer.concat([body, sha1(body)]);
    const { answer } = answerFor(bytes);
    for (const piece of [7, 65536 + 13]) {
      const got = await capture(answer, piece, bytes);
      expect(got.receiver.checksum(got.pack)).toBe(toHex(sha1(body)));
    }
  });
});
