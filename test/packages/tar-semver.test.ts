import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { checkIntegrity, integrityOf } from '../../src/packages/integrity.js';
import { PackageError } from '../../src/packages/errors.js';
import { gunzip, readTar } from '../../src/packages/tar.js';
import { satisfies } from '../../src/packages/semver.js';
import { packTarball } from '../support/npm-registry.js';

/** One raw tar entry: a header with any name and type, then the body, padded. */
function entry(name: string, body: string, type = '0', prefix = ''): Buffer {
  const data = Buffer.from(body);
  const block = Buffer.alloc(512);
  block.write(name, 0, 100);
  block.write('0000644\0', 100);
  block.write(`${data.length.toString(8).padStart(11, '0')}\0`, 124);
  block.write(type, 156);
  block.write('ustar\0', 257);
  block.write('00', 263);
  block.write(prefix, 345, 155);
  block.write('        ', 148);
  let sum = 0;
  for (const b of block) sum += b;
  block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  return Buffer.concat([block, data, Buffer.alloc((512 - (data.length % 512)) % 512)]);
}

const pax = (path: string) => {
  const record = (len: number) => `${len} path=${path}\n`;
  let len = record(0).length;
  while (record(len).length !== len) len = record(len).length;
  return record(len);
};

describe('the tarball reader', () => {
  it('reads files under package/, pax and ustar-prefix long names, and the executable bit', async () => {
    const long = `lib/${'deep/'.repeat(30)}file.js`;
    const tar = Buffer.concat([
      entry('package/package.json', '{}'),
      entry('pax', pax(`package/${long}`), 'x'),
      entry('package/ignored-short-name', 'long body'),
      entry('index.js', 'prefixed', '0', 'package/src'),
      entry('package/link', '', '2'),
      entry('package/dir/', '', '5'),
      Buffer.alloc(1024),
    ]);
    const files = readTar('x@1.0.0', await gunzip(gzipSync(tar)));
    expect(files.map((f) => f.path)).toEqual(['package.json', long, 'src/index.js']);
    expect(new TextDecoder().decode(files[1]!.data)).toBe('long body');
    const packed = packTarball([{ path: 'bin.js', data: Buffer.from('#!'), mode: 0o755 }]);
    expect(readTar('y', await gunzip(packed))[0]).toMatchObject({ path: 'bin.js', executable: true });
  });

  it.each([['package/../../etc/passwd'], ['/abs/file'], ['package/a/../../../x'], ['C:/windows/x']])(
    'refuses a path that escapes the package: %s',
    (name) => {
      const tar = Buffer.concat([entry(name, 'evil'), Buffer.alloc(1024)]);
      expect(() => readTar('evil@1.0.0', tar)).toThrow(PackageError);
      try {
        readTar('evil@1.0.0', tar);
      } catch (error) {
        expect((error as PackageError).code).toBe('OUTSIDE_WORKSPACE');
        expect((error as PackageError).message).toMatch(/^evil@1\.0\.0: /);
      }
    },
  );

  it('refuses a pax name that escapes, and refuses bytes that do not match their integrity', async () => {
    const tar = Buffer.concat([
      entry('pax', pax('package/../../x'), 'x'),
      entry('package/ok', 'x'),
      Buffer.alloc(1024),
    ]);
    expect(() => readTar('evil', tar)).toThrow(/outside the package/);
    const data = new TextEncoder().encode('tarball');
    const good = await integrityOf(data);
    await expect(checkIntegrity('p@1', data, good)).resolves.toBe(good);
    await expect(checkIntegrity('p@1', new TextEncoder().encode('tarbalL'), good)).rejects.toMatchObject({
      code: 'IO_ERROR',
      packageName: 'p@1',
    });
  });
});

describe('semver ranges as npm reads them', () => {
  it.each([
    ['1.2.3', '^1.0.0', true],
    ['2.0.0', '^1.0.0', false],
    ['0.2.5', '^0.2.1', true],
    ['0.3.0', '^0.2.1', false],
    ['0.0.4', '^0.0.3', false],
    ['1.2.9', '~1.2.3', true],
    ['1.3.0', '~1.2.3', false],
    ['1.9.0', '1.x', true],
    ['1.5.0', '>=1.0.0 <2.0.0', true],
    ['1.5.0', '1.0.0 - 1.4', false],
    ['1.4.9', '1.0.0 - 1.4', true],
    ['3.0.0', '^1 || ^3', true],
    ['3.0.0-beta.1', '^3.0.0', false],
    ['3.0.0-beta.2', '>=3.0.0-beta.1', true],
    ['3.1.0-beta.1', '>=3.0.0-beta.1', false],
    ['1.0.0', '*', true],
    ['1.1.9', '<1.2', true],
    ['1.2.0-rc.1', '<1.2', false],
  ])('%s in %s: %s', (version, range, expected) => {
    expect(satisfies(version, range)).toBe(expected);
  });
});
