// isomorphic-git imports all of pako, but in a browser it only inflates with it: every browser
// Sandpit supports has CompressionStream, which isomorphic-git (and src/snapshots/pack.ts) use to
// deflate. Leaving pako's deflate half out of the worker keeps about 8 KiB of gzip out of it.
// @ts-expect-error pako ships no types for its CommonJS parts
import { Inflate, inflate } from 'pako/lib/inflate.js';

function deflate(): never {
  throw new Error('this browser has no CompressionStream, which Sandpit needs to write git objects');
}

export default { Inflate, inflate, deflate };
