// Compiled by sdk-types.test.ts (and by the project's tsc): every toolset's exports assign to the
// official SDK types with no cast. A cast here would hide exactly the mismatch this file is for.
import type Anthropic from '@anthropic-ai/sdk';
import type { ChatCompletionTool } from 'openai/resources/chat/completions';
import type { FunctionTool } from 'openai/resources/responses/responses';
import { TOOLSET_NAMES, toolset, toAnthropic, toOpenAI, toOpenAIResponses } from '../../../src/toolsets/index.js';

export const exported = TOOLSET_NAMES.map((name) => {
  const set = toolset(name);
  const chat: ChatCompletionTool[] = set.toOpenAI();
  const chatStrict: ChatCompletionTool[] = set.toOpenAI({ strict: true });
  const responses: FunctionTool[] = set.toOpenAI({ api: 'responses' });
  const responsesStrict: FunctionTool[] = set.toOpenAI({ api: 'responses', strict: true });
  const anthropic: Anthropic.Tool[] = set.toAnthropic();
  const direct: [ChatCompletionTool[], FunctionTool[], Anthropic.Messages.Tool[]] = [toOpenAI(set.tools), toOpenAIResponses(set.tools), toAnthropic(set.tools)];
  return { chat, chatStrict, responses, responsesStrict, anthropic, direct };
});
