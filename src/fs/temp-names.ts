/**
 * The temporary file an atomic write goes through on the node backend: `.<name>.<12 hex>.sandpit-tmp`
 * beside its target, renamed over it when complete. One left behind means the writer was killed.
 */
export function atomicTempName(name: string, randomHex: string): string {
  return `.${name}.${randomHex}.sandpit-tmp`;
}

const LEFTOVER = /^\..+\.[0-9a-f]{12}\.sandpit-tmp$/;

/** Whether a name is such a temporary file: never workspace content. */
export function isAtomicTemp(name: string): boolean {
  // most names fail on their first character: no regex run for them (a rescan asks for every file)
  return name.charCodeAt(0) === 46 && LEFTOVER.test(name);
}
