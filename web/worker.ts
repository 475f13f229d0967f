import './polyfills.js';
import { expose } from 'comlink';
import { createHost } from './host.js';

/** The Sandpit worker: hosts one workspace and answers the page through comlink (see client.ts). */
expose(createHost());
