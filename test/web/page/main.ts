import * as core from '../../../src/index.js';
import * as sandpit from '../../../web/index.js';
import { runBenchmarks } from './bench.js';

/**
 * The page the Playwright tests and `npm run bench` drive: it only hands the browser entry to
 * the test through `window`, so every call goes through the real built worker.
 */
const w = window as unknown as Record<string, unknown>;
w.sandpit = sandpit;
w.sandpitCore = core;
w.sandpitBench = runBenchmarks;
document.getElementById('status')!.textContent = 'ready';
