import type { Plugin } from 'vite';

/** How long Chromium may keep a module it fetched from Vite's server without asking again. */
const MAX_AGE_S = 3600;

/**
 * For `vitest run` of the browser project: lets Chromium's HTTP cache keep the transformed source
 * modules for the run, instead of asking Vite for each again (Vite marks them `no-cache`, and a 304
 * for every module costs as much as the load). Each test file's frame and each Worker loads the
 * module graph afresh: a Worker of web/worker.ts is about 150 modules, and client.test.ts alone
 * starts 27 of them. Nothing changes the sources during a run, and Chromium's profile (its cache
 * included) lives only as long as the run. Off in watch mode, where an edited source must reach the
 * next run: there every module is asked for again, as before.
 */
export function cacheModulesForTheRun(argv: readonly string[] = process.argv): Plugin {
  const run = argv.includes('run') || argv.includes('--run');
  return {
    name: 'sandpit:cache-modules-for-the-run',
    apply: 'serve',
    configureServer(server) {
      if (!run) return;
      server.middlewares.use((req, res, next) => {
        const url = req.url ?? '';
        // Only the module answers Vite marks no-cache; pages (the testers' HTML) stay as they are.
        if (url.startsWith('/__vitest') || /\.html?(\?|$)/.test(url)) return next();
        const setHeader = res.setHeader.bind(res);
        res.setHeader = (name, value) =>
          setHeader(
            name,
            name.toLowerCase() === 'cache-control' && value === 'no-cache' ? `max-age=${MAX_AGE_S}` : value,
          );
        next();
      });
    },
  };
}
