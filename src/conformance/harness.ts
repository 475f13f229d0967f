import { toHex } from '../fs/hash/hex.js';
import { createWorkspace, type Envelope, type Workspace, type WorkspaceOptions } from '../index.js';
import { mkdirp, readFileOrNull } from '../fs/helpers.js';
import type { BackendUnderTest, MadeBackend } from './backend.js';

export interface Harness extends MadeBackend {
  ws: Workspace;
  /** raw bytes of a file under the root, or null when absent */
  bytes(rel: string): Promise<Uint8Array | null>;
  text(rel: string): Promise<string | null>;
  /** write straight to the backend, behind the tools' back */
  put(rel: string, content: string | Uint8Array): Promise<void>;
  abs(rel: string): string;
  /** every file under the root with its bytes, for byte-for-byte comparisons */
  tree(): Promise<Record<string, string>>;
  ok<R = Record<string, any>>(tool: string, args: unknown): Promise<R>;
  fail(tool: string, args: unknown): Promise<Extract<Envelope, { ok: false }>['error']>;
}

export async function open(
  backend: BackendUnderTest,
  seed: Record<string, string | Uint8Array> = {},
  options: Omit<WorkspaceOptions, 'fs' | 'root'> = {},
  needs?: { escapeTargets?: boolean },
): Promise<Harness> {
  const made = await backend.make(seed, needs);
  const ws = createWorkspace({ ...options, fs: made.fs, root: made.root });
  const abs = (rel: string) => `${made.root}/${rel}`;
  const bytes = async (rel: string) => readFileOrNull(made.fs, abs(rel));
  let cleaned = false;
  const h: Harness = {
    ...made,
    // A test that ends before opening its own workspace must not clean the previous one twice.
    cleanup: async () => {
      if (cleaned) return;
      cleaned = true;
      await ws.close();
      await made.cleanup();
    },
    ws,
    abs,
    bytes,
    text: async (rel) => {
      const b = await bytes(rel);
      return b === null ? null : new TextDecoder().decode(b);
    },
    put: async (rel, content) => {
      const parts = rel.split('/');
      if (parts.length > 1) await mkdirp(made.fs, abs(parts.slice(0, -1).join('/')));
      await made.fs.writeFile(abs(rel), typeof content === 'string' ? new TextEncoder().encode(content) : content);
    },
    tree: async () => {
      const out: Record<string, string> = {};
      const walk = async (rel: string) => {
        for (const name of (await made.fs.readdir(rel ? abs(rel) : made.root)).sort()) {
          const child = rel ? `${rel}/${name}` : name;
          if (child === '.sandpit') continue; // the shadow snapshot repository: not workspace content
          const st = await made.fs.lstat(abs(child));
          if (st.type === 'dir') {
            out[`${child}/`] = 'dir';
            await walk(child);
          } else if (st.type === 'symlink') out[child] = `-> ${await made.fs.readlink(abs(child))}`;
          else out[child] = toHex(await made.fs.readFile(abs(child)));
        }
      };
      await walk('');
      return out;
    },
    ok: async (tool, args) => {
      const env = await ws.call(tool, args);
      if (!env.ok) throw new Error(`${tool} failed: ${JSON.stringify(env.error)}`);
      return env.result as any;
    },
    fail: async (tool, args) => {
      const env = await ws.call(tool, args);
      if (env.ok) throw new Error(`${tool} unexpectedly succeeded: ${JSON.stringify(env.result)}`);
      return env.error;
    },
  };
  return h;
}

/**
 * `open` for a test that never names, lists or links to a path beside the root: its backend is
 * asked for no escape targets, which such a test cannot see. On a browser store they are two files
 * and two folders made and removed per workspace; the tests that try escapes keep them.
 */
export function openRootOnly(
  backend: BackendUnderTest,
  seed: Record<string, string | Uint8Array> = {},
  options: Omit<WorkspaceOptions, 'fs' | 'root'> = {},
): Promise<Harness> {
  return open(backend, seed, options, { escapeTargets: false });
}

export const enc = (s: string) => new TextEncoder().encode(s);
