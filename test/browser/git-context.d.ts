declare module 'vitest' {
  export interface ProvidedContext {
    /** the test git server started by test/browser/git-global-setup.ts */
    gitServer: { url: string; root: string; token: string };
  }
}

declare module 'vitest/browser' {
  interface BrowserCommands {
    /** make a bare repository on the test git server, holding `files` in one commit on main */
    gitCreateRepo: (root: string, name: string, files: Record<string, string>, executable?: string[]) => Promise<void>;
    gitModesOnBranch: (root: string, name: string, branch: string) => Promise<string[]>;
    /** the files of a branch as the real git CLI's clone sees them */
    gitFilesOnBranch: (root: string, name: string, branch: string) => Promise<Record<string, string>>;
    /** whether the repository has the branch */
    gitHasBranch: (root: string, name: string, branch: string) => Promise<boolean>;
  }
}

export {};
