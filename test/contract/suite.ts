import { describe, expect, it } from 'vitest';
import { runConformance } from '../../src/conformance/index.js';
import { loadScenarios } from '../patch/scenarios.js';
import type { BackendUnderTest } from './backend.js';

const patchScenarios = loadScenarios();

/** Every tool's contract, run against one backend: the exported suite plus the scenario folders. */
export function runContract(backend: BackendUnderTest): void {
  runConformance(backend, { describe, it, expect, patchScenarios });
}
