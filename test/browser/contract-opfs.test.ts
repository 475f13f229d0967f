import '../../web/polyfills.js';
import { inject } from 'vitest';
import { opfsBackend } from '../contract/opfs-backend.js';
import { runContract } from '../contract/suite.js';
import { FAULT_CONCURRENCY } from './fault-concurrency.js';

// The browser's own stores, in the page: OPFS here, IndexedDB in contract-indexeddb.test.ts. One
// file per store, so the two pages of the browser project run them side by side. Memory runs the
// same suite in Node (test/contract), on the same code: here it only doubled the project's time.
// A fresh store per failed operation is slow here: the failing-storage tests try every operation
// with EIO and a spread of the rest, and every one of them under HARDENING=full.
runContract(opfsBackend(), inject('hardening').full ? 'every' : 'spread', FAULT_CONCURRENCY);
