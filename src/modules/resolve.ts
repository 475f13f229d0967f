import { resolveExports, resolveImports, type ExportsValue } from './package-exports.js';
import { dirOf, isBareSpecifier, isNodeBuiltin, isPathSpecifier, joinPath, splitPackage } from './paths.js';

/** The files a resolver looks at: the live preview's workspace reads, a script's copy, a test's memfs. */
export interface ModuleFiles {
  /** the text of the file at `path`, or null when no file is there */
  readText(path: string): Promise<string | null>;
  /** whether a file (not a folder) is at `path` */
  isFile(path: string): Promise<boolean>;
  /** whether a folder is at `path`; when given, node_modules folders that are not there are passed over without looking inside */
  isDirectory?(path: string): Promise<boolean>;
}

/** How a host loads modules: which `exports` conditions hold and which package.json fields name the entry. */
export interface ResolveMode {
  conditions: readonly string[];
  mainFields: readonly string[];
  /** extensions tried after the path as written, in order */
  extensions: readonly string[];
}

const EXTENSIONS = ['.js', '.cjs', '.mjs', '.json', '.jsx', '.ts', '.tsx'];

/** A browser's ES module loader, as a bundler for the browser resolves an `import`. */
export const BROWSER_IMPORT: ResolveMode = {
  conditions: ['browser', 'import', 'module', 'default'],
  mainFields: ['browser', 'module', 'main'],
  extensions: EXTENSIONS,
};
/** A CommonJS `require` running in a browser, as a bundler for the browser resolves it. */
export const BROWSER_REQUIRE: ResolveMode = {
  conditions: ['browser', 'require', 'default'],
  mainFields: ['browser', 'main'],
  extensions: EXTENSIONS,
};
/** Node's `import`. */
export const NODE_IMPORT: ResolveMode = {
  conditions: ['node', 'import', 'default'],
  mainFields: ['main'],
  extensions: EXTENSIONS,
};
/** Node's `require`. */
export const NODE_REQUIRE: ResolveMode = {
  conditions: ['node', 'require', 'default'],
  mainFields: ['main'],
  extensions: EXTENSIONS,
};

/** Where a specifier leads. */
export type Resolved =
  | { kind: 'file'; path: string }
  /** a Node built-in (`fs`, `node:path`): the host provides it or refuses it */
  | { kind: 'builtin'; name: string }
  /** a package's `browser` map replaces the module by nothing */
  | { kind: 'empty' }
  /** nothing there; `package` is set when a bare specifier's package is not installed */
  | { kind: 'missing'; package?: string; reason: string };

type Manifest = Record<string, unknown>;

async function readManifest(files: ModuleFiles, dir: string): Promise<Manifest | null> {
  const text = await files.readText(joinPath(dir, 'package.json'));
  if (text === null) return null;
  try {
    const parsed = JSON.parse(text) as unknown;
    return parsed && typeof parsed === 'object' ? (parsed as Manifest) : {};
  } catch {
    return {};
  }
}

/** The path as written, then with each extension: Node's LOAD_AS_FILE. */
async function asFile(files: ModuleFiles, path: string, mode: ResolveMode): Promise<string | null> {
  if (await files.isFile(path)) return path;
  for (const ext of mode.extensions) if (await files.isFile(path + ext)) return path + ext;
  return null;
}

/** A folder's package.json entry, else its index file: Node's LOAD_AS_DIRECTORY. */
async function asDirectory(files: ModuleFiles, dir: string, mode: ResolveMode): Promise<string | null> {
  const manifest = await readManifest(files, dir);
  if (manifest) {
    for (const field of mode.mainFields) {
      const entry = manifest[field];
      if (typeof entry !== 'string' || entry === '') continue;
      const target = joinPath(dir, entry);
      const found = (await asFile(files, target, mode)) ?? (await asIndex(files, target, mode));
      if (found) return found;
    }
  }
  return asIndex(files, dir, mode);
}

async function asIndex(files: ModuleFiles, dir: string, mode: ResolveMode): Promise<string | null> {
  for (const ext of mode.extensions)
    if (await files.isFile(joinPath(dir, `index${ext}`))) return joinPath(dir, `index${ext}`);
  return null;
}

/** A package's `browser` object swaps files inside it (or drops them, with `false`) when the browser condition holds. */
function browserSwap(manifest: Manifest | null, packageDir: string, file: string, mode: ResolveMode): Resolved {
  const map = manifest?.browser;
  if (!mode.conditions.includes('browser') || !map || typeof map !== 'object') return { kind: 'file', path: file };
  const inside = `./${file.slice(packageDir.length).replace(/^\//, '')}`;
  for (const key of [inside, inside.replace(/\.(c|m)?js$/, '')]) {
    const to = (map as Record<string, unknown>)[key];
    if (to === false) return { kind: 'empty' };
    if (typeof to === 'string') return { kind: 'file', path: joinPath(packageDir, to) };
  }
  return { kind: 'file', path: file };
}

/** Resolve a bare specifier from `fromDir`: the nearest node_modules/<name> up the folders, then `exports` or files. */
async function resolvePackage(files: ModuleFiles, spec: string, fromDir: string, mode: ResolveMode): Promise<Resolved> {
  const { name, sub } = splitPackage(spec);
  for (let dir = fromDir; ; dir = dirOf(dir)) {
    if (!dir.endsWith('/node_modules') && dir !== 'node_modules') {
      const packageDir = joinPath(dir, 'node_modules', name);
      const manifest = await readManifest(files, packageDir);
      if (!manifest && files.isDirectory && !(await files.isDirectory(packageDir))) {
        if (dir === '' || dir === '/') break;
        continue;
      }
      const exports = manifest?.exports as ExportsValue | undefined;
      if (manifest && exports !== undefined && exports !== null) {
        const target = resolveExports(exports, sub, mode.conditions);
        if (typeof target !== 'string')
          return {
            kind: 'missing',
            reason: `package '${name}' does not export '${sub}' for ${mode.conditions.join(', ')}`,
          };
        const path = joinPath(packageDir, target);
        return (await files.isFile(path))
          ? browserSwap(manifest, packageDir, path, mode)
          : { kind: 'missing', reason: `package '${name}' exports '${sub}' as ${target}, which is not there` };
      }
      const target = joinPath(packageDir, sub);
      const found =
        sub === '.'
          ? manifest
            ? await asDirectory(files, packageDir, mode)
            : null
          : ((await asFile(files, target, mode)) ?? (await asDirectory(files, target, mode)));
      if (found) return browserSwap(manifest, packageDir, found, mode);
      if (manifest) return { kind: 'missing', reason: `package '${name}' has no '${sub}'` };
    }
    if (dir === '' || dir === '/') break;
  }
  return { kind: 'missing', package: name, reason: `package '${name}' is not installed` };
}

/** The folder and manifest of the package a file belongs to: its nearest package.json, never above a node_modules folder. */
async function packageScope(files: ModuleFiles, file: string): Promise<{ dir: string; manifest: Manifest } | null> {
  for (let dir = dirOf(file); ; dir = dirOf(dir)) {
    if (dir === 'node_modules' || dir.endsWith('/node_modules')) return null;
    const manifest = await readManifest(files, dir);
    if (manifest) return { dir, manifest };
    if (dir === '' || dir === '/') return null;
  }
}

/**
 * A `#name` specifier through the `imports` of the importer's own package, as Node reads it: a
 * `./` target is a file of that package, any other target a package (or built-in) resolved from
 * the package's folder.
 */
async function resolvePackageImport(
  files: ModuleFiles,
  spec: string,
  importer: string,
  mode: ResolveMode,
): Promise<Resolved> {
  const scope = await packageScope(files, importer);
  const imports = scope?.manifest.imports as ExportsValue | undefined;
  const target = scope && imports != null ? resolveImports(imports, spec, mode.conditions) : undefined;
  if (!scope || typeof target !== 'string') {
    const reason = scope
      ? `'${spec}' is not defined in the "imports" of ${joinPath(scope.dir, 'package.json')}`
      : `'${spec}' is not defined: no package.json is above ${importer}`;
    return { kind: 'missing', reason };
  }
  if (!target.startsWith('./')) return resolveModule(files, target, joinPath(scope.dir, 'package.json'), mode);
  const path = joinPath(scope.dir, target);
  return (await files.isFile(path))
    ? browserSwap(scope.manifest, scope.dir, path, mode)
    : { kind: 'missing', reason: `'${spec}' is imported as ${target}, which is not there` };
}

/**
 * Node's module resolution over any files: relative and absolute paths (as a file, with an
 * extension, as a folder with package.json `main` or an index), bare specifiers through the
 * node_modules folders up from the importer, package `exports` with the mode's conditions and
 * subpath patterns, `#name` through the importer's package `imports`, and Node's built-ins named
 * as such. `importer` is the importing file's path.
 */
export async function resolveModule(
  files: ModuleFiles,
  spec: string,
  importer: string,
  mode: ResolveMode,
): Promise<Resolved> {
  const fromDir = dirOf(importer);
  if (spec.startsWith('#')) return resolvePackageImport(files, spec, importer, mode);
  if (isPathSpecifier(spec)) {
    const target = spec.startsWith('/') ? joinPath(importer.startsWith('/') ? '/' : '', spec) : joinPath(fromDir, spec);
    const found =
      (spec.endsWith('/') ? null : await asFile(files, target, mode)) ?? (await asDirectory(files, target, mode));
    return found ? { kind: 'file', path: found } : { kind: 'missing', reason: `no file '${spec}'` };
  }
  if (isNodeBuiltin(spec)) {
    const name = spec.replace(/^node:/, '');
    // A package of the same name (`events`, `buffer`, `process` polyfills) wins for the browser, as bundlers let it.
    if (!spec.startsWith('node:') && mode.conditions.includes('browser')) {
      const found = await resolvePackage(files, spec, fromDir, mode);
      if (found.kind !== 'missing' || !found.package) return found;
    }
    return { kind: 'builtin', name };
  }
  if (!isBareSpecifier(spec)) return { kind: 'missing', reason: `'${spec}' is not a path or a package name` };
  return resolvePackage(files, spec, fromDir, mode);
}

/** The `type` of the package a file belongs to (its nearest package.json), 'commonjs' when none says. */
export async function packageTypeOf(files: ModuleFiles, file: string): Promise<'module' | 'commonjs'> {
  for (let dir = dirOf(file); ; dir = dirOf(dir)) {
    const manifest = await readManifest(files, dir);
    if (manifest) return manifest.type === 'module' ? 'module' : 'commonjs';
    if (dir === '' || dir === '/') return 'commonjs';
  }
}
