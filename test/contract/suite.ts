import { describe, expect, it } from 'vitest';
import { runConformance } from '../../src/conformance/index.js';
import { loadScenarios } from '../patch/scenarios.js';
import type { FaultPoints } from '../../src/conformance/index.js';
import type { BackendUnderTest } from './backend.js';

const patchScenarios = loadScenarios();

/**
 * Every tool's contract, run against one backend: the exported suite plus the scenario folders.
 * `faultPoints` and `faultConcurrency` as the suite takes them: the browser's stores pass
 * `'spread'` unless HARDENING=full, and run a few failure points at once.
 */
export function runContract(backend: BackendUnderTest, faultPoints: FaultPoints = 'every', faultConcurrency = 1): void {
  runConformance(backend, { describe, it, expect, patchScenarios, faultPoints, faultConcurrency });
}
