/**
 * Room for what the user wrote: drafts and the outbox must outlive a full disk and a
 * browser that keeps nothing (private modes, some web views: IndexedDB missing, throwing on
 * access, or failing to open). Their writes go through keepWrite: one refused for want of room
 * (QuotaExceededError) drops the persisted query cache, which is only a cache and is fetched
 * again, and is tried again once the browser has counted the room freed. Drafts and the outbox
 * are never dropped. What still cannot be stored stays in the page's memory (the callers keep
 * it), and the user is told once (storageNotice). Loaded with drafts and the outbox's queue,
 * never with the first screen.
 */

/**
 * How long to leave the storage alone after clearing the query cache. Chromium counts the room a
 * cleared store frees only after a moment without writes, and a
 * write refused in that moment leaves the room uncounted for the rest of the page's life.
 */
export const ROOM_COUNTED_MS = 1000;

export const FULL_MESSAGE = '存储空间不足，草稿只保存在本页';
export const UNAVAILABLE_MESSAGE = '当前浏览器无法使用本地存储，草稿只保存在本页';

export const isQuotaError = (error: unknown): boolean => (error as { name?: unknown } | null)?.name === 'QuotaExceededError';

/**
 * Empties the persisted query cache's database (local-cache.ts names each cache's database
 * `local-cache:<name>` with one store, `entries`; query-cache-persister.ts names this one). Plain
 * IndexedDB, so that none of this weighs on the first screen.
 */
function clearQueryCache(): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const opening = indexedDB.open('local-cache:query-cache');
    opening.onerror = () => reject(opening.error);
    opening.onupgradeneeded = () => opening.result.createObjectStore('entries');
    opening.onsuccess = () => {
      const db = opening.result;
      const tx = db.transaction('entries', 'readwrite');
      tx.objectStore('entries').clear();
      tx.oncomplete = () => resolve(db.close());
      tx.onabort = tx.onerror = () => reject(tx.error);
    };
  });
}

let makingRoom: Promise<void> | undefined;

/** Empties the persisted query cache and waits for the browser to count the room; one at a time. */
function makeRoom(): Promise<void> {
  makingRoom ??= Promise.resolve()
    .then(clearQueryCache)
    .catch((error: unknown) => console.warn('Could not drop the query cache', error))
    .then(() => new Promise<void>((resolve) => setTimeout(resolve, ROOM_COUNTED_MS)))
    .finally(() => (makingRoom = undefined));
  return makingRoom;
}

/**
 * Runs a write of something the user made (a draft, a queued write). Refused for want of room,
 * it is tried once more after the query cache has made room; any other refusal, or a second
 * one, rejects (the caller keeps what it wrote in memory).
 */
export async function keepWrite<T>(write: () => Promise<T>): Promise<T> {
  // Room is being made: a write tried now would fail and keep the room from being counted.
  if (makingRoom) await makingRoom;
  try {
    return await write();
  } catch (error) {
    if (!isQuotaError(error)) throw error;
    await makeRoom();
    return write();
  }
}

const told = new Set<string>();

/**
 * What to tell the user the first time in this page that storage refused what they wrote: the
 * disk is full, or the browser keeps nothing. null when they were told already.
 */
export function storageNotice(error: unknown): string | null {
  const message = isQuotaError(error) ? FULL_MESSAGE : UNAVAILABLE_MESSAGE;
  if (told.has(message)) return null;
  told.add(message);
  return message;
}
