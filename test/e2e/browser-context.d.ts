declare module 'vitest' {
  export interface ProvidedContext {
    /** the folder test/e2e/browser-global-setup.ts made for the e2e workers' Chromium profiles */
    e2eBrowserTemp: string;
  }
}

export {};
