import { crc32 as zlibCrc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { crc32 } from '../../src/fs/hash/crc32.js';

/** The byte-a-step CRC-32 the sliced one replaced: the reference it must agree with. */
function byteAtATime(bytes: Uint8Array, seed = 0): number {
  let crc = (seed ^ 0xffffffff) >>> 0;
  for (const b of bytes) {
    crc ^= b;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

describe('crc32', () => {
  const random = new Uint8Array(4099);
  for (let i = 0; i < random.length; i++) random[i] = (i * 2654435761) >>> 23;

  it('agrees with zlib and the byte-at-a-time CRC at every length around the 8-byte steps', () => {
    for (let n = 0; n <= 70; n++) {
      const bytes = random.subarray(3, 3 + n);
      expect(crc32(bytes)).toBe(byteAtATime(bytes));
      expect(crc32(bytes)).toBe(zlibCrc32(bytes));
    }
    expect(crc32(random)).toBe(zlibCrc32(random));
    expect(crc32(new Uint8Array(1000).fill(0xff))).toBe(zlibCrc32(new Uint8Array(1000).fill(0xff)));
  });

  it('continues from a seed as if the parts were one buffer', () => {
    for (const cut of [0, 1, 7, 8, 9, 100, 4099]) {
      const whole = crc32(random);
      expect(crc32(random.subarray(cut), crc32(random.subarray(0, cut)))).toBe(whole);
      expect(crc32(random.subarray(cut), byteAtATime(random.subarray(0, cut)))).toBe(whole);
    }
  });

  it('gives the known check value of "123456789"', () => {
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
  });
});
