declare module 'vitest' {
  export interface ProvidedContext {
    /** the local npm registry started by test/browser/npm-global-setup.ts */
    npmRegistry: { url: string };
  }
}

declare module 'vitest/browser' {
  interface BrowserCommands {
    /** the package-lock.json the real npm CLI writes for `project` against `registry` */
    npmCliLock: (registry: string, project: unknown) => Promise<{ packages: Record<string, Record<string, unknown>> }>;
  }
}

export {};
