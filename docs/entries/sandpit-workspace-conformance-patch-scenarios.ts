/**
 * The apply_patch scenario folders Sandpit's own backends pass, packed as data at build time:
 * `runConformance(makeFs, { ..., patchScenarios })` runs each against your backend.
 * @module sandpit-workspace/conformance/patch-scenarios
 */
import type { PatchScenario } from '../../src/conformance/index.js';

// The package's module is generated (scripts/patch-scenarios.mjs); this is its declaration file.
/** The apply_patch scenario folders Sandpit's own backends pass: pass them as `patchScenarios`. */
export declare const patchScenarios: PatchScenario[];
export default patchScenarios;
