import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readScenarios, scenariosModule } from '../../scripts/patch-scenarios.mjs';
import { loadScenarios } from '../patch/scenarios.js';

const folder = fileURLToPath(new URL('../patch/scenarios', import.meta.url));

describe('sandpit/conformance/patch-scenarios', () => {
  it('reads the scenario folders exactly as the repository tests do', () => {
    expect(readScenarios(folder)).toEqual(loadScenarios());
  });

  it('round-trips every byte through the generated module', async () => {
    const source = scenariosModule(readScenarios(folder));
    const mod = await import(`data:text/javascript;base64,${Buffer.from(source).toString('base64')}`);
    expect(mod.patchScenarios).toEqual(loadScenarios());
    expect(mod.patchScenarios.length).toBeGreaterThanOrEqual(40);
  });
});
