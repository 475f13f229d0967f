declare module 'vitest' {
  export interface ProvidedContext {
    /** where a node test file asks for the run's one Chromium (test/web/chromium-global-setup.ts) */
    sharedChromium: string;
  }
}

export {};
