import type { Envelope } from '../contract/index.js';
import type { AgentMedia, AgentWorkspace, ProviderCaps } from './types.js';

interface MediaEntry {
  name?: unknown;
  mime?: unknown;
  size_bytes?: unknown;
  data_base64?: unknown;
}

/**
 * A tool result's attached media taken out of its JSON (a base64 image inside text is noise
 * the model cannot see) and sent the way the API shows images, when the model can see them.
 * Without vision, or for media the tool-result APIs cannot carry, the entry is dropped with the
 * reason seed 003 gives; the rest of the result still arrives.
 */
export function splitMedia(
  envelope: Envelope,
  vision: boolean,
): {
  /** the envelope with its media taken out (or replaced by a note without vision) */
  envelope: Envelope;
  /** the images to send beside it */
  media: AgentMedia[];
} {
  if (!envelope.ok || typeof envelope.result !== 'object' || envelope.result === null) return { envelope, media: [] };
  const result = envelope.result as Record<string, unknown>;
  if (!Array.isArray(result.media) || result.media.length === 0) return { envelope, media: [] };
  const media: AgentMedia[] = [];
  const kept: unknown[] = [];
  const dropped: unknown[] = Array.isArray(result.media_dropped) ? [...result.media_dropped] : [];
  for (const entry of result.media as MediaEntry[]) {
    const name = typeof entry?.name === 'string' ? entry.name : '';
    const mime = typeof entry?.mime === 'string' ? entry.mime : '';
    if (typeof entry?.data_base64 !== 'string') continue;
    if (!mime.startsWith('image/') || mime === 'image/svg+xml')
      dropped.push({ name, reason: `a ${mime || 'file'} cannot be shown to the model in a tool result` });
    else if (!vision) dropped.push({ name, reason: 'the model cannot take image input' });
    else {
      media.push({ name, mime, data_base64: entry.data_base64 });
      kept.push({ name, mime, size_bytes: entry.size_bytes, attached: true });
    }
  }
  const { media: _all, media_dropped: _old, ...rest } = result;
  const shown = {
    ...rest,
    ...(kept.length ? { media: kept } : {}),
    ...(dropped.length ? { media_dropped: dropped } : {}),
  };
  return { envelope: { ...envelope, result: shown }, media };
}

/**
 * For one run, narrow the workspace's caps to what the provider's model takes (a provider that
 * declares none takes no media), so a library user declares vision once, on the provider, and a
 * tool never attaches what the loop would drop. Returns the undo, which puts the workspace's own
 * caps back.
 */
export function lendProviderCaps(workspace: AgentWorkspace, providerCaps: ProviderCaps | undefined): () => void {
  const caps = workspace.caps;
  if (!caps) return () => {};
  const own = { ...caps };
  for (const kind of Object.keys(caps) as Array<keyof ProviderCaps>)
    caps[kind] = own[kind] && providerCaps?.[kind] === true;
  return () => {
    Object.assign(caps, own);
  };
}
