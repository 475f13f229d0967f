/** The gzip size of what a worker serving OPFS loads (see worker-size.mjs). */
export function opfsWorkerGzip(assetsDir: string): Promise<number>;
