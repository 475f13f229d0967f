/** The backend shape lives with the exported suite; these names stay for the tests that use them. */
export type { BackendUnderTest, ConformanceBackend, MadeBackend } from '../../src/conformance/backend.js';
