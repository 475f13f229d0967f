import type { RetryInfo } from './types.js';

/** How often and how long to retry a 429 or 5xx answer. */
export interface RetryPolicy {
  /** retries after the first attempt (default 4) */
  retries?: number;
  /** the first backoff, doubled on each retry (default 1,000 ms) */
  base_delay_ms?: number;
  /** no single wait is longer than this, Retry-After included (default 30,000 ms) */
  max_delay_ms?: number;
}

// 408 and 409 are transient in OpenAI's own clients; 529 is Anthropic's "overloaded".
const RETRYABLE = new Set([408, 409, 429, 500, 502, 503, 504, 529]);

/** Whether an HTTP status is worth trying again. */
export const isRetryable = (status: number): boolean => RETRYABLE.has(status);

/**
 * How long the server asked us to wait, in ms: `retry-after-ms`, then `Retry-After` as seconds
 * or as an HTTP date. Null when it did not say.
 */
export function retryAfterMs(headers: Headers, now = Date.now()): number | null {
  const ms = Number(headers.get('retry-after-ms'));
  if (headers.get('retry-after-ms') !== null && Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** The wait before retry `attempt` (1-based): the server's word if given, else exponential backoff with jitter. */
export function backoffMs(attempt: number, headers: Headers, policy: RetryPolicy = {}): number {
  const max = policy.max_delay_ms ?? 30_000;
  const asked = retryAfterMs(headers);
  if (asked !== null) return Math.min(asked, max);
  const base = (policy.base_delay_ms ?? 1000) * 2 ** (attempt - 1);
  return Math.min(max, Math.round(base * (0.75 + Math.random() * 0.5)));
}

/** Wait, unless the signal stops the run first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Send a request, trying again on 429 and 5xx as the policy allows. Resolves to the last
 * response, retryable or not; the caller turns a bad one into a clear error.
 */
export async function fetchWithRetry(
  send: () => Promise<Response>,
  policy: RetryPolicy,
  signal?: AbortSignal,
  onRetry?: (info: RetryInfo) => void,
  permanent?: (status: number, body: string) => boolean,
): Promise<Response> {
  const retries = policy.retries ?? 4;
  for (let attempt = 1; ; attempt++) {
    const response = await send();
    if (!isRetryable(response.status) || attempt > retries) return response;
    const delay = backoffMs(attempt, response.headers, policy);
    // Reading the body frees the connection, and it may say that trying again cannot help.
    const body = await response.text().catch(() => '');
    if (permanent?.(response.status, body))
      return new Response(body, { status: response.status, headers: response.headers });
    onRetry?.({ attempt, status: response.status, delay_ms: delay });
    await sleep(delay, signal);
  }
}
