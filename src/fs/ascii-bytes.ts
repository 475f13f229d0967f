const encoder = new TextEncoder();
const ASCII = /^[\x00-\x7f]*$/;

/**
 * The UTF-8 bytes of `text`: an ASCII string copied code by code, anything else through
 * TextEncoder. Each TextEncoder call crosses into the browser and costs microseconds, and a
 * clone encodes a path for every record of the packed store and every entry of its index.
 */
export function utf8Bytes(text: string): Uint8Array {
  if (!ASCII.test(text)) return encoder.encode(text);
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
  return out;
}
