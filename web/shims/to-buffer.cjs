'use strict';
// sha.js (isomorphic-git's SHA-1) converts its input with `to-buffer`, whose checks for old engines
// pull in a chain of typed-array and intrinsic polyfills. A browser with Uint8Array needs none of
// them: this keeps to-buffer's behaviour for every input it accepts, in a few lines.
var Buffer = require('buffer').Buffer;

module.exports = function toBuffer(data, encoding) {
  if (Buffer.isBuffer(data)) return data;
  if (typeof data === 'string') return Buffer.from(data, encoding);
  if (ArrayBuffer.isView(data)) return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  if (Array.isArray(data)) {
    for (var i = 0; i < data.length; i += 1) {
      var x = data[i];
      if (typeof x !== 'number' || x < 0 || x > 255 || ~~x !== x) throw new RangeError('Array items must be numbers in the range 0-255.');
    }
    return Buffer.from(data);
  }
  throw new TypeError('The "data" argument must be a string, an Array, a Buffer, a Uint8Array, or a DataView.');
};
