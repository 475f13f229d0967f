/** The gzip size of what a worker serving OPFS loads (see worker-size.mjs). */
export function opfsWorkerGzip(assetsDir: string): Promise<number>;
/** The gzip size of what the shell adds to that worker on the first run_command (see worker-size.mjs). */
export function shellChunkGzip(assetsDir: string): Promise<number>;
