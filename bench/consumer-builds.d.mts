/** The app's files, by path below the consumer project. */
export declare const appFiles: Record<string, string>;
/** The package's chunks the app's calls load beyond what the package's entry modules import themselves. */
export declare const appLoads: readonly string[];
/** The page that loads a build's entry. */
export declare function page(script: string): string;
/** Run a program, failing with its output; answers its stdout. */
export declare function mustRun(command: string, args: string[], cwd: string): string;
/** Write files below `dir`, making folders as needed. */
export declare function writeTree(dir: string, files: Record<string, string>): Promise<void>;
/** The gzip size of some files of a build, in KiB. */
export declare function gzipKiB(files: Record<string, string>, names: readonly string[]): number;

/** A build's output: every file as text, and which files load before the OPFS worker and the page answer. */
export interface Built {
  out: string;
  files: Record<string, string>;
  /** the worker's entry and the OPFS adapter it loads as the workspace opens, with what they import */
  workerFirstLoad: string[];
  /** the page's entry and what it imports before it runs */
  pageFirstLoad: string[];
  /** the files that hold a chunk the package loads on first use, by the name of its chunk in the package */
  lazy(name: 'run' | 'pack' | 'clone'): string[];
  /** the JavaScript files the build left unminified (webpack with `minifyOnly`; otherwise none) */
  unminified?: string[];
}

export declare function buildVite(app: string): Promise<Built>;
/** `minifyOnly`: minify what the app can load (its entries, what the package's entries import, these chunks' imports). */
export declare function buildWebpack(app: string, options?: { minifyOnly?: readonly string[] }): Promise<Built>;
export declare function buildEsbuild(app: string): Promise<Built>;
