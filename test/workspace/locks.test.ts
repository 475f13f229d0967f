import { describe, expect, it } from 'vitest';
import { PathLocks } from '../../src/workspace/locks.js';

/** A step that can be released from outside, to hold a lock open while others queue. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

describe('PathLocks', () => {
  it('serialises holders of one path in the order they asked', async () => {
    const locks = new PathLocks();
    const order: string[] = [];
    const g = gate();
    const first = locks.run(['a.txt'], async () => {
      order.push('1 start');
      await g.opened;
      order.push('1 end');
    });
    const second = locks.run(['a.txt'], async () => {
      order.push('2');
    });
    const third = locks.run(['a.txt'], async () => {
      order.push('3');
    });
    await settle();
    expect(order).toEqual(['1 start']);
    g.open();
    await Promise.all([first, second, third]);
    expect(order).toEqual(['1 start', '1 end', '2', '3']);
  });

  it('lets different paths run together', async () => {
    const locks = new PathLocks();
    const g = gate();
    let ranB = false;
    const a = locks.run(['a.txt'], () => g.opened);
    const b = locks.run(['b.txt'], async () => {
      ranB = true;
    });
    await b;
    expect(ranB).toBe(true);
    g.open();
    await a;
  });

  it('treats a folder and everything below it as overlapping, and the root as overlapping all', async () => {
    const cases: Array<[string, string, boolean]> = [
      ['src', 'src/a.ts', true],
      ['src/a.ts', 'src', true],
      ['', 'x/y', true],
      ['src', 'src2/a.ts', false],
      ['src/a', 'src/ab', false],
      ['a/b', 'a/b', true],
    ];
    for (const [held, wanted, overlap] of cases) {
      const locks = new PathLocks();
      const g = gate();
      let ran = false;
      const first = locks.run([held], () => g.opened);
      const second = locks.run([wanted], async () => {
        ran = true;
      });
      await settle();
      expect(ran, `${held} vs ${wanted}`).toBe(!overlap);
      g.open();
      await Promise.all([first, second]);
      expect(ran).toBe(true);
    }
  });

  it('takes several paths at once and waits for all of them', async () => {
    const locks = new PathLocks();
    const g = gate();
    const order: string[] = [];
    const hold = locks.run(['b.txt'], async () => {
      await g.opened;
      order.push('b');
    });
    const move = locks.run(['a.txt', 'b.txt'], async () => {
      order.push('move');
    });
    await settle();
    expect(order).toEqual([]);
    g.open();
    await Promise.all([hold, move]);
    expect(order).toEqual(['b', 'move']);
  });

  it('does not let later callers starve an earlier waiter', async () => {
    const locks = new PathLocks();
    const g = gate();
    const order: string[] = [];
    const holdA = locks.run(['a'], async () => {
      await g.opened;
      order.push('a');
    });
    const wantsAB = locks.run(['a', 'b'], async () => {
      order.push('ab');
    });
    const wantsB = locks.run(['b'], async () => {
      order.push('b');
    });
    await settle();
    expect(order).toEqual([]);
    g.open();
    await Promise.all([holdA, wantsAB, wantsB]);
    expect(order).toEqual(['a', 'ab', 'b']);
  });

  it('releases after a failure and passes the failure on', async () => {
    const locks = new PathLocks();
    await expect(
      locks.run(['a'], async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    await expect(locks.run(['a'], async () => 'next')).resolves.toBe('next');
  });

  it('accepts the same key twice in one request', async () => {
    const locks = new PathLocks();
    await expect(locks.run(['a', 'a'], async () => 1)).resolves.toBe(1);
    await expect(locks.run(['a'], async () => 2)).resolves.toBe(2);
  });
});
