'use strict';
// memfs's Volume requires its snapshot codecs (CBOR and JSON, about 63 KB) and its tree printer
// for methods Sandpit never calls: the Volume behind createMemoryFs stays private, and only its
// promises API is used. Every browser build carried them twice (the page's copy and the worker's),
// for a consumer's bundler to parse and minify; these stand in, and say so if ever called.
function unused(name) {
  return function () {
    throw new Error('memfs ' + name + ' is not part of Sandpit\'s browser build');
  };
}

module.exports = {
  toTreeSync: unused('toTree'),
  toSnapshotSync: unused('toSnapshot'),
  fromSnapshotSync: unused('fromSnapshot'),
  toBinarySnapshotSync: unused('toBinarySnapshot'),
  fromBinarySnapshotSync: unused('fromBinarySnapshot'),
  toJsonSnapshotSync: unused('toJsonSnapshot'),
  fromJsonSnapshotSync: unused('fromJsonSnapshot'),
};
