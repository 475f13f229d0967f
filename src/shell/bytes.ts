const decoder = new TextDecoder('utf-8');
const encoder = new TextEncoder();

/** File bytes as text for the shell's text streams (invalid UTF-8 becomes U+FFFD, as a terminal shows it). */
export const decodeLossy = (bytes: Uint8Array): string => decoder.decode(bytes);

export const encodeUtf8 = (text: string): Uint8Array => encoder.encode(text);
