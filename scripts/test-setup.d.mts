/** The switches every test and bench Chromium runs with: no sandbox in CI containers, nothing that calls out. */
export const CHROMIUM_ARGS: string[];

/** The features Playwright turns off in every Chromium it launches, repeated in CHROMIUM_ARGS' own --disable-features. */
export const PLAYWRIGHT_DISABLED_FEATURES: string[];

/** The Chromium to test with: CHROMIUM_PATH when set, else the first one found, else null. */
export function findChromium(): string | null;
