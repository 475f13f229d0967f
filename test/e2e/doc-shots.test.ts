import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../bundle/web-build.js';
import { shots, startPlayground, type Playground } from './playground.js';
import { callTool, openPreview, previewFrame } from './preview-steps.js';

/**
 * The screenshots docs/ and the README show, taken on a workspace of their own: a fresh page,
 * the sample project added the way a person adds it, and one patch an agent might make, so
 * nothing another test left behind shows. `UPDATE_DOC_SHOTS=1` writes them to docs/; otherwise
 * they go to the test output folder, and docs/ keeps the copies a person looked at.
 */
let pg: Playground;
beforeAll(async () => {
  pg = await startPlayground({ withPreviewOrigin: true, storage: 'memory' });
}, 180_000);
afterAll(async () => {
  await pg?.stop();
});

const page = () => pg.page;
const folder = process.env.UPDATE_DOC_SHOTS === '1' ? join(repoRoot, 'docs') : shots;
const greeting =
  '*** Begin Patch\n*** Update File: src/greet.ts\n@@\n-  return `Hello, ${name}!`;\n+  return `Hello, ${name}! Welcome to the sandpit.`;\n*** End Patch\n';

async function shoot(name: string): Promise<void> {
  // A toast from an earlier step would cover the panel the picture is about; at 800x700 the
  // page scrolls as one and the side panel starts below the fold, so scroll to it as a person would.
  await page().evaluate(() => {
    document.querySelectorAll('.toast').forEach((t) => t.remove());
    document.querySelector('.side')!.scrollIntoView({ block: 'start' });
  });
  await page().screenshot({ path: join(folder, name) });
}

describe('the screenshots in docs/', () => {
  it('takes the review and preview panels at 1400x900 and 800x700, on the sample project', async () => {
    await page().click('#seed-sample');
    await page().waitForSelector('#file-tree li[data-path="src/page.tsx"]');
    const patched = await callTool(page(), 'apply_patch', { patch: greeting });
    expect(patched.ok).toBe(true);
    for (const [width, height] of [
      [1400, 900],
      [800, 700],
    ] as const) {
      await page().setViewportSize({ width, height });
      await page().click('#file-tree li[data-path="src/greet.ts"]');
      await page().waitForFunction(() => document.getElementById('editor-path')!.textContent === 'src/greet.ts');
      await page().click('#tab-review');
      // Unified: side by side breaks code lines mid-word in a panel this wide.
      await page().click('#diff-unified');
      await page().waitForFunction(() =>
        document.getElementById('diff')!.textContent!.includes('Welcome to the sandpit'),
      );
      await shoot(`playground-review-${width}x${height}.png`);
      await openPreview(page());
      await expect
        .poll(() => previewFrame(page()).locator('h1').textContent(), { timeout: 15_000 })
        .toContain('Welcome to the sandpit');
      await shoot(`playground-preview-${width}x${height}.png`);
    }
    expect(pg.pageErrors).toEqual([]);
  });
});
