import { ToolError } from '../contract/index.js';
import { toToolError } from '../fs/tool-error.js';
import { redact } from './redact.js';

type Foreign = { code?: unknown; name?: unknown; message?: unknown; data?: Record<string, unknown> } | null;

/**
 * Turn a failure of isomorphic-git or the network into a ToolError with a code from DESIGN.md's
 * list. Foreign text is kept only where it is the remote's own words (a rejected ref's reason),
 * and every message is scrubbed of `secrets` and of credentials in URLs.
 */
export function toGitError(error: unknown, action: string, url: string, secrets: readonly string[]): ToolError {
  if (error instanceof ToolError) return scrub(error, secrets);
  const e = error as Foreign;
  const code = typeof e?.code === 'string' ? e.code : '';
  const data = e?.data ?? {};
  const where = `'${redact(url, secrets)}'`;
  switch (code) {
    case 'HttpError': {
      const status = Number(data.statusCode);
      if (status === 401 || status === 403) {
        return new ToolError(
          'PERMISSION_DENIED',
          `the git server refused to ${action} ${where} (HTTP ${status}): the credentials are missing or wrong`,
          {
            hint: 'Pass a token that may read (and, to push, write) this repository; it is sent only when the server asks.',
          },
        );
      }
      if (status === 404) return notFound(`the git server has no repository at ${where} (HTTP 404)`);
      return new ToolError('IO_ERROR', `the git server answered HTTP ${status} while trying to ${action} ${where}`, {
        hint: 'Check the URL; retry later if the server is busy.',
      });
    }
    case 'NotFoundError':
      return notFound(`could not ${action} ${where}: ${redact(String(data.what ?? 'the ref'), secrets)} was not found`);
    case 'SmartHttpError':
      return notFound(`${where} is not a git repository that speaks git's smart HTTP protocol`);
    case 'PushRejectedError':
    case 'GitPushError': {
      const details = redact(String(data.prettyDetails ?? data.reason ?? ''), secrets).trim();
      return new ToolError(
        'STALE_FILE',
        `the git server rejected the push to ${where}: the branch has commits the workspace does not have${details ? ` (${details})` : ''}`,
        {
          hint: 'Pull first (git.pull) to bring the workspace up to date, or push to a new branch.',
        },
      );
    }
    case 'UserCanceledError':
      return new ToolError('PERMISSION_DENIED', `the credentials callback cancelled the request to ${action} ${where}`);
    case 'RemoteCapabilityError':
      return new ToolError(
        'NOT_SUPPORTED',
        `the git server at ${where} cannot do what was asked (${redact(String(data.capability ?? ''), secrets)})`,
        {
          hint: 'Leave out depth, or use another server.',
        },
      );
  }
  if (error instanceof TypeError || e?.name === 'AbortError') {
    // Node's fetch says only "fetch failed"; its cause's code (ECONNRESET, UND_ERR_SOCKET) tells a
    // refused connection from one the server dropped mid-answer
    const cause = (e as { cause?: { code?: unknown } }).cause?.code;
    const why =
      typeof cause === 'string' && /^[A-Z][A-Z0-9_]{2,40}$/.test(cause) ? `network error: ${cause}` : 'network error';
    return new ToolError('IO_ERROR', `could not reach the git server at ${where} (${why})`, {
      hint: 'Check the URL and the network; in a browser the server must allow CORS, or pass corsProxy.',
    });
  }
  if (code && typeof (e as { caller?: unknown }).caller === 'string') {
    // isomorphic-git's own messages can name backend paths, so only its error's name is kept.
    return new ToolError('IO_ERROR', `git could not ${action} ${where} (${code})`, {
      hint: 'Check the URL and the ref; report it if it repeats.',
    });
  }
  return scrub(toToolError(error), secrets);
}

function notFound(message: string): ToolError {
  return new ToolError('NOT_FOUND', message, { hint: 'Check the repository URL and the branch or tag name.' });
}

function scrub(error: ToolError, secrets: readonly string[]): ToolError {
  const message = redact(error.message, secrets);
  const hint = error.hint && redact(error.hint, secrets);
  if (message === error.message && hint === error.hint) return error;
  return new ToolError(error.code, message, { hint, problems: error.problems, details: error.details });
}
