import { describe, expect, it } from 'vitest';
import { createMemoryFs, createWorkspace } from '../../src/index.js';
import { hostPreview } from '../../web/host-preview.js';
import type { FileReply, LinkedBatch, LinkedFile } from '../../web/preview/messages.js';
import { givenWayTo, givingWayWhile, warmInTurns } from '../../web/warm-up.js';

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

  it('gives way to work that is not a verb as to a verb, and passes on its answer or its error', async () => {
    let inWork = false;
    const during: boolean[] = [];
    const work = givingWayWhile(async () => {
      inWork = true;
      await turns(20);
      inWork = false;
      return 'served';
    });
    const warmed = warmInTurns(Array.from({ length: 5 }, () => async () => void during.push(inWork)));
    expect(await work).toBe('served');
    expect(await warmed).toBe(true);
    expect(during).toEqual(Array(5).fill(false));
    await expect(givingWayWhile(() => Promise.reject(new Error('unreadable')))).rejects.toThrow('unreadable');
  });

  it("starts no load while a preview's channel serves a page and the modules it imports", async () => {
    const files: Record<string, string> = {
      'index.html': '<!doctype html><script type="module" src="main.tsx"></script>',
      'main.tsx': `${Array.from({ length: 12 }, (_, n) => `import { v${n} } from './m${n}.tsx';`).join('\n')}\nexport const all: number[] = [${Array.from({ length: 12 }, (_, n) => `v${n}`).join(', ')}];\n`,
    };
    for (let n = 0; n < 12; n++)
      files[`m${n}.tsx`] = `export const v${n}: number = ${n};\nexport const view = () => <p>{${n}}</p>;\n`;
    const ws = createWorkspace({ fs: createMemoryFs(files), root: '/' });
    const preview = hostPreview(async () => ws);
    const channel = new MessageChannel();
    await preview.verbs.previewConnect(
      channel.port1,
      { root: '', prefix: '/preview/s/', playgroundOrigin: 'http://127.0.0.1:1' },
      () => {},
    );
    // the Service Worker's request for the page: the reply port says when the worker took it, then
    // brings the page and every module it imports, served ahead
    const reply = new MessageChannel();
    const received = new Set<string>();
    const taken = new Promise<void>((resolve) => {
      reply.port1.onmessage = (event) => {
        const data = event.data as FileReply | LinkedFile | LinkedBatch | { type: string };
        if ('type' in data && data.type === 'sandpit-preview-taken') return resolve();
        const batch =
          'type' in data && data.type === 'sandpit-preview-linked-batch' ? (data as LinkedBatch).files : [data];
        for (const file of batch) received.add('path' in file ? file.path : 'index.html');
      };
    });
    channel.port2.postMessage({ type: 'sandpit-preview-request', path: '', referrer: '', navigation: true }, [
      reply.port2,
    ]);
    await taken;
    const seenAtEachLoad: number[] = [];
    expect(
      await warmInTurns(Array.from({ length: 4 }, () => async () => void seenAtEachLoad.push(received.size))),
    ).toBe(true);
    channel.port2.close();
    reply.port1.close();
    // every load came after the page and all 13 of its modules were sent
    expect(seenAtEachLoad).toEqual(Array(4).fill(14));
  });
});
