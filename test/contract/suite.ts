import { describe, expect, it } from 'vitest';
import { runConformance } from '../../src/conformance/index.js';
import { loadScenarios } from '../patch/scenarios.js';
import type { FaultPoints } from '../../src/conformance/index.js';
import type { BackendUnderTest } from './backend.js';

const patchScenarios = loadScenarios();

/**
 * Every tool's contract, run against one backend: the exported suite plus the scenario folders.
 * `faultPoints` as the suite takes it: the browser's stores pass `'spread'` unless HARDENING=full.
 */
export function runContract(backend: BackendUnderTest, faultPoints: FaultPoints = 'every'): void {
  runConformance(backend, { describe, it, expect, patchScenarios, faultPoints });
}
