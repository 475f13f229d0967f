declare module 'vitest' {
  export interface ProvidedContext {
    /** set by test/cli/build-global-setup.ts once dist/ is built from the current sources */
    cliBuiltThisRun: boolean;
    /** a folder this run owns where the demo page is built once, on first use (test/bundle/web-build.ts) */
    sharedDemoBuild: string;
  }
}

export {};
