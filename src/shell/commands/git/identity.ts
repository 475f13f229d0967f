import type { Repo } from './repo.js';
import { GitFatal } from './repo.js';

/** A person and a moment as git records them on a commit. */
export interface Person {
  name: string;
  email: string;
  /** seconds since the epoch */
  timestamp: number;
  /** isomorphic-git's sign: minutes *behind* UTC (so +0200 is -120) */
  timezoneOffset: number;
}

/** Read `GIT_*_DATE`'s forms: `@secs +zzzz`, `secs +zzzz`, ISO 8601 with an offset or `Z`. */
export function parseGitDate(text: string): { timestamp: number; timezoneOffset: number } | null {
  const raw = /^@?(\d+)(?:\s+([+-])(\d\d)(\d\d))?$/.exec(text.trim());
  if (raw) {
    const offset = raw[2] ? (Number(raw[3]) * 60 + Number(raw[4])) * (raw[2] === '+' ? 1 : -1) : 0;
    return { timestamp: Number(raw[1]), timezoneOffset: -offset };
  }
  const iso = /^(\d{4})-(\d\d)-(\d\d)[T ](\d\d):(\d\d)(?::(\d\d))?\s*(Z|([+-])(\d\d):?(\d\d))?$/.exec(text.trim());
  if (!iso) return null;
  const offset = iso[8] ? (Number(iso[9]) * 60 + Number(iso[10])) * (iso[8] === '+' ? 1 : -1) : 0;
  const utc = Date.UTC(+iso[1]!, +iso[2]! - 1, +iso[3]!, +iso[4]!, +iso[5]!, +(iso[6] ?? 0)) / 1000 - offset * 60;
  return { timestamp: utc, timezoneOffset: -offset };
}

/**
 * Who is committing: `GIT_AUTHOR_*` / `GIT_COMMITTER_*` from the environment, else the
 * repository's `user.name` and `user.email`; with neither, git's own refusal.
 */
export async function identity(repo: Repo, role: 'AUTHOR' | 'COMMITTER', now = new Date()): Promise<Person> {
  const env = repo.ctx.env;
  const name = env.get(`GIT_${role}_NAME`) ?? (await repo.config('user.name'));
  const email = env.get(`GIT_${role}_EMAIL`) ?? (await repo.config('user.email'));
  if (!name || email === undefined) {
    throw new GitFatal(
      '*** Please tell me who you are.\n\nRun\n\n  git config user.email "you@example.com"\n  git config user.name "Your Name"\n\n' +
        "to set your account's default identity.\n\nfatal: unable to auto-detect email address",
    );
  }
  const dateText = env.get(`GIT_${role}_DATE`);
  const date = dateText ? parseGitDate(dateText) : null;
  if (dateText && !date) throw new GitFatal(`invalid date format: ${dateText}`);
  return {
    name,
    email,
    timestamp: date?.timestamp ?? Math.floor(now.getTime() / 1000),
    timezoneOffset: date?.timezoneOffset ?? now.getTimezoneOffset(),
  };
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number) => String(n).padStart(2, '0');

/** The `+zzzz` of an isomorphic-git offset. */
export function zone(timezoneOffset: number): string {
  const minutes = -timezoneOffset;
  const abs = Math.abs(minutes);
  return `${minutes < 0 ? '-' : '+'}${two(Math.floor(abs / 60))}${two(abs % 60)}`;
}

/** git's default date form, `Thu Apr 7 15:13:13 2005 -0700`, in the commit's own zone. */
export function formatDate(timestamp: number, timezoneOffset: number, style = 'default'): string {
  const d = new Date((timestamp - timezoneOffset * 60) * 1000);
  const time = `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`;
  if (style === 'iso')
    return `${d.getUTCFullYear()}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())} ${time} ${zone(timezoneOffset)}`;
  if (style === 'short') return `${d.getUTCFullYear()}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())}`;
  if (style === 'unix') return String(timestamp);
  return `${DAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()} ${time} ${d.getUTCFullYear()} ${zone(timezoneOffset)}`;
}
