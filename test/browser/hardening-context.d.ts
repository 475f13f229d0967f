import type { FigureRow } from '../hardening/figures.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** the hardening run's size and seed, decided in Node (see test/hardening/sizes.ts) */
    hardening: { full: boolean; seed: number };
  }
}

declare module 'vitest/browser' {
  interface BrowserCommands {
    /** adds a row to the hardening figures table, which lives on the Node side */
    recordHardeningFigures: (row: FigureRow) => Promise<void>;
  }
}
