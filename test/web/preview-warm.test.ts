import { describe, expect, it } from 'vitest';
import { previewServer } from './preview-module-loader.js';
import { warmPreview } from '../../web/preview/warm.js';

describe("the preview's warm-up", () => {
  it('lets a message that comes while it warms run between its modules, and stops when that message says so', async () => {
    let asks = 0;
    let stopped = false;
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      stopped = true;
    };
    await warmPreview(() => {
      asks += 1;
      // a request arriving while the warm-up runs (it asks before and after each module's turn)
      if (asks === 2) channel.port2.postMessage(null);
      return stopped;
    });
    channel.port1.close();
    expect(stopped).toBe(true);
    // within a turn or two of its coming, not after the 24 modules (49 asks) of a warm-up that kept the thread
    expect(asks).toBeLessThan(10);
  });

  it('does nothing once told to stop, and a preview afterwards serves what the workspace holds', async () => {
    let asks = 0;
    await warmPreview(() => {
      asks += 1;
      return true;
    });
    expect(asks).toBe(1);
    await warmPreview(() => false);
    // the warm-up's own page and module are not what a preview of the same paths serves
    const { server } = previewServer({
      'index.html': '<p>mine</p>',
      'main.tsx': 'export const own: number = 7;\n',
    });
    const text = async (path: string) => new TextDecoder().decode((await server.serve(path)).body);
    expect(await text('')).toContain('<p>mine</p>');
    const module = await text('main.tsx');
    expect(module).toContain('own = 7');
    expect(module).not.toContain('helper');
  });
});
