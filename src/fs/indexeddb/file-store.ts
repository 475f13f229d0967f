import type LightningFS from '@isomorphic-git/lightning-fs';
import { KeptBytes } from '../kept-bytes.js';

/**
 * The store lightning-fs keeps file bytes and its tree in, in place of its own (idb-keyval), which
 * opens a readwrite transaction for every read. A readonly one costs the browser less, and is as
 * ordered: IndexedDB starts a transaction only after every readwrite transaction created before it
 * on the same store has finished, so a read made after a write sees it, and a write made after a
 * read waits for it. Transactions are created in call order, as idb-keyval creates them.
 * Same database and store names as lightning-fs's default, so existing workspaces open unchanged.
 */
export class IdbFileStore implements LightningFS.IDB {
  private db: Promise<IDBDatabase> | undefined;
  /** The bytes of small files read or written here: this store is its database's only writer. */
  private readonly kept = new KeptBytes<number>();

  constructor(
    private readonly dbName: string,
    private readonly storeName: string,
  ) {}

  saveSuperblock(superblock: LightningFS.SuperBlock | Uint8Array): Promise<void> {
    return this.write((store) => store.put(superblock, '!root'));
  }
  loadSuperblock(): Promise<LightningFS.SuperBlock> {
    return this.read('!root') as Promise<LightningFS.SuperBlock>;
  }
  async readFile(inode: number): Promise<Uint8Array> {
    const kept = this.kept.bytesOf(inode);
    if (kept) return kept;
    const since = this.kept.now();
    const data = (await this.read(inode)) as Uint8Array | undefined;
    // kept only when no write or removal of this inode started while the read was on its way
    if (data instanceof Uint8Array) this.kept.keep(inode, data, since);
    return data as Uint8Array;
  }
  async writeFile(inode: number, data: Uint8Array): Promise<void> {
    const since = this.kept.changing(inode);
    await this.write((store) => store.put(data, inode));
    this.kept.keep(inode, data, since);
  }
  unlink(inode: number): Promise<void> {
    this.kept.changing(inode);
    return this.write((store) => store.delete(inode));
  }
  wipe(): Promise<void> {
    this.kept.clear();
    return this.write((store) => store.clear());
  }
  /** Closes the connection; the next call opens a new one (lightning-fs closes it when idle). */
  async close(): Promise<void> {
    const db = this.db;
    this.db = undefined;
    if (db) (await db).close();
  }

  private open(): Promise<IDBDatabase> {
    this.db ??= new Promise((resolve, reject) => {
      const request = indexedDB.open(this.dbName);
      request.onerror = () => reject(request.error);
      request.onsuccess = () => resolve(request.result);
      request.onupgradeneeded = () => request.result.createObjectStore(this.storeName);
    });
    return this.db;
  }

  private read(key: IDBValidKey): Promise<unknown> {
    return this.transaction('readonly', (store) => store.get(key));
  }

  private async write(change: (store: IDBObjectStore) => IDBRequest): Promise<void> {
    await this.transaction('readwrite', change);
  }

  /** Settles when the transaction completes (a write is then committed), with the request's result. */
  private transaction(mode: IDBTransactionMode, use: (store: IDBObjectStore) => IDBRequest): Promise<unknown> {
    return this.open().then(
      (db) =>
        new Promise((resolve, reject) => {
          const tx = db.transaction(this.storeName, mode);
          const request = use(tx.objectStore(this.storeName));
          tx.oncomplete = () => resolve(request.result);
          // a failed request aborts the transaction, whose error (a QuotaExceededError, say) is the cause
          tx.onabort = tx.onerror = () => reject(tx.error ?? request.error);
        }),
    );
  }
}
