import './polyfills.js';
import { expose } from 'comlink';
import { createHost, warmUp } from './host.js';
import { WARM_MESSAGE, type WarmMessage } from './protocol.js';

/** The Sandpit worker: hosts one workspace and answers the page through comlink (see client.ts). */
expose(createHost());
void warmUp().then((ok) =>
  (self as unknown as { postMessage(message: WarmMessage): void }).postMessage({ type: WARM_MESSAGE, ok }),
);
