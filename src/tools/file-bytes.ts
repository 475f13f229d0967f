import { sha256Hex } from '../text/hash.js';
import { lineAt } from '../text/lines.js';
import { PASSAGES, s, sayWords, ToolError, words } from '../contract/index.js';
import { displayPath } from '../workspace/paths.js';
import { pathProperty } from './common.js';
import { defineTool, READ_ONLY } from './schema/define.js';

const VERDICTS = [
  'ok',
  'mismatch',
  'literal_where_escaped_expected',
  'escaped_where_literal_expected',
  'decode_error',
] as const;
type Verdict = (typeof VERDICTS)[number];

const positions = s.array(s.object({ line: s.integer(), column: s.integer() }), {
  description: 'Where it occurs (the first 20).',
});
const counts = s.object({ literal: s.integer(), escaped: s.integer() });

const MAX_LISTED = 20;

export const fileBytes = defineTool({
  name: 'file_bytes',
  title: 'Check file bytes',
  description:
    'Check a file at the byte level: sha256, size, whether it is valid UTF-8, and whether `expected` text occurs in it ' +
    'literally or in escaped form (as inside a JSON string: \\n, \\t, \\", \\\\). verdict is ok, mismatch, ' +
    'literal_where_escaped_expected, escaped_where_literal_expected or decode_error. Read-only; works on binary files too.',
  mutates: false,
  annotations: READ_ONLY,
  schema: s.object({
    path: pathProperty('The file to inspect'),
    expected: s.optional(s.string({ description: 'Text that should be in the file.' })),
    expect_escaped: s.optional(
      s.boolean({ default: false, description: 'The file should hold `expected` in escaped form.' }),
    ),
  }),
  resultSchema: s.object({
    path: s.string(),
    sha256: s.string(),
    size_bytes: s.integer(),
    encoding_ok: s.boolean({ description: 'Whether the bytes are valid UTF-8.' }),
    verdict: s.enum(VERDICTS),
    occurrences: s.object({ literal: positions, escaped: positions }),
    occurrence_count: counts,
    mismatch: s.nullable(
      s.object(
        {
          matched_chars: s.integer(),
          expected_chars: s.integer(),
          line: s.nullable(s.integer()),
          column: s.nullable(s.integer()),
          expected_next: s.string(),
          found_next: s.nullable(s.string()),
        },
        { description: 'For a mismatch: how much of `expected` was found, and where it diverges.' },
      ),
    ),
    hint: s.nullable(s.string()),
  }),
  async run(args, ctx) {
    const path = await ctx.resolve(args.path, 'read');
    const shown = displayPath(path.rel);
    const stat = await ctx.existingFile(path);
    if (stat.size > ctx.policy.limits.maxWriteBytes)
      throw new ToolError('TOO_LARGE', `'${shown}' is ${stat.size} bytes, too large to inspect`);
    const bytes = await ctx.readChecked(path);
    const base = { path: shown, sha256: await sha256Hex(bytes), size_bytes: bytes.length };
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      return {
        ...base,
        encoding_ok: false,
        verdict: 'decode_error' as Verdict,
        occurrences: { literal: [], escaped: [] },
        occurrence_count: { literal: 0, escaped: 0 },
        mismatch: null,
        hint: sayWords(NOT_UTF8_HINT),
      };
    }
    if (args.expected === undefined || args.expected === '') {
      return {
        ...base,
        encoding_ok: true,
        verdict: 'ok' as Verdict,
        occurrences: { literal: [], escaped: [] },
        occurrence_count: { literal: 0, escaped: 0 },
        mismatch: null,
        hint: null,
      };
    }
    const literal = args.expected;
    const escaped = JSON.stringify(literal).slice(1, -1);
    const lit = occurrences(text, literal);
    const esc = escaped === literal ? lit : occurrences(text, escaped);
    const wantEscaped = args.expect_escaped === true;
    const verdict: Verdict = wantEscaped
      ? esc.count > 0
        ? 'ok'
        : lit.count > 0
          ? 'literal_where_escaped_expected'
          : 'mismatch'
      : lit.count > 0
        ? 'ok'
        : esc.count > 0
          ? 'escaped_where_literal_expected'
          : 'mismatch';
    return {
      ...base,
      encoding_ok: true,
      verdict,
      occurrences: { literal: lit.listed, escaped: esc.listed },
      occurrence_count: { literal: lit.count, escaped: esc.count },
      mismatch: verdict === 'mismatch' ? longestPrefix(text, wantEscaped ? escaped : literal) : null,
      hint: HINTS[verdict],
    };
  },
});

/** The decode_error verdict's hint, as Words: fs_process says it in its own names (a result carries only the text). */
export const NOT_UTF8_HINT = words`The file is not valid UTF-8; ${PASSAGES.bytesDecode}.`;

const HINTS: Record<Verdict, string | null> = {
  ok: null,
  mismatch:
    'The expected text is not in the file in either form; mismatch shows how much of it was found and where it diverges.',
  literal_where_escaped_expected:
    'The file holds the text with real newlines/quotes where escape sequences were expected.',
  escaped_where_literal_expected:
    'The file holds escape sequences (like \\n) where the real characters were expected; write the literal text.',
  decode_error: null,
};

function occurrences(text: string, needle: string) {
  const listed: Array<{ line: number; column: number }> = [];
  let count = 0;
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) {
    count++;
    if (listed.length < MAX_LISTED) {
      const line = lineAt(text, i);
      listed.push({ line, column: i - (text.lastIndexOf('\n', i - 1) + 1) + 1 });
    }
  }
  return { listed, count };
}

/** How much of `needle` the file holds, found by bisection (a found prefix's prefixes are found too). */
function longestPrefix(text: string, needle: string) {
  let lo = 0;
  let hi = needle.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (text.includes(needle.slice(0, mid))) lo = mid;
    else hi = mid - 1;
  }
  if (lo === 0)
    return {
      matched_chars: 0,
      expected_chars: needle.length,
      line: null,
      column: null,
      expected_next: needle.slice(0, 40),
      found_next: null,
    };
  const at = text.indexOf(needle.slice(0, lo));
  const line = lineAt(text, at + lo);
  const column = at + lo - (text.lastIndexOf('\n', at + lo - 1) + 1) + 1;
  return {
    matched_chars: lo,
    expected_chars: needle.length,
    line,
    column,
    expected_next: needle.slice(lo, lo + 40),
    found_next: text.slice(at + lo, at + lo + 40),
  };
}
