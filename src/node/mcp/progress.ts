import type { CallOptions } from '../../workspace-core.js';

/** The params of one `notifications/progress`. */
export interface ProgressParams {
  /** the token the request's `_meta.progressToken` carried */
  progressToken: string | number;
  /** how far, rising with every notification */
  progress: number;
  /** the amount of work, when known */
  total?: number;
  /** what is being done */
  message?: string;
}

/**
 * A call's progress as MCP notifications for the request's `progressToken`: `send` delivers each
 * (the SDK's `extra.sendNotification`, or the early stdio writing a line itself). Kept free of the
 * SDK so the early answers can use it before the SDK loads.
 */
export function progressReporter(
  token: string | number,
  send: (params: ProgressParams) => void,
): NonNullable<CallOptions['onProgress']> {
  let last = -1;
  return (done, total, message) => {
    // The protocol wants progress to rise with every notification.
    const progress = Math.max(done, last + 1e-6);
    last = progress;
    send({
      progressToken: token,
      progress,
      ...(total !== undefined ? { total } : {}),
      ...(message ? { message } : {}),
    });
  };
}
