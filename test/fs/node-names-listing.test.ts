import { mkdirSync, mkdtempSync, renameSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { FolderListings } from '../../src/fs/node-names.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'sandpit-node-listing-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** Put the folder's mtime `seconds` in the past, as a folder nobody touched for a while has. */
const age = (path: string, seconds = 10) => {
  const at = new Date(Date.now() - seconds * 1000);
  utimesSync(path, at, at);
};
const names = (listings: FolderListings, dir: string) =>
  listings
    .stats(dir, dir)
    .map((e) => `${e.name}:${e.stat?.type}:${e.stat?.size}`)
    .sort();

it('lists a folder again once its mtime moved: an entry added, removed, renamed or replaced by a folder', () => {
  const dir = join(root, 'd');
  mkdirSync(dir);
  writeFileSync(join(dir, 'a.txt'), 'a');
  writeFileSync(join(dir, 'b.txt'), 'bb');
  age(dir);
  const listings = new FolderListings();
  expect(names(listings, dir)).toEqual(['a.txt:file:1', 'b.txt:file:2']);

  writeFileSync(join(dir, 'c.txt'), 'ccc');
  expect(names(listings, dir)).toEqual(['a.txt:file:1', 'b.txt:file:2', 'c.txt:file:3']);
  age(dir);
  rmSync(join(dir, 'a.txt'));
  mkdirSync(join(dir, 'a.txt'));
  symlinkSync('b.txt', join(dir, 'link'));
  expect(names(listings, dir)).toEqual([
    `a.txt:dir:${statSync(join(dir, 'a.txt')).size}`,
    'b.txt:file:2',
    'c.txt:file:3',
    'link:symlink:5',
  ]);
});

it('keeps a listing only while the folder keeps its mtime, and lstats every entry each time (an edit in place shows)', () => {
  const dir = join(root, 'd');
  mkdirSync(dir);
  writeFileSync(join(dir, 'a.txt'), 'a');
  age(dir);
  const before = statSync(dir);
  const listings = new FolderListings();
  expect(names(listings, dir)).toEqual(['a.txt:file:1']);
  // an edit in place leaves the folder's mtime alone, and still shows: the entry's own lstat is fresh
  writeFileSync(join(dir, 'a.txt'), 'edited');
  expect(names(listings, dir)).toEqual(['a.txt:file:6']);
  // The shortcut is what it claims to be: a name added while the folder's mtime is put back is
  // not seen, since the names are the remembered ones. Real changes always move the mtime.
  writeFileSync(join(dir, 'hidden.txt'), 'h');
  utimesSync(dir, before.atime, before.mtime);
  expect(names(listings, dir)).toEqual(['a.txt:file:6']);
  // a listing the folder's mtime no longer matches, or another backend's memory, lists afresh
  expect(names(new FolderListings(), dir)).toEqual(['a.txt:file:6', 'hidden.txt:file:1']);
});

it('does not keep a listing taken within a second of the folder mtime (a change in the same tick would not show)', () => {
  const dir = join(root, 'd');
  mkdirSync(dir);
  writeFileSync(join(dir, 'a.txt'), 'a');
  const fresh = statSync(dir);
  const listings = new FolderListings();
  expect(names(listings, dir)).toEqual(['a.txt:file:1']);
  writeFileSync(join(dir, 'b.txt'), 'b');
  // the same mtime as when it was listed, as a second change within one clock tick would leave it
  utimesSync(dir, fresh.atime, fresh.mtime);
  expect(names(listings, dir)).toEqual(['a.txt:file:1', 'b.txt:file:1']);
});

it('lists a folder replaced by another one at the same path afresh, and a folder gone fails as readdir does', () => {
  const dir = join(root, 'd');
  mkdirSync(dir);
  writeFileSync(join(dir, 'a.txt'), 'a');
  age(dir);
  const listings = new FolderListings();
  expect(names(listings, dir)).toEqual(['a.txt:file:1']);
  const other = join(root, 'other');
  mkdirSync(other);
  writeFileSync(join(other, 'z.txt'), 'z');
  const mtime = statSync(dir).mtime;
  rmSync(dir, { recursive: true });
  renameSync(other, dir);
  // even with the old folder's mtime, another inode is another folder
  utimesSync(dir, mtime, mtime);
  expect(names(listings, dir)).toEqual(['z.txt:file:1']);
  rmSync(dir, { recursive: true });
  expect(() => listings.stats(dir, dir)).toThrow(expect.objectContaining({ code: 'ENOENT' }));
  writeFileSync(dir, 'now a file');
  expect(() => listings.stats(dir, dir)).toThrow(expect.objectContaining({ code: 'ENOTDIR' }));
});
