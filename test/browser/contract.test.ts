import '../../web/polyfills.js';
import { inject } from 'vitest';
import { indexedDbBackend } from '../contract/indexeddb-backend.js';
import { opfsBackend } from '../contract/opfs-backend.js';
import { runContract } from '../contract/suite.js';

// The browser's own stores, in the page. Memory runs the same suite in Node (test/contract), on
// the same code: here it only doubled the browser project's time, which is the suite's longest.
// A fresh store per failed operation is slow here: the failing-storage tests try every operation
// with EIO and a spread of the rest, and every one of them under HARDENING=full.
const faultPoints = inject('hardening').full ? 'every' : 'spread';
runContract(indexedDbBackend, faultPoints);
runContract(opfsBackend(), faultPoints);
