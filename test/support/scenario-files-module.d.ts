declare module 'virtual:patch-scenario-files' {
  /** Every scenario file's text, keyed `./scenarios/<folder>/<path>` (test/support/scenario-files.ts). */
  const files: Record<string, string>;
  export default files;
}
