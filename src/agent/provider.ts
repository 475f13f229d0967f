import { anthropicProvider, type AnthropicOptions } from './providers/anthropic.js';
import { openAIProvider, type OpenAIOptions } from './providers/openai.js';
import { openAIResponsesProvider } from './providers/openai-responses.js';
import type { ModelProvider, ProviderCaps } from './types.js';

/** The two APIs the loop speaks. */
export type ApiKind = 'openai' | 'anthropic';

/** A provider by API kind; `api` defaults to a guess from the endpoint. */
export type ProviderOptions = (OpenAIOptions & AnthropicOptions) & {
  /** which API the endpoint speaks (default: guessed from the endpoint) */
  api?: ApiKind;
  /**
   * The model can see images: tools' attached images go to it as image blocks (else they are
   * dropped with a reason). A host passes `provider.caps` on to tools as ZAGENT_CAPS.
   */
  vision?: boolean;
  /**
   * For `api: 'openai'`: speak OpenAI's Responses API (`/responses`) rather than chat completions;
   * it is the API whose built-in apply_patch and shell tools the `openai` toolset answers.
   */
  responses?: boolean;
};

/** The media a provider's model takes: images with `vision`, nothing else through tool results. */
export function providerCaps(options: { vision?: boolean }): ProviderCaps {
  return { vision: options.vision === true, audio: false, pdf: false, video: false };
}

/** Anthropic for its own host or a `/messages` URL; everything else (local servers included) speaks OpenAI's API. */
export function guessApi(endpoint: string): ApiKind {
  return /anthropic\.com|\/messages\/?$/i.test(endpoint) ? 'anthropic' : 'openai';
}

/** Make the provider for an endpoint. */
export function createProvider(options: ProviderOptions): ModelProvider {
  const api = options.api ?? guessApi(options.endpoint);
  const provider =
    api === 'anthropic'
      ? anthropicProvider(options)
      : options.responses
        ? openAIResponsesProvider(options)
        : openAIProvider(options);
  return { ...provider, turn: provider.turn.bind(provider), caps: providerCaps(options) };
}
