import { errorText, type CommandContext } from '../../context.js';
import { checkJq, JqError, run } from './jq-eval.js';
import { JqSyntaxError, parseJq, type Json } from './jq-parse.js';
import { getopts, readText } from '../util.js';

/** Thrown for input that is not JSON: jq says where and stops with status 2. */
class JqInputError extends Error {
  constructor(
    readonly where: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The JSON values of a text, one after another, as jq reads its input: whitespace between values
 * is optional where a value ends itself (`{}[]"a"`), and each is parsed only when it is reached.
 */
function* jsonValues(text: string, name: string): Generator<Json> {
  let i = 0;
  const line = (at: number) => text.slice(0, at).split('\n').length;
  while (i < text.length) {
    if (/\s/.test(text[i]!)) {
      i++;
      continue;
    }
    const start = i;
    const open = text[i]!;
    if (open === '{' || open === '[') {
      let depth = 0;
      for (; i < text.length; i++) {
        const c = text[i]!;
        if (c === '"') {
          for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
          continue;
        }
        if (c === '{' || c === '[') depth++;
        else if ((c === '}' || c === ']') && --depth === 0) {
          i++;
          break;
        }
      }
    } else if (open === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
      i++;
    } else {
      while (i < text.length && !/[\s[{"]/.test(text[i]!)) i++;
    }
    const chunk = text.slice(start, i);
    let value: Json;
    try {
      value = JSON.parse(chunk) as Json;
    } catch {
      throw new JqInputError(
        `${name}:${line(start)}`,
        chunk.length > 20 ? 'Invalid JSON text' : `Invalid JSON text '${chunk}'`,
      );
    }
    yield value;
  }
}

/** jq's options: the table the flags test reads. */
export const JQ_FLAGS = 'rcnsj' as const;

/**
 * `jq [-r] [-c] [-n] [-s] [-j] FILTER [FILE...]`: a subset of jq's language (paths, `.[]`, `?`,
 * pipes, `,`, `//`, comparisons, arithmetic, `and`/`or`, `if`, literals, string interpolation,
 * object and array construction, and common builtins such as `keys`, `length`, `select`, `map`).
 * Statuses as jq 1.7's: 2 for usage, unreadable files and bad JSON, 3 for a filter it cannot
 * compile, 5 after a runtime error.
 */
export async function jq(ctx: CommandContext): Promise<number> {
  const { flags, operands } = getopts(ctx.args, 'rcnsj', '', {
    'raw-output': 'r',
    'compact-output': 'c',
    'null-input': 'n',
    slurp: 's',
    'join-output': 'j',
  });
  // Without a filter, jq whose input or output is not a terminal (never one here) runs `.`.
  const [source = '.', ...files] = operands;
  let filter;
  try {
    filter = parseJq(source);
    checkJq(filter);
  } catch (error) {
    if (!(error instanceof JqSyntaxError)) throw error;
    ctx.err(`jq: error: ${error.message}:\n${source}\njq: 1 compile error\n`);
    return 3;
  }
  const raw = flags.has('r') || flags.has('j');
  const print = (v: Json) => {
    const text = raw && typeof v === 'string' ? v : JSON.stringify(v, null, flags.has('c') ? undefined : 2);
    ctx.out(flags.has('j') ? text : `${text}\n`);
  };
  let status = 0;
  const apply = (input: Json, where: string) => {
    try {
      for (const v of run(filter, input)) {
        ctx.shell.checkTime();
        print(v);
      }
    } catch (error) {
      if (!(error instanceof JqError)) throw error;
      ctx.err(`jq: error (at ${where}): ${error.message}\n`);
      status = 5;
    }
  };

  const texts: Array<{ name: string; text: string }> = [];
  if (files.length === 0) texts.push({ name: '<stdin>', text: ctx.stdin });
  for (const f of files) {
    try {
      texts.push({ name: f, text: await readText(ctx, f) });
    } catch (error) {
      ctx.err(`jq: error: Could not open ${f}: ${errorText(error)}\n`);
      status = 2;
    }
  }
  try {
    if (flags.has('n')) apply(null, '<unknown>');
    else if (flags.has('s'))
      apply(
        texts.flatMap(({ name, text }) => [...jsonValues(text, name)]),
        '<stdin>',
      );
    else for (const { name, text } of texts) for (const v of jsonValues(text, name)) apply(v, name);
  } catch (error) {
    if (!(error instanceof JqInputError)) throw error;
    ctx.err(`jq: error (at ${error.where}): ${error.message}\n`);
    return 2;
  }
  return status;
}
