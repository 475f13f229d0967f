import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openToolsetWorkspace } from '../../src/node/index.js';
import { openToolsetWorkspaceLazily } from '../../src/node/open-core.js';
import { NATIVE_TOOLSET_NAMES, TOOLSET_NAMES, toolset, type Toolset } from '../../src/toolsets/index.js';
import { loadToolset } from '../../src/toolsets/load.js';

const NAMES = [...TOOLSET_NAMES, ...NATIVE_TOOLSET_NAMES];
const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** What a client sees of a toolset: its listing in every format, its guidance, its native entries. */
const seen = (set: Toolset) => ({
  name: set.name,
  mcp: set.toMcp(),
  openai: set.toOpenAI(),
  anthropic: set.toAnthropic(),
  instructions: set.instructions,
  native: set.native,
  entries: set.toNative?.(),
});

// The CLI loads only the toolset it serves (toolsets/load.ts); what it offers must not differ.
describe('a toolset loaded on demand', () => {
  it.each(NAMES)('%s: the same tools, listings and guidance as toolset()', async (name) => {
    const options = { artifactDir: 'out', maxCharacters: 5000 };
    expect(seen(await loadToolset(name, options))).toEqual(seen(toolset(name, options)));
  });

  it.each(NAMES)('%s over a real folder: the same tools/list as openToolsetWorkspace', async (name) => {
    const folder = mkdtempSync(join(tmpdir(), 'sandpit-load-'));
    folders.push(folder);
    const eager = openToolsetWorkspace(folder, name, { snapshots: false, artifactDir: 'out' });
    const lazy = await openToolsetWorkspaceLazily(folder, name, { snapshots: false, artifactDir: 'out' });
    try {
      expect(lazy.set.toMcp()).toEqual(eager.set.toMcp());
      expect(lazy.ws.listTools()).toEqual(eager.ws.listTools());
    } finally {
      await eager.ws.close();
      await lazy.ws.close();
    }
  });
});
