import type { FixturePackage } from '../support/npm-registry.js';

const leaf = (name: string, version = '1.0.0', more: Partial<FixturePackage> = {}): FixturePackage => ({
  name,
  version,
  ...more,
});

/**
 * A tree of 22 packages: `shared` in two majors (b's ^2 must nest under b), a scoped package, a
 * peer dependency (plugin needs host, which nothing else names), a `.bin`, a dev dependency, an
 * install script, a dist-tag, an optional package for another OS and a chain five deep.
 */
export const FIXTURE_PACKAGES: FixturePackage[] = [
  leaf('a', '1.0.0', { dependencies: { l1: '^1.0.0', l2: '~1.0.0', shared: '^1.0.0' } }),
  leaf('a', '1.1.0', { dependencies: { l1: '^1.0.0', l2: '~1.0.0', shared: '^1.0.0' } }),
  leaf('b', '1.0.0', { dependencies: { shared: '^2.0.0', l3: '1.x' } }),
  leaf('shared', '1.0.0'),
  leaf('shared', '1.2.0'),
  leaf('shared', '2.0.0'),
  leaf('shared', '3.0.0-beta.1', { notLatest: true, tags: ['next'] }),
  leaf('@scope/c', '1.2.0', { dependencies: { l4: '>=1.0.0 <2.0.0', l5: '^1' } }),
  leaf('tool', '1.0.0', {
    bin: { tool: './cli.js' },
    dependencies: { l6: '*' },
    files: { 'cli.js': '+x #!/usr/bin/env node\nconsole.log("tool ran");\n' },
  }),
  leaf('plugin', '1.0.0', { peerDependencies: { host: '^2.0.0' } }),
  leaf('host', '1.0.0'),
  leaf('host', '2.0.0'),
  leaf('devtool', '1.0.0', { dependencies: { l7: '^1.0.0' } }),
  leaf('fsnative', '1.0.0', { os: ['plan9'] }),
  leaf('l1'),
  leaf('l2', '1.0.5'),
  leaf('l3', '1.0.0', { dependencies: { scripted: '^1.0.0' } }),
  leaf('scripted', '1.0.0', { scripts: { postinstall: 'node -e "process.exit(1)"' } }),
  leaf('l4'),
  leaf('l5'),
  leaf('l6'),
  leaf('l7'),
  leaf('l8', '1.0.0', { dependencies: { l9: '^1.0.0' } }),
  leaf('l9', '1.0.0', { dependencies: { l10: '^1.0.0' } }),
  leaf('l10', '1.0.0', { dependencies: { l11: '^1.0.0' } }),
  leaf('l11', '1.0.0', { dependencies: { l12: '^1.0.0' } }),
  leaf('l12'),
];

/** The project that installs the fixture tree. */
export const FIXTURE_PROJECT = {
  name: 'fixture-app',
  version: '1.0.0',
  dependencies: {
    '@scope/c': '^1.0.0',
    a: '^1.0.0',
    b: '^1.0.0',
    l8: 'latest',
    plugin: '^1.0.0',
    tool: '^1.0.0',
  },
  devDependencies: { devtool: '^1.0.0' },
  optionalDependencies: { fsnative: '^1.0.0' },
};
