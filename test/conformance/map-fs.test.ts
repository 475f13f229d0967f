import { describe, expect, it, onTestFinished, test, vi } from 'vitest';
import { runConformance } from '../../src/conformance/index.js';
import { collectingRunner, failures } from './collect.js';
import { loadScenarios } from '../patch/scenarios.js';
import { createMapFs } from './map-fs.js';

// The how-to in the README, as a test: a backend that is not one of Sandpit's own passes, the
// apply_patch scenario folders included (a user imports them from sandpit/conformance/patch-scenarios).
runConformance(() => createMapFs(), {
  describe,
  test,
  expect,
  name: 'map',
  symlinks: false,
  patchScenarios: loadScenarios(),
});

describe('the conformance suite on a broken backend', () => {
  it('names the tests a rename that cannot replace a file breaks, and passes the rest', async () => {
    const { runner, tests } = collectingRunner();
    runConformance(() => createMapFs({ renameNoReplace: true }), { ...runner, name: 'no-replace', symlinks: false });
    expect(tests.length).toBeGreaterThan(150);
    expect(tests[0]!.name).toMatch(/^contract: no-replace > read_file > /);
    const failed = await failures(tests);
    expect(failed).toContain(
      'contract: no-replace > exists, create_directory, move_path, delete_path > moves a file into a new folder and refuses to clobber without overwrite',
    );
    // Only moves over an existing file need the replacing rename; nothing else may fail.
    for (const name of failed) expect(name).toMatch(/move_path/);
  });

  it('catches errors without a Node code', async () => {
    // isomorphic-git logs every uncoded error it swallows; that is expected noise here.
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    onTestFinished(() => log.mockRestore());
    const { runner, tests } = collectingRunner();
    runConformance(() => createMapFs({ uncodedErrors: true }), { ...runner, name: 'uncoded', symlinks: false });
    const failed = await failures(tests);
    expect(failed).toContain(
      'contract: uncoded > read_file > refuses binary, Office/PDF, missing files and directories with their codes',
    );
    expect(failed.length).toBeGreaterThan(20);
  });
});
