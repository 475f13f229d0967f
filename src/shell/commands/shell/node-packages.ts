import { importSpecifiers, requireSpecifiers } from '../../../modules/commonjs-source.js';
import { isBareSpecifier } from '../../../modules/paths.js';
import { NODE_IMPORT, NODE_REQUIRE, resolveModule, type ModuleFiles } from '../../../modules/resolve.js';
import type { ShellFs } from '../../overlay.js';

/** The packages a script reaches, copied ahead, and where each of its specifiers leads. */
export interface ScriptPackages {
  /** node_modules files the script's modules reach, by shell path */
  files: Array<[string, Uint8Array]>;
  /** `${importer}\0${specifier}` → the file it resolves to, for every literal require and import that reaches node_modules */
  resolved: Array<[string, string]>;
  /** bytes of the package files copied */
  bytes: number;
  /** package files that did not fit in the copy */
  leftOut: number;
}

const SCRIPT = /\.(?:c|m)?js$/;
const inPackages = (path: string) => path.includes('/node_modules/');

/** The resolver's view of the shell's files. */
function shellFiles(fs: ShellFs): ModuleFiles {
  return {
    readText: async (path) => {
      try {
        return (await fs.stat(path))?.type === 'file' ? new TextDecoder().decode(await fs.readFile(path)) : null;
      } catch {
        return null;
      }
    },
    isFile: async (path) => {
      try {
        return (await fs.stat(path))?.type === 'file';
      } catch {
        return false;
      }
    },
  };
}

/**
 * A worker cannot read the workspace back synchronously, and node_modules is too big to copy
 * whole, so the packages a script needs are found ahead: from every script the copy holds (and
 * `-e` code), each literal `require` and `import` is resolved with Node's algorithm and the
 * `node`/`require`/`import` conditions, and every package file reached is copied, with what it reaches in turn.
 */
export async function collectScriptPackages(
  fs: ShellFs,
  copied: Array<[string, Uint8Array]>,
  extra: { code?: string; cwd: string },
  budget: { maxFiles: number; maxBytes: number },
): Promise<ScriptPackages> {
  const files = shellFiles(fs);
  const decoder = new TextDecoder();
  const out: ScriptPackages = { files: [], resolved: [], bytes: 0, leftOut: 0 };
  const seen = new Set<string>();
  const queue: Array<[string, string]> = copied
    .filter(([path]) => SCRIPT.test(path))
    .map(([path, bytes]) => [path, decoder.decode(bytes)]);
  if (extra.code !== undefined) queue.push([`${extra.cwd.replace(/\/$/, '')}/[eval]`, extra.code]);
  while (queue.length > 0) {
    const [importer, text] = queue.shift()!;
    const wanted: Array<[string, typeof NODE_REQUIRE]> = [
      ...requireSpecifiers(text).map((spec): [string, typeof NODE_REQUIRE] => [spec, NODE_REQUIRE]),
      ...importSpecifiers(text).map((spec): [string, typeof NODE_REQUIRE] => [spec, NODE_IMPORT]),
    ];
    for (const [spec, mode] of wanted) {
      // A workspace file's relative imports are in the copy already; only packages are looked for.
      if (!isBareSpecifier(spec) && !inPackages(importer)) continue;
      const found = await resolveModule(files, spec, importer, mode);
      if (found.kind !== 'file') continue;
      out.resolved.push([`${importer}\0${spec}`, found.path]);
      if (!inPackages(found.path) || seen.has(found.path)) continue;
      // The package's own package.json goes with its files: its `type` decides how a .js file runs.
      const manifest = `${packageRoot(found.path)}/package.json`;
      for (const path of [manifest, found.path]) {
        if (seen.has(path)) continue;
        seen.add(path);
        if (path === manifest && !(await files.isFile(path))) continue;
        const bytes = await fs.readFile(path);
        if (out.files.length >= budget.maxFiles || out.bytes + bytes.length > budget.maxBytes) {
          out.leftOut++;
          continue;
        }
        out.files.push([path, bytes]);
        out.bytes += bytes.length;
        if (path === found.path && SCRIPT.test(path)) queue.push([path, decoder.decode(bytes)]);
      }
    }
  }
  return out;
}

/** The folder of the package a node_modules file is in: `/x/node_modules/name` or `/x/node_modules/@scope/name`. */
function packageRoot(path: string): string {
  const at = path.lastIndexOf('/node_modules/') + '/node_modules/'.length;
  const parts = path.slice(at).split('/');
  return path.slice(0, at) + parts.slice(0, parts[0]!.startsWith('@') ? 2 : 1).join('/');
}
