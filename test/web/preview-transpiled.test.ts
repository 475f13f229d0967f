import { describe, expect, it } from 'vitest';
import { createMemoryFs } from '../../src/index.js';
import { previewServer } from './preview-module-loader.js';
import { transpileKept } from '../../web/preview/transpiled.js';
import { yieldingFs } from '../../web/yielding-fs.js';

const classic = { runtime: 'classic' } as const;

describe("the preview's kept transpiles", () => {
  it('gives the kept result for the same text and settings, and transpiles again when either differs', async () => {
    const first = await transpileKept('k/a.tsx', 'export const a: number = 1;\n', classic);
    expect(await transpileKept('k/a.tsx', 'export const a: number = 1;\n', classic)).toBe(first);
    const changed = await transpileKept('k/a.tsx', 'export const a: number = 2;\n', classic);
    expect(changed).not.toBe(first);
    expect(changed.ok && changed.code).toContain('= 2');
    const automatic = await transpileKept('k/a.tsx', 'export const a: number = 2;\n', { runtime: 'automatic' });
    expect(automatic).not.toBe(changed);
  });

  it('serves the text a reload reads, never one prepared before a later write', async () => {
    const { ws, server } = previewServer({ 'app.tsx': 'export const v = 1;\n' });
    const text = async () => new TextDecoder().decode((await server.serve('app.tsx')).body);
    expect(await text()).toContain('v = 1');
    // prepared for a text that a later write replaced before the reload
    await server.prepare('app.tsx', 'export const v = 2;\n');
    expect((await ws.call('write_file', { path: 'app.tsx', content: 'export const v = 3;\n' })).ok).toBe(true);
    expect(await text()).toContain('v = 3');
    await server.prepare('app.tsx', 'export const v = 3;\n');
    expect(await text()).toContain('v = 3');
  });
});

describe('a workspace fs that gives turns', () => {
  it('lets a queued message run before a change when asked, and changes nothing about the calls', async () => {
    const fs = createMemoryFs({});
    const order: string[] = [];
    const turns = yieldingFs(fs, () => true);
    const channel = new MessageChannel();
    channel.port1.onmessage = () => order.push('message');
    channel.port2.postMessage(null);
    await turns.writeFile('/a.txt', 'one');
    order.push('written');
    expect(order).toEqual(['message', 'written']);
    expect(new TextDecoder().decode(await turns.readFile('/a.txt'))).toBe('one');
    await turns.rename('/a.txt', '/b.txt');
    expect(await fs.readdir('/')).toEqual(['b.txt']);
    channel.port1.close();
  });
});
