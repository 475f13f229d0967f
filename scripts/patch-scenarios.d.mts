import type { PatchScenario } from '../src/conformance/index.js';

export function readScenarios(dir: string): PatchScenario[];
export function scenariosModule(scenarios: PatchScenario[]): string;
