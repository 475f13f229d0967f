import { describe, expect, it } from 'vitest';
import { coalesced } from '../../demo/page/dom.js';

// Issue 38: the playground's tree, timeline and hunks redraw behind one gate, so a burst of change
// events costs two redraws, and whoever asked still sees a redraw that began after asking.

/** A run the test finishes by hand, recording the argument each run began with. */
function gatedRuns() {
  const began: string[] = [];
  const finishers: Array<() => void> = [];
  const run = (arg: string) =>
    new Promise<void>((resolve) => {
      began.push(arg);
      finishers.push(resolve);
    });
  const finishNext = async () => {
    await new Promise((resolve) => setTimeout(resolve, 0));
    finishers.shift()?.();
  };
  return { began, run, finishNext };
}

describe('coalesced', () => {
  it('folds calls made during a run into one more run, with their arguments merged', async () => {
    const { began, run, finishNext } = gatedRuns();
    const refresh = coalesced(run, (a, b) => `${a}+${b}`);
    const settled: string[] = [];
    const first = refresh('a').then(() => settled.push('a'));
    const later = ['b', 'c', 'd'].map((arg) => refresh(arg).then(() => settled.push(arg)));
    expect(began).toEqual(['a']);
    await finishNext();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(began).toEqual(['a', 'b+c+d']);
    expect(settled).toEqual([]);
    await finishNext();
    await Promise.all([first, ...later]);
    expect(began).toEqual(['a', 'b+c+d']);
    // Nobody's promise settled before the run that began after their call had ended.
    expect(settled).toEqual(['a', 'b', 'c', 'd']);
  });

  it('keeps the latest argument by default and starts afresh once idle', async () => {
    const { began, run, finishNext } = gatedRuns();
    const refresh = coalesced(run);
    const burst = [refresh('1'), refresh('2'), refresh('3')];
    await finishNext();
    await finishNext();
    await Promise.all(burst);
    const next = refresh('4');
    await finishNext();
    await next;
    expect(began).toEqual(['1', '3', '4']);
  });

  it('rejects the callers of a run that fails, and the next call runs again', async () => {
    let calls = 0;
    const refresh = coalesced(async () => {
      calls++;
      if (calls === 1) throw new Error('the workspace closed');
    });
    await expect(refresh()).rejects.toThrow('the workspace closed');
    await expect(refresh()).resolves.toBeUndefined();
    expect(calls).toBe(2);
  });
});
