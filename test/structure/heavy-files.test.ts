import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HEAVY_FILES, LONG_E2E_FILES } from '../support/heavy-first-sequencer.js';

describe('the files the run starts first', () => {
  it('are test files that exist: a renamed file would silently fall back to vitest order', () => {
    const missing = [...HEAVY_FILES, ...LONG_E2E_FILES].filter(
      (file) => !existsSync(new URL(`../../${file}`, import.meta.url)) || !file.endsWith('.test.ts'),
    );
    expect(missing).toEqual([]);
  });
});
