import { AgentError } from './events.js';
import { fetchWithRetry, type RetryPolicy } from './retry.js';
import type { RetryInfo } from './types.js';

/** How a provider reaches its API. */
export interface HttpOptions {
  /** the fetch to use (default the global one) */
  fetch?: typeof fetch;
  /** how 429 and 5xx answers are retried */
  retry?: RetryPolicy;
}

/** The text an API put in an error body, kept short: `{error:{message}}`, `{error:"..."}`, `{message}` or plain text. */
export function serverMessage(body: string): string {
  let text = body.trim();
  try {
    const parsed = JSON.parse(text) as { error?: unknown; message?: unknown; detail?: unknown };
    const error = parsed.error as { message?: unknown } | string | undefined;
    const found =
      typeof error === 'string'
        ? error
        : typeof error?.message === 'string'
          ? error.message
          : typeof parsed.message === 'string'
            ? parsed.message
            : typeof parsed.detail === 'string'
              ? parsed.detail
              : null;
    if (found !== null) text = found;
  } catch {
    // not JSON: the text itself is the message
  }
  return text.length > 300 ? `${text.slice(0, 300)}…` : text || '(no message)';
}

// Servers word "this model cannot call tools" many ways: Ollama's "does not support tools",
// llama.cpp's "tools param requires --jinja", vLLM's "auto tool choice requires --enable-auto-tool-choice".
const NO_TOOLS = /\btools?\b|function[ _]?call/i;

/** A server's refusal of tool calling: some (llama.cpp without --jinja) answer it with a 500, which is not worth retrying. */
export function refusesTools(status: number, body: string): boolean {
  return (status === 400 || status === 422 || status === 500 || status === 501) && NO_TOOLS.test(serverMessage(body));
}

/** Turn a failed answer into an AgentError that says what the person can do about it. */
export function errorFor(status: number, body: string, attempts: number): AgentError {
  const said = serverMessage(body);
  if (status === 401 || status === 403) {
    return new AgentError(
      'UNAUTHORIZED',
      `The model endpoint refused the request (${status}): ${said}. Check the API key and that it may use this model.`,
      status,
    );
  }
  if (status === 429) {
    return new AgentError(
      'RATE_LIMITED',
      `The model endpoint is rate limiting (429) and still was after ${attempts} attempts: ${said}. Wait a little and try again, or lower the request rate.`,
      status,
    );
  }
  if (refusesTools(status, body)) {
    return new AgentError(
      'NO_TOOL_SUPPORT',
      `The model or its server does not accept tool calls (${status}): ${said}. Pick a model with tool (function) calling, or start the server with it enabled (llama.cpp: --jinja; vLLM: --enable-auto-tool-choice --tool-call-parser NAME).`,
      status,
    );
  }
  if (status === 404) {
    return new AgentError(
      'MODEL_NOT_FOUND',
      `The endpoint answered 404: ${said}. Check the model name and the endpoint URL (an OpenAI-compatible server usually ends in /v1).`,
      status,
    );
  }
  const retried = status >= 500 && attempts > 1 ? ` after ${attempts} attempts` : '';
  return new AgentError('MODEL_ERROR', `The model endpoint answered ${status}${retried}: ${said}`, status);
}

/**
 * POST a JSON body, retrying 429 and 5xx, and resolve to an OK response whose body is unread.
 * Anything else becomes an AgentError; a stop rejects with the signal's reason.
 */
export async function postJson(
  url: string,
  headers: Record<string, string>,
  body: unknown,
  options: HttpOptions,
  signal?: AbortSignal,
  onRetry?: (info: RetryInfo) => void,
): Promise<Response> {
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  let attempts = 0;
  const send = async () => {
    attempts++;
    try {
      return await doFetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
        ...(signal ? { signal } : {}),
      });
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      throw new AgentError(
        'UNREACHABLE',
        `Cannot reach the model endpoint ${safeUrl(url)} (${(error as Error).message}${causeOf(error)}). Check the URL and that the server is running${typeof document === 'undefined' ? '' : ', and that it allows requests from this page (CORS)'}.`,
      );
    }
  };
  const response = await fetchWithRetry(send, options.retry ?? {}, signal, onRetry, refusesTools);
  if (response.ok) return response;
  const text = await response.text().catch(() => '');
  throw errorFor(response.status, text, attempts);
}

// Node's fetch says only "fetch failed"; the cause holds ECONNREFUSED and the like.
function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown } }).cause;
  return typeof cause?.code === 'string' ? `: ${cause.code}` : '';
}

/** The URL without credentials or query, which might carry a key. */
export function safeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return '(not a valid URL)';
  }
}
