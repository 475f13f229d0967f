import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { integrityOf } from '../../src/packages/integrity.js';
import { gunzip, readTar } from '../../src/packages/tar.js';
import { type LocalRegistry, startNpmRegistry } from '../support/npm-registry.js';

/**
 * The local registry serves a real package folder as `npm pack` would: every file, the folder's
 * own package.json as the manifest (npm's `_` fields dropped), nested node_modules left out.
 */
let dir: string;
let registry: LocalRegistry;
const long = `lib/${'deep-folder/'.repeat(10)}file.js`;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sandpit-registry-folder-'));
  const pkg = join(dir, 'widget');
  await mkdir(join(pkg, 'bin'), { recursive: true });
  await mkdir(join(pkg, 'node_modules', 'inner'), { recursive: true });
  await mkdir(join(pkg, long, '..'), { recursive: true });
  const manifest = {
    name: '@fixture/widget',
    version: '2.1.0',
    main: 'index.js',
    bin: { widget: 'bin/widget.js' },
    dependencies: { left: '^1.0.0' },
    peerDependencies: { right: '>=2' },
    scripts: { test: 'node test.js' },
    _resolved: 'https://example.invalid/widget-2.1.0.tgz',
    _integrity: 'sha512-unused',
  };
  await writeFile(join(pkg, 'package.json'), JSON.stringify(manifest));
  await writeFile(join(pkg, 'index.js'), 'module.exports = 1;\n');
  await writeFile(join(pkg, 'bin', 'widget.js'), '#!/usr/bin/env node\n');
  await chmod(join(pkg, 'bin', 'widget.js'), 0o755);
  await writeFile(join(pkg, long), 'deep\n');
  await writeFile(join(pkg, 'node_modules', 'inner', 'index.js'), 'not packed\n');
  registry = await startNpmRegistry([{ dir: pkg }]);
});
afterAll(async () => {
  await registry?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the local registry serving a package folder', () => {
  it('gives the folder’s manifest in the packument and every file in the tarball', async () => {
    const packument = await (await fetch(`${registry.url}@fixture/widget`)).json();
    expect(packument['dist-tags']).toEqual({ latest: '2.1.0' });
    const version = packument.versions['2.1.0'];
    expect(version.dependencies).toEqual({ left: '^1.0.0' });
    expect(version.peerDependencies).toEqual({ right: '>=2' });
    expect(version.bin).toEqual({ widget: 'bin/widget.js' });
    expect(Object.keys(version).filter((key) => key.startsWith('_'))).toEqual([]);

    const tarball = new Uint8Array(await (await fetch(version.dist.tarball)).arrayBuffer());
    expect(await integrityOf(tarball)).toBe(version.dist.integrity);
    const files = readTar('@fixture/widget', await gunzip(tarball));
    const byPath = new Map(files.map((file) => [file.path, file]));
    expect([...byPath.keys()].sort()).toEqual(['bin/widget.js', 'index.js', long, 'package.json'].sort());
    expect(byPath.get('bin/widget.js')!.executable).toBe(true);
    expect(byPath.get('index.js')!.executable).toBe(false);
    const packed = JSON.parse(new TextDecoder().decode(byPath.get('package.json')!.data));
    expect(packed._resolved).toBeUndefined();
    expect(packed.scripts).toEqual({ test: 'node test.js' });
    expect(registry.hits).toEqual(['@fixture/widget', registry.tarballPath('@fixture/widget', '2.1.0')]);
  });
});
