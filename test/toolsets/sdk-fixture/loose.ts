// The shape toAnthropic had before: a schema whose `type` may be any string. The test expects
// this file to fail to compile, which proves the check above can fail.
import type Anthropic from '@anthropic-ai/sdk';
import type { JsonSchema } from '../../../src/contract/index.js';

declare const loose: Array<{ name: string; description: string; input_schema: JsonSchema }>;
// @ts-expect-error -- the point of this fixture: the loose shape does not assign
export const tools: Anthropic.Tool[] = loose;
