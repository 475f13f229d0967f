/** Who made a commit, and when (seconds since the epoch; the zone is minutes west of UTC, as isomorphic-git gives it). */
export interface CommitSignature {
  name: string;
  email: string;
  timestamp: number;
  timezoneOffset: number;
}

/** A commit's fields as the snapshot store reads and writes them. */
export interface CommitFields {
  tree: string;
  parent: string[];
  author: CommitSignature;
  committer: CommitSignature;
  message: string;
}

/** The text of a commit object, as git writes it (one author, who also commits). */
export function commitText(c: Omit<CommitFields, 'committer'>): string {
  const zone = formatZone(c.author.timezoneOffset);
  const who = `${c.author.name} <${c.author.email}> ${c.author.timestamp} ${zone}`;
  return `tree ${c.tree}\n${c.parent.map((p) => `parent ${p}\n`).join('')}author ${who}\ncommitter ${who}\n\n${c.message}`;
}

/**
 * Parse a commit object's text. Headers git adds that the store does not use (gpgsig, encoding,
 * mergetag, each possibly spanning continuation lines) are skipped; the message is normalised as
 * isomorphic-git did (no carriage returns, no leading blank lines, one final newline).
 */
export function parseCommitText(oid: string, content: Uint8Array): CommitFields {
  const text = new TextDecoder().decode(content);
  const split = text.indexOf('\n\n');
  const head = split < 0 ? text : text.slice(0, split);
  const body = split < 0 ? '' : text.slice(split + 2);
  let tree: string | null = null;
  const parent: string[] = [];
  let author: CommitSignature | null = null;
  let committer: CommitSignature | null = null;
  for (const line of head.split('\n')) {
    const space = line.indexOf(' ');
    const key = line.slice(0, space);
    const value = line.slice(space + 1);
    if (key === 'tree') tree = value;
    else if (key === 'parent') parent.push(value);
    else if (key === 'author') author = parseSignature(value);
    else if (key === 'committer') committer = parseSignature(value);
  }
  if (!tree || !/^[0-9a-f]{40}$/.test(tree) || !author || !committer || parent.some((p) => !/^[0-9a-f]{40}$/.test(p)))
    throw new Error(`commit ${oid} is malformed`);
  const message = `${body.replace(/\r/g, '').replace(/^\n+/, '').replace(/\n+$/, '')}\n`;
  return { tree, parent, author, committer, message };
}

function parseSignature(value: string): CommitSignature | null {
  const m = /^(.*) <(.*)> (\d+) (.*)$/.exec(value);
  if (!m) return null;
  const zone = /^([+-])(\d\d)(\d\d)$/.exec(m[4]!);
  const minutes = zone ? Number(zone[2]) * 60 + Number(zone[3]) : 0;
  return {
    name: m[1]!,
    email: m[2]!,
    timestamp: Number(m[3]),
    timezoneOffset: (zone?.[1] === '-' ? minutes : -minutes) || 0,
  };
}

function formatZone(offset: number): string {
  const minutes = Math.abs(offset);
  const sign = offset > 0 ? '-' : '+';
  return `${sign}${String(Math.floor(minutes / 60)).padStart(2, '0')}${String(minutes % 60).padStart(2, '0')}`;
}
