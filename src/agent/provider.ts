import { anthropicProvider, type AnthropicOptions } from './providers/anthropic.js';
import { openAIProvider, type OpenAIOptions } from './providers/openai.js';
import type { ModelProvider } from './types.js';

/** The two APIs the loop speaks. */
export type ApiKind = 'openai' | 'anthropic';

/** A provider by API kind; `api` defaults to a guess from the endpoint. */
export type ProviderOptions = (OpenAIOptions & AnthropicOptions) & { api?: ApiKind };

/** Anthropic for its own host or a `/messages` URL; everything else (local servers included) speaks OpenAI's API. */
export function guessApi(endpoint: string): ApiKind {
  return /anthropic\.com|\/messages\/?$/i.test(endpoint) ? 'anthropic' : 'openai';
}

/** Make the provider for an endpoint. */
export function createProvider(options: ProviderOptions): ModelProvider {
  const api = options.api ?? guessApi(options.endpoint);
  return api === 'anthropic' ? anthropicProvider(options) : openAIProvider(options);
}
