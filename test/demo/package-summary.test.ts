import { describe, expect, it } from 'vitest';
import { parseUnifiedDiff } from '../../demo/review/diff-view.js';
import { packageChanges } from '../../demo/review/package-summary.js';

// Issue 34: the Review panel shows an install as packages and versions, read from the change's diff.
const lockDiff = [
  'diff --git a/package-lock.json b/package-lock.json',
  '--- a/package-lock.json',
  '+++ b/package-lock.json',
  '@@ -10,11 +10,15 @@',
  '     "node_modules/left": {',
  '-      "version": "1.0.0",',
  '-      "resolved": "http://registry.test/left/-/left-1.0.0.tgz"',
  '+      "version": "1.2.0",',
  '+      "resolved": "http://registry.test/left/-/left-1.2.0.tgz"',
  '     },',
  '-    "node_modules/old-thing": {',
  '-      "version": "0.3.1",',
  '-      "resolved": "http://registry.test/old-thing/-/old-thing-0.3.1.tgz"',
  '-    },',
  '+    "node_modules/@scope/new-thing": {',
  '+      "version": "2.0.0",',
  '+      "resolved": "http://registry.test/@scope/new-thing/-/new-thing-2.0.0.tgz"',
  '+    },',
  '+    "node_modules/right/node_modules/left": {',
  '+      "version": "2.0.0",',
  '+      "license": "MIT"',
  '+    },',
  '     "node_modules/right": {',
  '       "version": "3.0.0",',
  '       "dependencies": {',
  '',
].join('\n');

describe('the Review panel’s package summary', () => {
  it('reads added, removed, changed and nested packages from the lock’s hunks, and skips untouched ones', () => {
    expect(packageChanges(parseUnifiedDiff(lockDiff))).toEqual([
      { name: '@scope/new-thing', location: 'node_modules/@scope/new-thing', kind: 'added', to: '2.0.0' },
      { name: 'left', location: 'node_modules/left', kind: 'changed', from: '1.0.0', to: '1.2.0' },
      { name: 'old-thing', location: 'node_modules/old-thing', kind: 'removed', from: '0.3.1' },
      { name: 'left', location: 'node_modules/right/node_modules/left', kind: 'added', to: '2.0.0' },
    ]);
  });

  it('reads a new package’s own package.json when node_modules itself is in the change', () => {
    const diff = [
      '--- /dev/null',
      '+++ b/node_modules/react/package.json',
      '@@ -0,0 +1,3 @@',
      '+{',
      '+  "name": "react",',
      '+  "version": "19.3.1"',
      '--- /dev/null',
      '+++ b/src/app.ts',
      '@@ -0,0 +1 @@',
      '+export {};',
      '',
    ].join('\n');
    expect(packageChanges(parseUnifiedDiff(diff))).toEqual([
      { name: 'react', location: 'node_modules/react', kind: 'added', to: '19.3.1' },
    ]);
  });

  it('finds no package in a change that touched none', () => {
    const diff = [
      '--- a/package.json',
      '+++ b/package.json',
      '@@ -1 +1 @@',
      '-  "version": "1.0.0"',
      '+  "version": "1.0.1"',
      '',
    ];
    expect(packageChanges(parseUnifiedDiff(diff.join('\n')))).toEqual([]);
  });
});
