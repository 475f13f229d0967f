export { enc, open, type Harness } from '../../src/conformance/harness.js';
