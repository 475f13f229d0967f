import { describe, expect, it } from 'vitest';
import { BACKEND_KINDS, backendOf, WORKSPACE_BACKENDS } from '../../src/fs/backends.js';
import { createHost } from '../../web/host.js';

const unique = (label: string) =>
  `backends-${label}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;

describe('the browser backends, listed once', () => {
  it('are all available in Chromium and named by their kinds', () => {
    expect(BACKEND_KINDS).toEqual(['memory', 'indexeddb', 'opfs']);
    for (const b of WORKSPACE_BACKENDS) {
      expect(b.isAvailable()).toBe(true);
      expect(backendOf(b.kind)).toBe(b);
    }
    expect(backendOf('floppy')).toBeUndefined();
  });

  it.each(BACKEND_KINDS)('%s: opens, keeps files as its descriptor says, and is destroyed', async (kind) => {
    const descriptor = backendOf(kind)!;
    const name = unique(kind);
    const first = await descriptor.create(name);
    for (const [key, value] of Object.entries(descriptor.capabilities))
      expect(first.fs.capabilities?.[key as 'symlinks']).toBe(value);
    await first.fs.writeFile('/kept.txt', 'kept');
    await first.flush?.();
    await first.close?.();
    const second = await descriptor.create(name);
    const survived = await second.fs.readFile('/kept.txt').then(
      () => true,
      () => false,
    );
    expect(survived).toBe(descriptor.persistent);
    await second.close?.();
    await descriptor.destroy(name);
    const third = await descriptor.create(name);
    expect(await third.fs.readdir('/')).toEqual([]);
    await third.close?.();
    await descriptor.destroy(name);
  });

  it('the host refuses a backend no descriptor has, and import bytes that are not bytes', async () => {
    await expect(createHost().open({ backend: 'floppy' as never, name: 'x' })).rejects.toThrow(
      /unknown backend 'floppy': use memory, indexeddb, opfs/,
    );
    const host = createHost();
    await host.open({ backend: 'memory', name: unique('host') });
    const refused = await host.importFiles([{ path: 'a.bin', base64: 'AAE=' } as never]);
    expect(refused).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENTS' } });
    const imported = await host.importFiles([{ path: 'a.bin', bytes: new Uint8Array([0, 1, 255]) }]);
    expect(imported).toMatchObject({ ok: true, result: { files: [{ path: 'a.bin', bytes: 3 }] } });
    const exported = await host.exportFiles();
    expect(exported.files).toEqual([{ path: 'a.bin', bytes: new Uint8Array([0, 1, 255]) }]);
    await host.close();
  });
});
