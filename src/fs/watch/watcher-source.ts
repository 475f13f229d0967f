/**
 * The watcher thread's code (CommonJS: an eval worker has no module loader); see node-watch.ts.
 *
 * Per feed: one fs.watch per folder below the root, set before the folder is listed, except the
 * folders named in `skip` (reported as unwatched) and the scratch folder, whose own watch only
 * hears cookies. An event names a path as dirty; a name that appeared as a folder (new, moved in,
 * or replaced) is watched again with everything below it before the next event is read, so its
 * walk after the cookie sees whatever happened before the watches were set. The thread counts
 * the events of each read of the inotify queue (they all arrive before the loop's check phase):
 * a read of a quarter of the queue's limit may have followed an overflow, whose notice libuv
 * drops, so every feed then answers null once.
 */
export const WATCHER_SOURCE = `
const fs = require('node:fs');
const { parentPort } = require('node:worker_threads');
let queueMax = 16384;
try { queueMax = Number(fs.readFileSync('/proc/sys/fs/inotify/max_queued_events', 'utf8')) || queueMax; } catch {}
const READ_LIMIT = Math.max(16, Math.floor(queueMax / 4));
const MAX_FOLDERS = 50000;
const MAX_DIRTY = 10000;
const feeds = new Map();
let inRead = 0;
function counted() {
  if (inRead === 0) setImmediate(() => { inRead = 0; });
  if (++inRead === READ_LIMIT) for (const f of feeds.values()) f.overflow = true;
}
const baseOf = (p) => p.slice(p.lastIndexOf('/') + 1);
function abs(f, rel) { return rel === '' ? f.root : (f.root === '/' ? '' : f.root) + '/' + rel; }
function fail(f) {
  if (f.failed) return;
  f.failed = true;
  closeAll(f);
  parentPort.postMessage({ t: 'failed', id: f.id });
}
function closeAll(f) {
  for (const w of f.watchers.values()) w.close();
  f.watchers.clear();
  if (f.scratchWatcher) f.scratchWatcher.close();
  f.scratchWatcher = null;
}
function watch(f, rel, listener) {
  const w = fs.watch(abs(f, rel), { persistent: false }, listener);
  w.on('error', () => fail(f));
  return w;
}
function gone(e) { return e && (e.code === 'ENOENT' || e.code === 'ENOTDIR'); }
function watchTree(f, top) {
  const stack = [top];
  while (stack.length > 0) {
    const rel = stack.pop();
    let w;
    try { w = watch(f, rel, (type, name) => heard(f, rel, type, name)); }
    catch (e) {
      if (gone(e)) continue;
      if (e && e.code === 'EACCES') { f.unwatched.push(rel); continue; }
      throw e;
    }
    // the new watch first: on the same folder it shares the old one's inotify watch, which then stays
    const old = f.watchers.get(rel);
    f.watchers.set(rel, w);
    if (old) old.close();
    if (f.watchers.size > MAX_FOLDERS) throw new Error('too many folders to watch');
    let entries;
    try { entries = fs.readdirSync(abs(f, rel), { withFileTypes: true }); }
    catch (e) {
      if (gone(e)) continue;
      f.unwatched.push(rel);
      continue;
    }
    for (const e of entries) {
      if (!e.isDirectory()) continue;
      if (e.name.includes('\\uFFFD')) throw new Error('a folder name that is not UTF-8');
      const child = rel === '' ? e.name : rel + '/' + e.name;
      if (rel === '' && e.name === f.scratch) continue;
      if (f.skip.has(e.name)) { f.unwatched.push(child); continue; }
      stack.push(child);
    }
  }
}
function closeBelow(f, rel) {
  if (!f.watchers.has(rel)) return;
  const prefix = rel + '/';
  for (const [key, w] of f.watchers) {
    if (key === rel || key.startsWith(prefix)) { w.close(); f.watchers.delete(key); }
  }
}
function mark(f, rel) {
  if (rel === '' || f.dirty.size >= MAX_DIRTY) { f.overflow = true; f.dirty.clear(); return; }
  if (!f.overflow) f.dirty.add(rel);
}
function heard(f, dir, type, name) {
  counted();
  if (f.failed) return;
  if (typeof name !== 'string' || name === '' || name.includes('\\uFFFD')) { mark(f, dir); return; }
  // the watched folder's own event (moved, removed) carries its own name: it may be that or a child of that name
  if (name === baseOf(dir === '' ? f.root : dir)) {
    if (dir !== '') mark(f, dir);
    else {
      let st;
      try { st = fs.statSync(f.root, { throwIfNoEntry: false }); } catch {}
      if (!st || st.ino !== f.ino || st.dev !== f.dev) { fail(f); return; }
      f.overflow = true;
    }
  }
  if (dir === '' && name === f.scratch) {
    try { watchScratch(f); } catch { fail(f); }
    return;
  }
  const rel = dir === '' ? name : dir + '/' + name;
  mark(f, rel);
  if (type !== 'rename') return;
  let st;
  try { st = fs.lstatSync(abs(f, rel), { throwIfNoEntry: false }); } catch {}
  if (st && st.isDirectory() && !f.skip.has(name)) {
    try { watchTree(f, rel); } catch { fail(f); }
    return;
  }
  if (st && st.isDirectory()) f.unwatched.push(rel);
  closeBelow(f, rel);
}
function watchScratch(f) {
  const old = f.scratchWatcher;
  f.scratchWatcher = null;
  try {
    f.scratchWatcher = watch(f, f.scratch, (type, name) => {
      counted();
      if (!f.failed && typeof name === 'string' && name.startsWith('sandpit-cookie-')) flush(f, name);
    });
  } catch (e) {
    if (!gone(e)) throw e;
  }
  if (old) old.close();
}
function flush(f, cookie) {
  parentPort.postMessage({
    t: 'batch', id: f.id, cookie, paths: [...f.dirty], unwatched: f.unwatched.splice(0), overflow: f.overflow,
  });
  f.dirty.clear();
  f.overflow = false;
}
function open({ id, root, skip, scratch }) {
  const f = {
    id, root, scratch, skip: new Set(skip), watchers: new Map(), scratchWatcher: null,
    dirty: new Set(), unwatched: [], overflow: false, failed: false, ino: 0, dev: 0,
  };
  feeds.set(id, f);
  try {
    const st = fs.statSync(root);
    f.ino = st.ino;
    f.dev = st.dev;
    watchTree(f, '');
    watchScratch(f);
    parentPort.postMessage({ t: 'ready', id });
  } catch {
    fail(f);
  }
}
parentPort.on('message', (m) => {
  if (m.t === 'watch') open(m);
  else if (m.t === 'close') {
    const f = feeds.get(m.id);
    feeds.delete(m.id);
    if (f) { f.failed = true; closeAll(f); }
  }
});
`;
