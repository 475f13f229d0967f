import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin, ViteDevServer } from 'vite';

/** The id test/patch/scenarios.ts imports the scenario files by (test/support/scenario-files-module.d.ts). */
export const SCENARIO_FILES_ID = 'virtual:patch-scenario-files';
const RESOLVED_ID = `\0${SCENARIO_FILES_ID}`;
const SCENARIOS = fileURLToPath(new URL('../patch/scenarios', import.meta.url));

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

function invalidate(server: ViteDevServer): void {
  for (const env of Object.values(server.environments)) {
    const mod = env.moduleGraph.getModuleById(RESOLVED_ID);
    if (mod) env.moduleGraph.invalidateModule(mod);
  }
}

/**
 * Serves the 250-odd scenario files as one module. Through the glob each was a module of its own,
 * fetched and evaluated by every contract page and worker of the browser project: 1-2 CPU-s per
 * file (docs/development.md). Each file is watched, so an edit reruns the tests that load
 * scenarios; a file added or removed does the same, through the module that imports this one.
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
      const importer = fileURLToPath(new URL('../patch/scenarios.ts', import.meta.url));
      const onAddOrRemove = (file: string) => {
        if (!file.startsWith(SCENARIOS + sep)) return;
        invalidate(server);
        // A new file is in no module's graph yet: a change to the importer reruns what loads scenarios.
        server.watcher.emit('change', importer);
      };
      server.watcher.on('add', onAddOrRemove);
      server.watcher.on('unlink', onAddOrRemove);
    },
  };
}
