declare module 'vitest' {
  export interface ProvidedContext {
    /** whether the tests' workers run the package's built worker (test/browser/built-worker.ts) */
    builtWorker: boolean;
  }
}

export {};
