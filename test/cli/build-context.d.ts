declare module 'vitest' {
  export interface ProvidedContext {
    /** set by test/cli/build-global-setup.ts once dist/ is built from the current sources */
    cliBuiltThisRun: boolean;
  }
}

export {};
