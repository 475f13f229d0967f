import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS, PLAYWRIGHT_DISABLED_FEATURES } from '../../scripts/test-setup.mjs';

/** The features Playwright's own launcher turns off, read from the installed Playwright's source. */
function playwrightsOwnList(): string[] {
  const source = readFileSync(createRequire(import.meta.url).resolve('playwright-core/lib/coreBundle'), 'utf8');
  const start = source.indexOf('disabledFeatures = [');
  const end = source.indexOf('].filter(Boolean)', start);
  if (start < 0 || end < 0) throw new Error("Playwright's disabledFeatures list was not found in coreBundle.js");
  const body = source
    .slice(start, end)
    .split('\n')
    .filter((line) => !line.trim().startsWith('//'))
    .join('\n');
  return [...body.matchAll(/"([A-Za-z0-9]+)"/g)].map((m) => m[1]!);
}

describe("the test Chromium's switches", () => {
  it('keep every feature Playwright turns off, since Chromium heeds only the last --disable-features', () => {
    const own = playwrightsOwnList();
    expect(own.length).toBeGreaterThan(5);
    expect([...PLAYWRIGHT_DISABLED_FEATURES].sort()).toEqual([...own].sort());
    const ours = CHROMIUM_ARGS.filter((arg) => arg.startsWith('--disable-features='));
    expect(ours).toHaveLength(1);
    const listed = ours[0]!.slice('--disable-features='.length).split(',');
    for (const feature of own) expect(listed).toContain(feature);
    expect(listed).toEqual(expect.arrayContaining(['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup']));
  });
});
