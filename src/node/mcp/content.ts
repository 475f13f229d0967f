import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Envelope } from '../../contract/index.js';

type Row = Record<string, unknown>;
type Block = CallToolResult['content'][number];

const isObject = (value: unknown): value is Row => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A tool's envelope as an MCP call result: structuredContent is the result object (or the error
 * object with isError), the text block is the envelope as the toolset presents it, and media a
 * manifest tool attached (seed 003) goes out as image and audio blocks, its base64 kept out of
 * the JSON so a client never reads it as text.
 */
export function toCallResult(envelope: Envelope, present: (envelope: Envelope) => Row): CallToolResult {
  const media: Block[] = [];
  const stripped =
    envelope.ok && isObject(envelope.result) && Array.isArray(envelope.result.media)
      ? { ...envelope, result: { ...envelope.result, media: envelope.result.media.map((m) => takeMedia(m, media)) } }
      : envelope;
  const shown = present(stripped);
  const structured = stripped.ok ? stripped.result : stripped.error;
  return {
    content: [{ type: 'text', text: JSON.stringify(shown) }, ...media],
    ...(isObject(structured) ? { structuredContent: structured } : {}),
    isError: failed(stripped, shown),
  };
}

/**
 * Whether the client should read the call as failed: a toolset's own envelope says so by `ok`
 * (file_manager's); the vendors' native answers carry no `ok` (apply_patch's `{status, output}`),
 * so the call's envelope decides, and Anthropic's `is_error` (a bash timeout) counts too.
 */
function failed(envelope: Envelope, shown: Row): boolean {
  if ('ok' in shown) return shown.ok !== true;
  return !envelope.ok || shown.is_error === true;
}

// An image or audio file becomes its own block; other kinds (PDF, video) stay as they were.
function takeMedia(item: unknown, blocks: Block[]): unknown {
  if (!isObject(item) || typeof item.data_base64 !== 'string' || typeof item.mime !== 'string') return item;
  const kind = item.mime.startsWith('image/') ? 'image' : item.mime.startsWith('audio/') ? 'audio' : null;
  if (!kind) return item;
  blocks.push({ type: kind, data: item.data_base64, mimeType: item.mime });
  const { data_base64: _sent, ...rest } = item;
  return { ...rest, sent_as: kind };
}
