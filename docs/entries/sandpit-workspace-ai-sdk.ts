/**
 * The Vercel AI SDK adapter: a workspace's tools as AI SDK tools for `generateText`, `streamText`
 * and `ToolLoopAgent`. Needs `ai` (version 7), an optional peer dependency.
 * @module sandpit-workspace/ai-sdk
 */
export * from '../../src/adapters/ai-sdk/index.js';
