/** How long a call with a listener runs before `ToolContext.checkpoint` lets the event loop turn. */
export const YIELD_EVERY_MS = 10;

/**
 * Wait one macrotask, so I/O waiting on the host (a socket, a pipe, a worker's messages) is served.
 * setImmediate in Node; a MessageChannel in a browser, where a nested setTimeout may wait 4 ms.
 */
export const yieldToHost: () => Promise<void> =
  typeof setImmediate === 'function'
    ? () =>
        new Promise((resolve) => {
          setImmediate(resolve);
        })
    : typeof MessageChannel === 'function'
      ? () =>
          new Promise((resolve) => {
            const channel = new MessageChannel();
            channel.port1.onmessage = () => {
              channel.port1.close();
              resolve();
            };
            channel.port2.postMessage(null);
          })
      : () =>
          new Promise((resolve) => {
            setTimeout(resolve, 0);
          });
