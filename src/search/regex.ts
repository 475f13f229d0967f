import type { RE2JS } from 're2js';
import { ToolError } from '../contract/index.js';

// Loaded on the first regex search only: the engine is most of a browser worker's first download otherwise.
let engine: Promise<typeof import('re2js')> | null = null;

/** Finds the first match in one line: its UTF-16 index and length, or null. */
export type LineFinder = (line: string) => { index: number; length: number } | null;

/**
 * Compile a model's regex with RE2 (re2js, pure JavaScript): matching takes time linear in the
 * line, so no pattern can freeze the process the way a backtracking `RegExp` can on `(a+)+$`.
 * RE2 lacks backreferences and lookaround; those are refused by name rather than with RE2's
 * parser message, so the model knows to rewrite the pattern, not fix a typo.
 */
export async function compileRegex(pattern: string, caseSensitive: boolean): Promise<LineFinder> {
  const source = translateEscapes(pattern);
  const { RE2JS: Engine } = await (engine ??= import('re2js'));
  let re: RE2JS;
  try {
    re = Engine.compile(source, caseSensitive ? 0 : Engine.CASE_INSENSITIVE);
  } catch (error) {
    throw refusal(pattern, error instanceof Error ? error.message : String(error));
  }
  return (line) => {
    const m = re.matcher(line);
    if (!m.find()) return null;
    const index = m.start();
    return { index, length: m.end() - index };
  };
}

/** JavaScript's `\uXXXX` and `\u{X}` mean the same as RE2's `\x{X}`; nothing else is rewritten. */
function translateEscapes(pattern: string): string {
  return pattern.replace(/(\\+)u(\{[0-9A-Fa-f]{1,6}\}|[0-9A-Fa-f]{4})/g, (whole, slashes: string, code: string) =>
    slashes.length % 2 === 0 ? whole : `${slashes.slice(1)}\\x{${code.replace(/[{}]/g, '')}}`,
  );
}

function refusal(pattern: string, why: string): ToolError {
  const detail = why.replace(/^error parsing regexp: /, '');
  const lacks =
    /\\[1-9]/.test(pattern) && /invalid escape sequence: `\\[1-9]/.test(why)
      ? 'backreferences (\\1)'
      : /\(\?<?[=!]/.test(pattern)
        ? 'lookahead and lookbehind ((?=, (?!, (?<=, (?<!)'
        : null;
  if (lacks) {
    return new ToolError(
      'INVALID_ARGUMENTS',
      `the pattern uses ${lacks}, which the linear-time RE2 regex engine does not support`,
      {
        hint: 'Rewrite it without them: match the surrounding text instead of looking around it, or search for a literal and read the lines.',
        problems: [{ path: '/pattern', message: `uses ${lacks.replace(/ \(.*$/, '')}, which RE2 does not support` }],
      },
    );
  }
  return new ToolError('INVALID_ARGUMENTS', `the pattern is not a valid regular expression: ${detail}`, {
    hint: 'Fix the regex (RE2 syntax, close to JavaScript without backreferences or lookaround), or pass is_regex: false to search for the text literally.',
    problems: [{ path: '/pattern', message: 'is not a valid regular expression' }],
  });
}
