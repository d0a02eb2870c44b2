/**
 * The IndexedDB database and object store of the outbox (writes keyed [at, id]): the page's queue
 * and the service worker's Background Sync read the same one (outbox-sync.ts). A module of its
 * own, as the first screen needs its names and nothing else of the outbox.
 */
export const OUTBOX_DB = { database: 'horde-outbox', store: 'writes' } as const; // horde: src/client/README.md ('horde')
