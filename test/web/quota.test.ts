import { afterAll, beforeAll, expect, it } from 'vitest';
import { startPage, type PageFixture } from './fixture.js';

let fx: PageFixture;
beforeAll(async () => {
  fx = await startPage();
});
afterAll(async () => fx?.stop());

// A real full quota: Chromium's own quota keeper, lowered for the page's origin through CDP.
it.each(['opfs', 'indexeddb'])(
  '%s: a full quota is QUOTA_EXCEEDED and leaves nothing half-written',
  async (backend) => {
    const context = await fx.browser.newContext();
    const page = await context.newPage();
    await page.goto(fx.server.url);
    await page.waitForFunction(() => (window as any).sandpit);
    const cdp = await context.newCDPSession(page);
    const origin = new URL(fx.server.url).origin;
    const setQuota = (quotaSize: number) => cdp.send('Storage.overrideQuotaForOrigin', { origin, quotaSize });

    // Lowered before the workspace opens: Chromium hands out quota to a running worker ahead of use.
    await setQuota(512 * 1024);
    await page.evaluate(async (backend) => {
      const w = window as any;
      w.ws = await w.sandpit.connectWorkspace({ backend, name: `quota-${backend}`, snapshots: false });
      const r = await w.ws.call('write_file', { path: 'keep.txt', content: 'small and safe\n' });
      if (!r.ok) throw new Error(JSON.stringify(r));
    }, backend);

    const big = 'x'.repeat(4 * 1024 * 1024);
    const [created, replaced, keep, absent] = await page.evaluate(async (big) => {
      const ws = (window as any).ws;
      return [
        await ws.call('write_file', { path: 'big.txt', content: big }),
        await ws.call('write_file', { path: 'keep.txt', content: big }),
        await ws.call('read_file', { path: 'keep.txt' }),
        await ws.call('exists', { path: 'big.txt' }),
      ];
    }, big);
    expect(created).toMatchObject({ ok: false, error: { code: 'QUOTA_EXCEEDED' } });
    expect(replaced).toMatchObject({ ok: false, error: { code: 'QUOTA_EXCEEDED' } });
    expect(keep).toMatchObject({ ok: true, result: { content: 'small and safe\n' } });
    expect(absent).toMatchObject({ ok: true, result: { exists: false } });

    await setQuota(10 * 1024 * 1024 * 1024);
    const after = await page.evaluate(
      async (big) => (window as any).ws.call('write_file', { path: 'big.txt', content: big }),
      big,
    );
    expect(after).toMatchObject({ ok: true, result: { created: true } });
    await context.close();
  },
);
