import { describe, expect, it } from 'vitest';
import { KeptBytes } from '../../src/fs/kept-bytes.js';

const bytes = (...values: number[]) => new Uint8Array(values);

describe('KeptBytes (the browser stores keep small files they read or wrote)', () => {
  it('hands out a copy, and keeps its own copy of what it was given', () => {
    const kept = new KeptBytes<number>();
    const given = bytes(1, 2, 3);
    kept.keep(7, given, kept.changing(7));
    given[0] = 9;
    const first = kept.bytesOf(7)!;
    expect(first).toEqual(bytes(1, 2, 3));
    first[1] = 9;
    expect(kept.bytesOf(7)).toEqual(bytes(1, 2, 3));
  });

  it('never keeps what a read found when a write of that key started while it was on its way', () => {
    const kept = new KeptBytes<number>();
    const readStarted = kept.now();
    const writeStarted = kept.changing(1);
    kept.keep(1, bytes(1), readStarted); // the old bytes, read before the write
    expect(kept.bytesOf(1)).toBeUndefined();
    kept.keep(1, bytes(2), writeStarted);
    expect(kept.bytesOf(1)).toEqual(bytes(2));
  });

  it('keeps only the last of two overlapping writes, and nothing after a removal started', () => {
    const kept = new KeptBytes<number>();
    const a = kept.changing(1);
    const b = kept.changing(1);
    kept.keep(1, bytes(2), b);
    kept.keep(1, bytes(1), a); // the earlier write ends last
    expect(kept.bytesOf(1)).toEqual(bytes(2));
    kept.changing(1); // unlink
    expect(kept.bytesOf(1)).toBeUndefined();
  });

  it('forgets everything on clear, even a read that started before it', () => {
    const kept = new KeptBytes<number>();
    kept.keep(1, bytes(1), kept.changing(1));
    const readStarted = kept.now();
    kept.clear();
    expect(kept.bytesOf(1)).toBeUndefined();
    kept.keep(2, bytes(2), readStarted);
    expect(kept.bytesOf(2)).toBeUndefined();
  });

  it('does not keep a file over 64 KiB, and drops the file used longest ago past 4 MiB', () => {
    const kept = new KeptBytes<number>();
    kept.keep(0, new Uint8Array(64 * 1024 + 1), kept.now());
    expect(kept.bytesOf(0)).toBeUndefined();
    for (let i = 1; i <= 64; i++) kept.keep(i, new Uint8Array(64 * 1024).fill(i), kept.now());
    expect(kept.bytesOf(1)?.[0]).toBe(1); // used now: no longer the oldest
    kept.keep(65, new Uint8Array(64 * 1024).fill(65), kept.now());
    expect(kept.bytesOf(2)).toBeUndefined();
    expect(kept.bytesOf(1)?.[0]).toBe(1);
    expect(kept.bytesOf(65)?.[0]).toBe(65);
  });

  it('forgets a folder and what is below it, and any read on its way then, but not its neighbours', () => {
    const kept = new KeptBytes<string>();
    for (const key of ['a/x', 'a/y/z', 'ab', 'b']) kept.keep(key, bytes(1), kept.now());
    const readStarted = kept.now(); // a read of a/w, not held yet
    kept.changingWhere((k) => k === 'a' || k.startsWith('a/'));
    expect(kept.bytesOf('a/x')).toBeUndefined();
    expect(kept.bytesOf('a/y/z')).toBeUndefined();
    expect(kept.bytesOf('ab')).toEqual(bytes(1));
    expect(kept.bytesOf('b')).toEqual(bytes(1));
    kept.keep('a/w', bytes(2), readStarted);
    expect(kept.bytesOf('a/w')).toBeUndefined();
  });
});
