import { describe, expect, it } from 'vitest';
import { createMemoryFs } from '../../src/index.js';
import { ChangeJournal } from '../../src/workspace/review/journal.js';
import { KnownTexts, type JournalChange } from '../../src/workspace/review/journal-codec.js';
import { recordBytes, recordOf } from '../../src/workspace/review/journal-format.js';

const numbered = (n: number, tag = 'line') => Array.from({ length: n }, (_, i) => `${tag} "${i + 1}" é\n`).join('');
const change = (id: string, before: string, after: string): JournalChange => ({
  id,
  tool: 'apply_patch',
  created_at: '2026-12-03T10:00:00.000Z',
  files: [{ path: 'a.txt', before, after }],
  seen: [after],
});

describe('journal records (format 2: a JSON line and the texts after it)', () => {
  it('reads back what it wrote: whole texts, short ones and edits, byte for byte', () => {
    const before = numbered(300);
    const after = before.replace('line "7"', 'seven').replace('line "250"', numbered(40, 'new'));
    const written = new KnownTexts().encode(change('chg_0001', before, after));
    const bytes = recordBytes(written);
    // the texts go in as their own UTF-8, not escaped inside the JSON
    expect(new TextDecoder().decode(bytes)).toContain(before);
    expect(recordOf(bytes)).toEqual(written);
    const read = new KnownTexts().decode(recordOf(bytes));
    expect(read?.files[0]).toMatchObject({ before, after });
  });

  it('still reads a record an earlier version wrote as JSON alone (format 1)', async () => {
    const fs = createMemoryFs({});
    const before = numbered(30);
    const after = before.replace('line "3"', 'three');
    const old = new KnownTexts().encode(change('chg_0001', before, after));
    await fs.mkdir('/.sandpit/review/changes', { recursive: true });
    await fs.writeFile('/.sandpit/review/changes/0000000001.json', new TextEncoder().encode(JSON.stringify(old)));
    const read = await new ChangeJournal(fs, '/.sandpit/review', async () => undefined).readNew();
    expect(read.map((c) => [c.id, c.files[0]!.before, c.files[0]!.after])).toEqual([['chg_0001', before, after]]);
  });

  it('skips a format 2 record cut short, with bytes after its texts, or naming a text it lacks', () => {
    const before = numbered(50);
    const bytes = recordBytes(new KnownTexts().encode(change('chg_0001', before, `${before}more\n`)));
    expect(recordOf(bytes)).not.toBeNull();
    expect(recordOf(bytes.subarray(0, bytes.length - 1))).toBeNull();
    const longer = new Uint8Array(bytes.length + 1);
    longer.set(bytes);
    expect(recordOf(longer)).toBeNull();
    const line = new TextDecoder().decode(bytes.subarray(0, bytes.indexOf(10)));
    const missing = new TextEncoder().encode(`${line.replace('"t":[', '"t":[').replace(/\{"t":0\}/, '{"t":9}')}\n`);
    expect(recordOf(missing)).toBeNull();
  });
});
