// The last step of `npm run build`: make the CLI executable, then stamp the build as complete, so a
// test run can tell a dist/ built from the current sources from one a failed or older build left.
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = new URL('..', import.meta.url);
chmodSync(fileURLToPath(new URL('dist/node/cli.js', root)), 0o755);
mkdirSync(fileURLToPath(new URL('node_modules/.cache/', root)), { recursive: true });
writeFileSync(fileURLToPath(new URL('node_modules/.cache/sandpit-build-stamp', root)), `${new Date().toISOString()}\n`);
