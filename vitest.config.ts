import { defineConfig } from 'vitest/config';
import { playwright } from '@vitest/browser-playwright';
import { browserAliases, lexerAlias } from './web/browser-aliases.js';
import { gitCommands } from './test/browser/git-commands.js';
import { npmCommands } from './test/browser/npm-commands.js';
import { cacheModulesForTheRun } from './test/browser/module-cache.js';
import { isRun, serveBuiltWorker } from './test/browser/built-worker.js';
import { recordFigures, type FigureRow } from './test/hardening/figures.js';
import { FULL, SEED } from './test/hardening/sizes.js';
import { CHROMIUM_ARGS, findChromium } from './scripts/test-setup.mjs';
import { HeavyFirstSequencer } from './test/support/heavy-first-sequencer.js';
import { scenarioFiles } from './test/support/scenario-files.js';

// Files whose assertions read the whole process: its memory peak, or what one import installs in it.
const ownProcess = ['test/git/clone-memory.test.ts', 'test/snapshots/platform-native.test.ts'];

// A test fails on what it asserts, not on how busy the machine is: no node test carries a wall
// clock of its own (one failed at 30 s under load), and this limit only ends a test that hangs. A
// webpack build under load 16 once took 8 minutes; a full hardening run takes an hour.
const HANG_GUARD_MS = process.env.HARDENING === 'full' ? 3_600_000 : 900_000;

// SANDPIT_CPU_LOG=<file>: each node-side test file appends the CPU it and its children used;
// SANDPIT_CPU_PROFILE=<folder>: each writes a CPU profile of its test process (docs/development.md,
// where the suite's time goes); SANDPIT_TEST_CPU_LOG=<file>: each test appends its cgroup's CPU
// (test/support/cpu-per-test.ts).
const setupFiles = [
  ...(process.env.SANDPIT_CPU_LOG ? ['test/support/cpu-log.ts'] : []),
  ...(process.env.SANDPIT_CPU_PROFILE ? ['test/support/cpu-profile.ts'] : []),
  ...(process.env.SANDPIT_TEST_CPU_LOG ? ['test/support/cpu-per-test.ts'] : []),
];

export default defineConfig({
  define: { global: 'globalThis' },
  // The patch scenario files as one module, for every project that loads test/patch/scenarios.ts.
  plugins: [scenarioFiles()],
  test: {
    // Vitest's default is a worker per core less one: one on 2 cores, which left a core idle for
    // the half of the run after the browser project ends. The browser project opens two pages.
    maxWorkers: 2,
    // A fresh clone (CI) has no record of how long files take (test/support/heavy-first-sequencer.ts).
    sequence: { sequencer: HeavyFirstSequencer },
    // expect.poll waits for a state; its default second failed tests under load. A hang is still
    // ended, by the test's own limit.
    expect: { poll: { timeout: 60_000 } },
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          alias: [lexerAlias],
          include: ['test/**/*.test.ts'],
          exclude: ['test/browser/**', 'test/e2e/**', ...ownProcess],
          globalSetup: ['test/cli/build-global-setup.ts'],
          setupFiles,
          testTimeout: HANG_GUARD_MS,
          hookTimeout: HANG_GUARD_MS,
          // The files of one worker share its module cache: importing the sources again for each
          // file was half the time of the small ones. Files that need a process of their own are
          // the next project.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'node-own-process',
          environment: 'node',
          alias: [lexerAlias],
          include: ownProcess,
          globalSetup: ['test/cli/build-global-setup.ts'],
          setupFiles,
          testTimeout: HANG_GUARD_MS,
          hookTimeout: HANG_GUARD_MS,
        },
      },
      {
        extends: true,
        test: {
          // The playground driven by Playwright: each test is a person's whole task, many steps
          // behind one another on a machine the other projects keep busy; each step still names
          // itself after Playwright's own default (test/e2e/playground.ts).
          name: 'e2e',
          environment: 'node',
          alias: [lexerAlias],
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: [
            'test/cli/build-global-setup.ts',
            'test/e2e/browser-global-setup.ts',
            'test/e2e/demo-global-setup.ts',
          ],
          setupFiles,
          testTimeout: 120_000,
          hookTimeout: 240_000,
          // A worker runs file after file: a fresh one per file cost a Node start and a load of
          // Playwright and Vite each time. Each worker launches one Chromium for its files
          // (test/e2e/playground.ts); each file still opens its own browser context and server,
          // and keeps its state in its own module.
          isolate: false,
        },
      },
      {
        extends: true,
        // A Worker or a test file's frame loads its modules from Chromium's cache during a run (test/browser/module-cache.ts).
        // The tests' workspace workers run the package's built worker (test/browser/built-worker.ts).
        plugins: [cacheModulesForTheRun(), serveBuiltWorker()],
        test: {
          name: 'browser',
          alias: browserAliases,
          include: ['test/browser/**/*.test.ts'],
          globalSetup: ['test/browser/git-global-setup.ts', 'test/browser/npm-global-setup.ts'],
          testTimeout: 60_000,
          provide: { hardening: { full: FULL, seed: SEED }, builtWorker: isRun() },
          browser: {
            enabled: true,
            headless: true,
            // Two pages, each running its own files: a page waits on OPFS and IndexedDB about 60% of
            // the time, which the other page fills. The same CPU, about a quarter less wall time
            // (docs/development.md). Each page is a private context of its own (the provider makes
            // one per page), and a page runs file after file in it, so each file names its stores
            // with a random part and never meets another's.
            fileParallelism: true,
            screenshotFailures: false,
            // Private contexts on purpose: their OPFS and IndexedDB live in the browser's memory. A
            // profile on disk (the provider's `persistentContext`, which it ignores with two pages)
            // cost more CPU for the page's OPFS and IndexedDB files and about the same for the
            // worker's tree layout; only the packed layout gained, about 8 CPU-seconds
            // (docs/development.md, "A Chromium profile on disk for the browser project").
            provider: playwright({
              // `npm test` runs scripts/test-setup.mjs first, which installs a Chromium when none is found.
              launchOptions: { executablePath: findChromium() ?? '/usr/bin/chromium', args: CHROMIUM_ARGS },
            }),
            instances: [{ browser: 'chromium' }],
            commands: {
              recordHardeningFigures: (_ctx, row: FigureRow) => recordFigures(row),
              ...gitCommands,
              ...npmCommands,
            },
          },
        },
      },
    ],
  },
});
