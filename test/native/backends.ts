import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createMemoryFs, createWorkspace, toolset, type Workspace } from '../../src/index.js';
import { openNodeWorkspace } from '../../src/node/index.js';
import type { NativeToolsetName, ToolsetOptions } from '../../src/toolsets/index.js';

/** A workspace offering a native toolset, on one backend, with a way to read its files back. */
export interface NativeBackend {
  ws: Workspace;
  text(path: string): Promise<string | null>;
  close(): Promise<void>;
}

export type Seed = Record<string, string>;

/** memory: the built-in shell runs commands; node: a real folder, real processes in the OS sandbox. */
export const BACKENDS = {
  memory(name: NativeToolsetName, seed: Seed, options: ToolsetOptions = {}): NativeBackend {
    const fs = createMemoryFs(seed);
    const ws = createWorkspace({ fs, tools: toolset(name, options).tools });
    return {
      ws,
      text: async (p) => {
        try {
          return new TextDecoder().decode(await fs.readFile(`/${p}`));
        } catch {
          return null;
        }
      },
      close: () => ws.close(),
    };
  },
  node(name: NativeToolsetName, seed: Seed, options: ToolsetOptions = {}): NativeBackend {
    const root = mkdtempSync(join(tmpdir(), 'sandpit-native-'));
    for (const [p, text] of Object.entries(seed)) {
      mkdirSync(dirname(join(root, p)), { recursive: true });
      writeFileSync(join(root, p), text);
    }
    const ws = openNodeWorkspace(root, { toolset: name, native: options });
    return {
      ws,
      text: async (p) => {
        const { readFileSync, existsSync } = await import('node:fs');
        return existsSync(join(root, p)) ? readFileSync(join(root, p), 'utf8') : null;
      },
      close: async () => {
        await ws.close();
        rmSync(root, { recursive: true, force: true });
      },
    };
  },
} as const;
