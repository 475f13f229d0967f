/// <reference types="vite/client" />
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import files from 'virtual:patch-scenario-files';
import { afterEach, describe, expect, it } from 'vitest';
import { scenarioFileTexts } from '../support/scenario-files.js';
import { loadScenarios, scenariosFrom } from './scenarios.js';

const folder = fileURLToPath(new URL('./scenarios', import.meta.url));

describe('the scenario files module (test/support/scenario-files.ts)', () => {
  let temp = '';
  afterEach(() => temp && rmSync(temp, { recursive: true, force: true }));

  it('holds every file of the folder with the text on disk', () => {
    const onDisk = readdirSync(folder, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => join(e.parentPath, e.name));
    expect(Object.keys(files)).toHaveLength(onDisk.length);
    expect(onDisk.length).toBeGreaterThanOrEqual(200);
    for (const file of onDisk) {
      const key = `./scenarios/${file
        .slice(folder.length + 1)
        .split('\\')
        .join('/')}`;
      expect(files[key], key).toBe(readFileSync(file, 'utf-8'));
    }
  });

  it('gives the keys, order and text of the glob it replaced, so loadScenarios is unchanged', () => {
    const glob = import.meta.glob('./scenarios/**/*', { query: '?raw', import: 'default', eager: true });
    expect(Object.entries(files)).toEqual(Object.entries(glob));
    expect(loadScenarios()).toEqual(scenariosFrom(glob as Record<string, string>));
    // The .esc notation still decodes to the bytes: CR, BOM and UTF-16 inputs are there as bytes.
    const inputs = loadScenarios().flatMap((s) => Object.values(s.input));
    expect(inputs.some((b) => b.includes(13))).toBe(true);
    expect(inputs.some((b) => b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf)).toBe(true);
  });

  it('still throws on a file of no known kind in a scenario folder', () => {
    temp = mkdtempSync(join(tmpdir(), 'scenario-files-'));
    mkdirSync(join(temp, '001_odd'));
    writeFileSync(join(temp, '001_odd', 'patch.txt'), '*** Begin Patch\n*** End Patch\n');
    writeFileSync(join(temp, '001_odd', 'notes.md'), 'x');
    const texts = scenarioFileTexts(temp);
    expect(Object.keys(texts)).toEqual(['./scenarios/001_odd/notes.md', './scenarios/001_odd/patch.txt']);
    expect(() => scenariosFrom(texts)).toThrow('unknown file notes.md in scenario 001_odd');
  });
});
