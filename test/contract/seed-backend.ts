export { seedTree } from '../../src/conformance/seed.js';
