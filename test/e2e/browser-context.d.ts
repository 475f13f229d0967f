declare module 'vitest' {
  export interface ProvidedContext {
    /** the endpoint of the Chromium test/e2e/browser-global-setup.ts launched for every e2e file */
    e2eBrowser: string;
  }
}

export {};
