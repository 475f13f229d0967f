declare module 'vitest' {
  export interface ProvidedContext {
    /** the local npm registry started by test/browser/npm-global-setup.ts */
    npmRegistry: { url: string };
  }
}

export {};
