import { describe, expect, it } from 'vitest';
import { givenWayTo, warmInTurns } from '../../web/warm-up.js';

/** A few turns of the event loop: the verb below holds the worker across them, as a clone does. */
const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setTimeout(resolve, 0));
};

describe("the worker's warm-up", () => {
  it('starts no load while a verb runs, then loads every one, and says whether all came', async () => {
    let inVerb = false;
    const api = givenWayTo({
      async clone(files: number) {
        inVerb = true;
        await turns(20);
        inVerb = false;
        return files;
      },
    });
    const during: boolean[] = [];
    const loads = Array.from({ length: 9 }, () => async () => {
      during.push(inVerb);
    });
    const cloned = api.clone(2000);
    const warmed = warmInTurns(loads);
    expect(await cloned).toBe(2000);
    expect(await warmed).toBe(true);
    expect(during).toEqual(Array(9).fill(false));
    // one load that cannot be fetched: the rest still load, and the answer says so
    const partly: string[] = [];
    const failing = [
      async () => partly.push('a'),
      async () => Promise.reject(new Error('offline')),
      async () => partly.push('c'),
    ];
    expect(await warmInTurns(failing)).toBe(false);
    expect(partly.sort()).toEqual(['a', 'c']);
  });

  it('keeps the verbs as they answer, errors included', async () => {
    const api = givenWayTo({
      async ok(x: number) {
        return x + 1;
      },
      async refuse() {
        throw new Error('no such workspace');
      },
    });
    expect(await api.ok(1)).toBe(2);
    await expect(api.refuse()).rejects.toThrow('no such workspace');
  });
});
