/** The Chromium to test with: CHROMIUM_PATH when set, else the first one found, else null. */
export function findChromium(): string | null;
