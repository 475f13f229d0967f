/**
 * The consumer projects' files, kept as text so the repository's own type-check never tries to
 * resolve `sandpit` against itself.
 *
 * Each project keeps `skipLibCheck: false`, which is what checks the installed declarations (the
 * package's and @types/node), and sets `skipDefaultLibCheck`, which skips only TypeScript's own
 * lib.*.d.ts: checking lib.dom.d.ts again in every project was about a third of the Node and
 * browser projects' CPU and says nothing about the package. A package declaration that clashes
 * with the DOM's is still an error, reported in the package's file, which is checked.
 */

/** A Node program using every entry, type-checked against the installed declarations. */
export const nodeProject: Record<string, string> = {
  'tsconfig.json': JSON.stringify(
    {
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        lib: ['ES2023', 'DOM'],
        types: ['node'],
        outDir: 'out',
        rootDir: 'src',
        skipLibCheck: false,
        skipDefaultLibCheck: true,
      },
      include: ['src'],
    },
    null,
    2,
  ),
  'src/sample.ts': `
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryFs, createWorkspace, ERROR_CODES, type Envelope, type WorkspaceFs } from 'sandpit-workspace';
import { openNodeWorkspace, type NodeWorkspace } from 'sandpit-workspace/node';
import { runConformance, seedTree, type ConformanceOptions } from 'sandpit-workspace/conformance';
import type { ConnectOptions, RemoteWorkspace } from 'sandpit-workspace/web';

const fs: WorkspaceFs = createMemoryFs({ '/ws/a.txt': 'one\\r\\ntwo\\r\\n' });
const ws = createWorkspace({ fs, root: '/ws' });
await ws.call('read_file', { path: 'a.txt' });
const edit: Envelope = await ws.call('edit_file', { path: 'a.txt', old_text: 'two', new_text: '2' });
const bytes = new TextDecoder().decode(await fs.readFile('/ws/a.txt'));
const missing = await ws.call('read_file', { path: 'nope.txt' });

const dir = mkdtempSync(join(tmpdir(), 'sandpit-consumer-'));
const node: NodeWorkspace = openNodeWorkspace(dir);
const wrote = await node.call('write_file', { path: 'hello.txt', content: 'hi\\n' });
const disk = readFileSync(join(dir, 'hello.txt'), 'utf8');
await node.close();
rmSync(dir, { recursive: true, force: true });

const seeded = createMemoryFs();
await seedTree(seeded, { 'x.txt': 'x' });
const options: Pick<ConformanceOptions, 'name' | 'symlinks'> = { name: 'typed', symlinks: false };
const connect: ConnectOptions = { backend: 'opfs', name: 'typed' };
type Call = RemoteWorkspace['call'];
const call: Call | null = null;
// Never called: it only proves the declarations are real, so a wrong argument is a type error.
function typeErrors(): void {
  // @ts-expect-error: a tool name is a string
  void ws.call(42, {});
  // @ts-expect-error: there is no such backend
  void ({ backend: 'floppy' } satisfies ConnectOptions);
}
void typeErrors;

console.log(JSON.stringify({
  edit, bytes, missing, wrote, disk, codes: ERROR_CODES.length,
  seeded: new TextDecoder().decode(await seeded.readFile('/ws/x.txt')),
  runConformance: typeof runConformance, options, connect, call,
  web: import.meta.resolve('sandpit-workspace/web'), worker: import.meta.resolve('sandpit-workspace/web/worker'),
}));
`,
};

/** The entries that must type-check under `lib: ["ES2022"]` with @types/node and no DOM library. */
export const NO_DOM_ENTRIES = [
  'sandpit-workspace',
  'sandpit-workspace/node',
  'sandpit-workspace/web',
  'sandpit-workspace/web/worker',
  'sandpit-workspace/conformance',
  'sandpit-workspace/conformance/patch-scenarios',
  'sandpit-workspace/conformance/example',
];

/**
 * A project that imports every entry, one file each, and compiles them without the DOM library.
 * One program for all of them is as strict as one per entry only if nothing in it brings the DOM
 * back (a `/// <reference lib="dom" />` anywhere would, for every file): the test lists the
 * program's files and refuses any DOM library among them.
 */
export function noDomProject(entries: readonly string[]): Record<string, string> {
  const files: Record<string, string> = {
    'nodom/tsconfig.json': JSON.stringify(
      {
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          lib: ['ES2022'],
          types: ['node'],
          noEmit: true,
          skipLibCheck: false,
          skipDefaultLibCheck: true,
        },
        include: ['*.ts'],
      },
      null,
      2,
    ),
  };
  for (const entry of entries) {
    const name = entry.replaceAll('/', '_');
    files[`nodom/${name}.ts`] =
      `import * as entry from '${entry}';\nexport const names: string[] = Object.keys(entry);\n`;
  }
  return files;
}

const conformanceHead = `
import { describe, test } from 'node:test';
import { expect } from 'expect';
import { createMemoryFs } from 'sandpit-workspace';
import { runConformance } from 'sandpit-workspace/conformance';
`;

/** The suite under node:test with the \`expect\` package: Sandpit's memory backend passes it, a flawed one does not. */
export const nodeTestFiles: Record<string, string> = {
  'memory.test.mjs': `${conformanceHead}
import { patchScenarios } from 'sandpit-workspace/conformance/patch-scenarios';

runConformance(() => createMemoryFs(), { describe, test, expect, name: 'memory under node:test', patchScenarios });
`,
  'flawed.test.mjs': `${conformanceHead}
// A rename that will not replace an existing file, as some object stores behave.
const flawed = () => new Proxy(createMemoryFs(), {
  get(fs, key) {
    if (key === 'rename') {
      return async (from, to) => {
        const exists = await fs.stat(to).then(() => true, () => false);
        if (exists) throw Object.assign(new Error('EEXIST: rename failed'), { code: 'EEXIST' });
        return fs.rename(from, to);
      };
    }
    const value = fs[key];
    return typeof value === 'function' ? value.bind(fs) : value;
  },
});
runConformance(flawed, { describe, test, expect, name: 'flawed' });
`,
};

const jestHead = `
import { describe, expect, test } from '@jest/globals';
import { runConformance } from 'sandpit-workspace/conformance';
import { createMapFs } from 'sandpit-workspace/conformance/example';
`;

/** The suite under Jest (native ESM): the shipped example passes it, the same example with a planted bug fails by name. */
export const jestFiles: Record<string, string> = {
  'jest.config.json': JSON.stringify(
    { testEnvironment: 'node', transform: {}, testMatch: ['**/jest-*.test.mjs'] },
    null,
    2,
  ),
  'jest-example.test.mjs': `${jestHead}
runConformance(() => createMapFs(), { describe, test, expect, name: 'example under jest', symlinks: false });
`,
  'jest-flawed.test.mjs': `${jestHead}
runConformance(() => createMapFs({ rmdirIgnoresNotEmpty: true }), { describe, test, expect, name: 'flawed under jest', symlinks: false });
`,
};

/** A Vite page using both browser entries, built with no configuration at all. */
export const browserProject: Record<string, string> = {
  'web/index.html': `<!doctype html>
<html><body><pre id="out">loading</pre><script type="module" src="./main.ts"></script></body></html>
`,
  'web/tsconfig.json': JSON.stringify(
    {
      compilerOptions: {
        target: 'ES2022',
        module: 'ESNext',
        moduleResolution: 'Bundler',
        strict: true,
        lib: ['ES2023', 'DOM', 'DOM.Iterable'],
        types: [],
        noEmit: true,
        skipLibCheck: false,
        skipDefaultLibCheck: true,
      },
      include: ['main.ts'],
    },
    null,
    2,
  ),
  'web/main.ts': `
import { createMemoryFs, createWorkspace } from 'sandpit-workspace';
import { connectWorkspace, createOpfsFs, type ConnectOptions, type RemoteWorkspace } from 'sandpit-workspace/web';

// Never called: the entry declares its own Worker and OPFS handle shapes (so it compiles without
// the DOM library), and the DOM's real ones must still fit them.
async function domTypesFit(): Promise<void> {
  // A URL held in a variable, so the bundler does not try to build a worker from it.
  const script: string = location.href;
  const options: ConnectOptions = { backend: 'opfs', worker: new Worker(script, { type: 'module' }) };
  await createOpfsFs({ directory: await navigator.storage.getDirectory() });
  void options;
}
void domTypesFit;

async function main() {
  const local = createWorkspace({ fs: createMemoryFs({ '/ws/a.txt': 'one\\n' }), root: '/ws' });
  const localRead = await local.call('read_file', { path: 'a.txt' });
  const ws: RemoteWorkspace = await connectWorkspace({ backend: 'memory', name: 'consumer' });
  const tools = (await ws.listTools()).length;
  await ws.call('write_file', { path: 'src/app.js', content: 'console.log("hi");\\n' });
  const edit = await ws.call('edit_file', { path: 'src/app.js', old_text: '"hi"', new_text: '"hello"' });
  const read = await ws.call('read_file', { path: 'src/app.js' });
  const undo = await ws.call('undo', {});
  const after = await ws.call('read_file', { path: 'src/app.js' });
  await ws.close();
  return { localRead, tools, edit, read, undo, after };
}

const out = document.getElementById('out')!;
main().then(
  (result) => { out.textContent = JSON.stringify(result); },
  (error: unknown) => { out.textContent = \`ERROR \${error instanceof Error ? error.stack : String(error)}\`; },
);
`,
};
