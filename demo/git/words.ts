/**
 * The git layer's messages and hints are written for code ("Pass url.", "git.pull", corsProxy,
 * depth, maxTotalBytes); the Git tab says them with the names of its own controls instead.
 * Each rule is one phrase the git layer uses, so an unknown text passes through unchanged.
 */
const RULES: ReadonlyArray<[RegExp, string | ((...parts: string[]) => string)]> = [
  [/\bPass url\b\.?/g, 'Enter the repository URL above.'],
  [/\bPass a token\b/g, 'Enter a token above'],
  [/\bor pass corsProxy\b/g, 'or fill in the CORS proxy field above'],
  [/\bLeave out depth\b/g, 'Untick "newest commit only"'],
  [
    /\bUse depth: 1 for only the newest commit, or leave it out for the whole history\b/g,
    'Tick "newest commit only" for the newest commit alone, or untick it for the whole history',
  ],
  // The page has no size settings, so "raise the limit" is no step a person can take here.
  [
    /\bClone a smaller ref or with depth 1, or raise maxTotalBytes if the workspace can hold it\b/g,
    'Clone a smaller branch or tag, with "newest commit only" ticked; the playground cannot hold more than its limit',
  ],
  [
    /\bRaise maxFileBytes if the workspace can hold a file that big, or clone another ref\b/g,
    'Clone another branch or tag; the playground cannot hold a file that big',
  ],
  [/\bthe URL and the ref\b/g, 'the URL and the branch or tag'],
  [/\(git\.pull\)/g, '(the Pull button)'],
  [/\(git\.push\)/g, '(the Push button)'],
  [/\(git\.clone\)/g, '(Clone into this workspace)'],
  [/\bgit\.(clone|push|pull)\b/g, (_, verb: string) => `the ${verb[0]!.toUpperCase()}${verb.slice(1)} button`],
];

/** `text` with the git layer's API words replaced by what a person sees on the Git tab. */
export function inPersonWords(text: string): string {
  let out = text;
  for (const [pattern, words] of RULES)
    out = typeof words === 'string' ? out.replace(pattern, words) : out.replace(pattern, words);
  return out;
}
