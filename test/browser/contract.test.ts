import '../../web/polyfills.js';
import { indexedDbBackend } from '../contract/indexeddb-backend.js';
import { opfsBackend } from '../contract/opfs-backend.js';
import { runContract } from '../contract/suite.js';

// The browser's own stores, in the page. Memory runs the same suite in Node (test/contract), on
// the same code: here it only doubled the browser project's time, which is the suite's longest.
runContract(indexedDbBackend);
runContract(opfsBackend());
