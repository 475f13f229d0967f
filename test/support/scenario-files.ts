import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

/** The id test/patch/scenarios.ts imports the scenario files by (test/support/scenario-files-module.d.ts). */
export const SCENARIO_FILES_ID = 'virtual:patch-scenario-files';
const SCENARIOS = fileURLToPath(new URL('../patch/scenarios', import.meta.url));
// The folder itself, not a \0 id: Vitest's watch mode walks from a changed file up through the
// importers that have a file, and a virtual module without one would end the walk short of the tests.
const RESOLVED_ID = `${SCENARIOS}?scenario-files`;

function filesBelow(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesBelow(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

/**
 * Every file below `folder` as text, keyed `./scenarios/<path>` and in the order of
 * `import.meta.glob('./scenarios/**\/*', { query: '?raw' })` from test/patch: the keys and text that
 * glob gave, as one object.
 */
export function scenarioFileTexts(folder = SCENARIOS): Record<string, string> {
  const keyed = filesBelow(folder).map((file) => [`./scenarios/${relative(folder, file).split(sep).join('/')}`, file]);
  keyed.sort(([a], [b]) => (a! < b! ? -1 : a! > b! ? 1 : 0));
  return Object.fromEntries(keyed.map(([key, file]) => [key, readFileSync(file!, 'utf-8')]));
}

/**
 * Serves the 250-odd scenario files as one module. Through the glob each was a module of its own,
 * fetched and evaluated by every contract page and worker of the browser project: 1-2 CPU-s per
 * file (docs/development.md). A file added, changed or removed in watch mode reruns the tests that
 * load scenarios, with the folder read again.
 */
export function scenarioFiles(): Plugin {
  return {
    name: 'sandpit:scenario-files',
    resolveId(id) {
      return id === SCENARIO_FILES_ID ? RESOLVED_ID : undefined;
    },
    load(id) {
      if (id !== RESOLVED_ID) return undefined;
      for (const file of filesBelow(SCENARIOS)) this.addWatchFile(file);
      return `export default ${JSON.stringify(scenarioFileTexts())};`;
    },
    configureServer(server) {
      // A file added is in no module's graph yet, and Vitest invalidates only the changed file's own
      // module: a change to the folder (this module's file) invalidates this module and reruns what loads it.
      const onScenarioFile = (file: string) => {
        if (file.startsWith(SCENARIOS + sep)) server.watcher.emit('change', SCENARIOS);
      };
      for (const event of ['add', 'change', 'unlink'] as const) server.watcher.on(event, onScenarioFile);
    },
  };
}
