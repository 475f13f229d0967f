#!/usr/bin/env node
// The step before `npm test`: find what the tests need outside npm (Chromium, git, ripgrep, tree,
// bubblewrap), install what is missing where that can be done without asking (Playwright's own
// Chromium download; apt-get as root on Debian or Ubuntu), or stop at once with one line that
// says what to install. Prints `CHROMIUM_PATH=<path>` when done.
//
// vitest.config.ts calls findChromium() itself too, so `npx vitest` without this step finds the same browser.
//
// Environment: CHROMIUM_PATH (use this browser), SANDPIT_SETUP_NO_INSTALL=1 (only look, never
// install). For the set-up's own tests: SANDPIT_SETUP_OS_RELEASE (another os-release file),
// SANDPIT_SETUP_PLAYWRIGHT_CLI (another Playwright CLI), SANDPIT_SETUP_NO_SYSTEM_PATHS=1 (look for
// Chromium on PATH and in Playwright's cache only, not in the fixed system locations).
import { spawnSync } from 'node:child_process';
import { accessSync, constants, readFileSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

const env = process.env;
const noInstall = env.SANDPIT_SETUP_NO_INSTALL === '1';

/** The tools besides Chromium, the apt package that has each, and why the tests need it. */
const TOOLS = [
  { bin: 'git', apt: 'git', why: 'the snapshot tests compare with the git CLI' },
  { bin: 'rg', apt: 'ripgrep', why: 'the search benchmarks and tests compare with ripgrep' },
  { bin: 'tree', apt: 'tree', why: "the shell's differential test compares tree's output with the real tree" },
  { bin: 'bwrap', apt: 'bubblewrap', why: 'run_command runs in a bubblewrap sandbox on Linux', linuxOnly: true },
];

const executable = (path) => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** The first `name` on PATH, or null. */
function onPath(name) {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir && executable(join(dir, name))) return join(dir, name);
  }
  return null;
}

/** Playwright's own Chromium builds, newest first, from its cache folder. */
function playwrightChromiums() {
  const cache =
    env.PLAYWRIGHT_BROWSERS_PATH && env.PLAYWRIGHT_BROWSERS_PATH !== '0'
      ? env.PLAYWRIGHT_BROWSERS_PATH
      : process.platform === 'darwin'
        ? join(homedir(), 'Library', 'Caches', 'ms-playwright')
        : process.platform === 'win32'
          ? join(env.LOCALAPPDATA ?? homedir(), 'ms-playwright')
          : join(homedir(), '.cache', 'ms-playwright');
  let names = [];
  try {
    names = readdirSync(cache)
      .filter((n) => /^chromium(_headless_shell)?-\d+$/.test(n))
      .sort()
      .reverse();
  } catch {
    return [];
  }
  const inside = [
    ['chrome-linux', 'chrome'],
    ['chrome-linux64', 'chrome'],
    ['chrome-headless-shell-linux64', 'chrome-headless-shell'],
    ['chrome-mac', 'Chromium.app', 'Contents', 'MacOS', 'Chromium'],
    ['chrome-win', 'chrome.exe'],
  ];
  return names.flatMap((n) => inside.map((parts) => join(cache, n, ...parts)));
}

/** Every place a Chromium may be, in the order the issue names them. */
function chromiumCandidates() {
  const fixed =
    env.SANDPIT_SETUP_NO_SYSTEM_PATHS === '1'
      ? []
      : [
          '/usr/bin/chromium',
          '/usr/bin/chromium-browser',
          '/snap/bin/chromium',
          '/usr/bin/google-chrome',
          '/usr/bin/google-chrome-stable',
          '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
          '/Applications/Chromium.app/Contents/MacOS/Chromium',
        ];
  const named = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'].map(onPath).filter(Boolean);
  return [...new Set([...named, ...fixed, ...playwrightChromiums()])];
}

/**
 * The features Playwright (1.65) turns off in every Chromium it launches. Chromium keeps only the
 * last `--disable-features` it is given, so a list of ours must repeat Playwright's, or it would
 * turn them back on (test/setup/chromium-args.test.ts compares the two).
 */
export const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

/**
 * The address bar's suggestion popups, which Chromium 156 draws as two web pages of its own
 * (chrome://omnibox-popup.top-chrome) and loads for every new window, so for every browser context
 * and tab a test opens, though a headless window never shows them: about 0.6 CPU-seconds each.
 */
const UNSEEN_BROWSER_UI = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];

/** The switches every test and bench Chromium runs with: no sandbox in CI containers, nothing that calls out. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...UNSEEN_BROWSER_UI].join(',')}`,
];

/** The Chromium to test with: CHROMIUM_PATH when set, else the first one found, else null. */
export function findChromium() {
  if (env.CHROMIUM_PATH) return executable(env.CHROMIUM_PATH) ? env.CHROMIUM_PATH : null;
  return chromiumCandidates().find(executable) ?? null;
}

function isDebianLike() {
  try {
    const text = readFileSync(env.SANDPIT_SETUP_OS_RELEASE ?? '/etc/os-release', 'utf8');
    return /^(ID|ID_LIKE)=.*\b(debian|ubuntu)\b/m.test(text);
  } catch {
    return false;
  }
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

function run(command, args, shown = `${command} ${args.join(' ')}`) {
  process.stderr.write(`test-setup: ${shown}\n`);
  return (
    spawnSync(command, args, {
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...env, DEBIAN_FRONTEND: 'noninteractive' },
    }).status === 0
  );
}

/** Stop with one line: what is missing and how to install it. */
function stop(missing) {
  const apt = missing.map((m) => m.apt).join(' ');
  const chromium = missing.some((m) => m.bin === 'chromium');
  const how = [
    `apt-get install -y ${apt} (as root on Debian/Ubuntu)`,
    ...(chromium ? ['or `npx playwright install chromium`, or set CHROMIUM_PATH to a Chromium or Chrome'] : []),
  ].join(', ');
  process.stderr.write(
    `test-setup: missing ${missing.map((m) => `${m.bin} (${m.why})`).join(', ')}: install with ${how}\n`,
  );
  process.exit(1);
}

function main() {
  if (env.CHROMIUM_PATH && !executable(env.CHROMIUM_PATH)) {
    process.stderr.write(
      'test-setup: CHROMIUM_PATH does not name an executable Chromium; unset it or point it at one\n',
    );
    process.exit(1);
  }
  const linux = process.platform === 'linux';
  const missing = TOOLS.filter((t) => (!t.linuxOnly || linux) && !onPath(t.bin));
  let chromium = findChromium();
  if (!chromium) missing.unshift({ bin: 'chromium', apt: 'chromium', why: 'the browser tests run in real Chromium' });
  if (missing.length > 0 && !noInstall) {
    // Playwright first for Chromium: it needs no root, only a download that may be refused.
    const playwright = env.SANDPIT_SETUP_PLAYWRIGHT_CLI ?? join(root, 'node_modules', 'playwright', 'cli.js');
    if (!chromium && run(process.execPath, [playwright, 'install', 'chromium'], 'npx playwright install chromium')) {
      chromium = findChromium();
      if (chromium)
        missing.splice(
          missing.findIndex((m) => m.bin === 'chromium'),
          1,
        );
    }
    const apt = onPath('apt-get');
    if (missing.length > 0 && linux && isRoot() && isDebianLike() && apt) {
      if (
        run(apt, ['update'], 'apt-get update') &&
        run(
          apt,
          ['install', '-y', ...missing.map((m) => m.apt)],
          `apt-get install -y ${missing.map((m) => m.apt).join(' ')}`,
        )
      ) {
        chromium = findChromium();
        missing.splice(
          0,
          missing.length,
          ...missing.filter((m) => (m.bin === 'chromium' ? !chromium : !onPath(m.bin))),
        );
      }
    }
  }
  if (missing.length > 0) stop(missing);
  process.stdout.write(`CHROMIUM_PATH=${chromium}\n`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
