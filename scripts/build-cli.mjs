// Bundles the CLI that tsc wrote to dist/node/ into dist/node/bin/, after `tsc -p tsconfig.build.json`.
//
// Node loads an ES module graph one file at a time (resolve, read, compile): `sandpit mcp --root DIR`
// read about 180 files before it could answer its first tools/list, most of its start-up. Here the
// files a command needs first become two chunks (what answers initialize; opening a workspace, the
// tools, a first read and write), the MCP server and its SDK a third, and what loads on
// first use (git, the shell, the agent, HTTP) stays in chunks of its own. dist/node/cli.js, the
// bin, then only imports the bundled entry. The modules tsc wrote stay beside it for `sandpit/node`
// and anyone importing them; a build that stops before this step still has a working CLI.
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rolldown } from 'rolldown';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist', 'node');
// Three folders deep, as the modules tsc wrote: their `new URL('../../../package.json', import.meta.url)` still finds it.
const out = join(dist, 'bin');

// What `sandpit mcp --root DIR` over stdio loads before its first tools/list and its first read and
// write are answered, each list with what it imports: found by tracing a start (bench/mcp.mjs times
// it; test/mcp/mcp-start-files.test.ts counts the files). What is missing here still loads, from a
// chunk of its own, only later.

/**
 * What answers initialize while the start chunk loads: the command dispatch, the early stdio, and
 * what opens the port over HTTP (its listener, http-early.js, is a chunk of its own).
 */
const EARLY = [
  'cli/main.js',
  'cli/mcp-start.js',
  'cli/broad-root.js',
  'mcp/fast-start.js',
  'mcp/cli-http.js',
  '../toolsets/instructions.js',
];
/** The workspace, its tools and the early tools/list and tools/call. */
const START = [
  'cli/open.js',
  'mcp/cli.js',
  'mcp/stdio-fixed.js',
  'mcp/early-tools.js',
  // loaded as the node workspace opens (the blame tracker loads with the first change, from a chunk of its own)
  '../snapshots/spares.js',
];
/** The MCP server over the SDK: it takes over from the early answers once loaded. */
const SERVER = ['mcp/server.js', 'mcp/call.js'];

/**
 * Packages bundled in, each otherwise read file by file (and the CommonJS ones scanned for their
 * exports): what the first call uses (diff), and the MCP SDK with what its server loads,
 * whose hundred-odd files would otherwise be read beside the first answers. The others (git, the
 * shell's, HTTP's) load from node_modules as they did.
 */
const BUNDLED = new Set([
  'diff',
  '@modelcontextprotocol/sdk',
  'zod',
  'zod-to-json-schema',
  'ajv',
  'ajv-formats',
  'fast-deep-equal',
  'fast-uri',
  'json-schema-traverse',
]);

const bundled = (id) => !id.includes(`${sep}node_modules${sep}`) || BUNDLED.has(packageOf(id));
function packageOf(id) {
  const after = id.slice(id.lastIndexOf(`${sep}node_modules${sep}`) + `${sep}node_modules${sep}`.length).split(sep);
  return after[0].startsWith('@') ? `${after[0]}/${after[1]}` : after[0];
}

/**
 * The protocol versions the early answers negotiate are the SDK's own (mcp/capabilities.js imports
 * them from its types module), but that module builds every schema of the protocol with zod when it
 * loads: tens of ms the early chunk must not spend. Here the import resolves, for capabilities.js
 * alone, to the two constants read from that same SDK module now; the server's chunk has the SDK.
 */
function sdkVersions() {
  const virtual = '\0sandpit-sdk-protocol-versions';
  return {
    name: 'sandpit-sdk-protocol-versions',
    resolveId(source, importer) {
      if (source === '@modelcontextprotocol/sdk/types.js' && importer === join(dist, 'mcp', 'capabilities.js'))
        return virtual;
      return null;
    },
    async load(id) {
      if (id !== virtual) return null;
      const { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } = await import(
        '@modelcontextprotocol/sdk/types.js'
      );
      return [
        `export const LATEST_PROTOCOL_VERSION = ${JSON.stringify(LATEST_PROTOCOL_VERSION)};`,
        `export const SUPPORTED_PROTOCOL_VERSIONS = ${JSON.stringify(SUPPORTED_PROTOCOL_VERSIONS)};`,
      ].join('\n');
    },
  };
}

/** Fills `sets` with the static import closure of each list of roots, once the graph is known. */
function closures(sets, lists) {
  return {
    name: 'sandpit-cli-closures',
    buildEnd() {
      const entry = this.getModuleInfo(join(dist, 'cli.js'));
      const reach = (ids, into, skip = new Set()) => {
        const pending = [...ids];
        while (pending.length > 0) {
          const id = pending.pop();
          if (into.has(id) || skip.has(id) || !bundled(id)) continue;
          const info = this.getModuleInfo(id);
          if (!info) throw new Error(`build-cli: ${relative(root, id)} is not in the graph`);
          into.add(id);
          pending.push(...info.importedIds);
        }
        return into;
      };
      // What the bin itself needs (the relaunch without secrets) is read with the early chunk: one
      // module file fewer before the first answer (a relaunching parent reads 30 KB it does not run).
      const bin = reach(entry.importedIds, sets.early);
      for (const [name, list] of Object.entries(lists))
        reach(
          list.map((rel) => join(dist, rel)),
          sets[name],
          new Set([...bin, ...Object.values(sets).flatMap((s) => [...s])]),
        );
    },
  };
}

const bin = join(dist, 'cli.js');
const binText = await readFile(bin, 'utf8');
if (binText.includes("'./bin/cli.js'"))
  throw new Error("build-cli: dist/node/cli.js is already the bundle's bin: run tsc -p tsconfig.build.json first");

const sets = { early: new Set(), start: new Set(), server: new Set() };
const bundle = await rolldown({
  input: { cli: join(dist, 'cli.js') },
  platform: 'node',
  logLevel: 'warn',
  external: (id) => {
    if (id.startsWith('node:')) return true;
    if (id.startsWith('.') || id.startsWith('/')) return false;
    return !BUNDLED.has(id.startsWith('@') ? id.split('/').slice(0, 2).join('/') : id.split('/')[0]);
  },
  // diff's modules only define its differs (its package.json does not say so): what Sandpit uses of
  // it (createTwoFilesPatch, diffArrays) is kept, the word, JSON, CSS and sentence differs are not
  // compiled and made before the first answers.
  treeshake: { moduleSideEffects: (id) => (id.includes(`${sep}node_modules${sep}diff${sep}`) ? false : undefined) },
  // tsc's output has dynamic imports of modules others import statically; bundled, they are one module.
  checks: { ineffectiveDynamicImport: false },
  // A dynamic import of a module in a group's chunk imports that chunk, not a facade file of its own.
  preserveEntrySignatures: false,
  plugins: [sdkVersions(), closures(sets, { early: EARLY, start: START, server: SERVER })],
});
await rm(out, { recursive: true, force: true });
await bundle.write({
  dir: out,
  format: 'es',
  // Each module runs when its chunk loads, in import order, as plain top-level code. With strict
  // execution order each module's body became a function run on first import: 146 of them in the
  // start chunk, each parsed twice (skimmed with the chunk, compiled when called), which a profile
  // put at about a tenth of the time to the first tools/list. The modules' top levels only define
  // things (test/mcp/mcp-start-files.test.ts keeps the early and start chunks so), so running the
  // few that are needed only later at load changes nothing but when they are defined.
  strictExecutionOrder: false,
  entryFileNames: '[name].js',
  chunkFileNames: '[name]-[hash].js',
  sourcemap: false,
  // Less for V8 to read at start-up: no comments or whitespace; names are kept for stack traces.
  comments: { legal: true, annotation: false, jsdoc: false },
  minify: { compress: false, mangle: false, codegen: { removeWhitespace: true } },
  codeSplitting: {
    // Each set is its closure already: a group takes only its own modules.
    includeDependenciesRecursively: false,
    groups: [
      { name: 'early', test: (id) => sets.early.has(id), priority: 3 },
      { name: 'start', test: (id) => sets.start.has(id), priority: 2 },
      { name: 'server', test: (id) => sets.server.has(id), priority: 1 },
    ],
  },
});
await bundle.close();

// The bin: the shebang, and the bundled CLI.
const shebang = binText.startsWith('#!') ? '#!/usr/bin/env node\n' : '';
await writeFile(bin, `${shebang}import './bin/cli.js';\n`);
await rm(`${bin}.map`, { force: true });
console.log(
  `build-cli: ${relative(root, out)}: ${Object.entries(sets)
    .map(([name, set]) => `${name} ${set.size} modules`)
    .join(', ')}`,
);
