import { describe, expect, it } from 'vitest';
import { runConformance } from '../../src/conformance/index.js';
import { createMapFs, type MapFsFlaws } from '../../src/conformance/example.js';
import { collectingRunner, failures } from './collect.js';

const group = 'contract: planted > WorkspaceFs itself > ';

/** Each planted bug, and the test of the suite that must name it. */
const PLANTED: Array<[keyof MapFsFlaws, string]> = [
  ['rmdirIgnoresNotEmpty', 'rmdir refuses a folder that still holds entries with ENOTEMPTY and removes nothing'],
  ['writeWithoutParent', 'writeFile into a folder that does not exist fails with ENOENT and creates nothing'],
  ['readReturnsStored', 'readFile gives a copy, and writeFile keeps one: changing those bytes later changes no file'],
];

describe('the conformance suite catches planted backend bugs', () => {
  it('passes the example backend without a flaw in the WorkspaceFs group', async () => {
    const { runner, tests } = collectingRunner();
    runConformance(() => createMapFs(), { ...runner, name: 'planted', symlinks: false });
    const own = tests.filter((t) => t.name.startsWith(group));
    expect(own.map((t) => t.name.slice(group.length))).toEqual(expect.arrayContaining(PLANTED.map(([, name]) => name)));
    expect(await failures(own)).toEqual([]);
  });

  it.each(PLANTED)('%s fails by name', async (flaw, name) => {
    const { runner, tests } = collectingRunner();
    runConformance(() => createMapFs({ [flaw]: true }), { ...runner, name: 'planted', symlinks: false });
    const failed = await failures(tests.filter((t) => t.name.startsWith(group)));
    expect(failed).toContain(`${group}${name}`);
  });
});
