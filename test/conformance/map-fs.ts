/** The example backend ships with the conformance entry; the tests import it from here as before. */
export { createMapFs, type MapFsFlaws } from '../../src/conformance/example.js';
