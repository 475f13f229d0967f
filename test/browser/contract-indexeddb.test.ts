import '../../web/polyfills.js';
import { inject } from 'vitest';
import { indexedDbBackend } from '../contract/indexeddb-backend.js';
import { runContract } from '../contract/suite.js';
import { FAULT_CONCURRENCY } from './fault-concurrency.js';

// The browser's own stores, in the page: IndexedDB here, OPFS in contract-opfs.test.ts (which says
// why the failing-storage tests take a spread of their points unless HARDENING=full).
runContract(indexedDbBackend, inject('hardening').full ? 'every' : 'spread', FAULT_CONCURRENCY);
