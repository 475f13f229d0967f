import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { editingSteps } from './editing-steps.js';
import { startPlayground, type Playground } from './playground.js';
import { storageSteps } from './storage-steps.js';
import { transferSteps } from './transfer-steps.js';

/**
 * The playground end to end: one build, one `vite preview`, one page, driven as a person would.
 * The groups run in order and share the page, each starting where the last one left it.
 */
let pg: Playground;
beforeAll(async () => {
  pg = await startPlayground({ storage: 'memory', leaveMemoryFreely: true });
}, 120_000);
afterAll(async () => pg?.stop());

describe('the playground served by vite preview', () => {
  describe('editing and review', () => editingSteps(() => pg));
  describe('replay and files in and out', () => transferSteps(() => pg));
  describe('persistent storage', () => storageSteps(() => pg));

  it('made no request beyond the local server and logged no errors', () => {
    expect(pg.foreignRequests).toEqual([]);
    expect(pg.pageErrors).toEqual([]);
  });
});
