/**
 * Background Sync: while writes wait for the network, the page asks the service worker to send
 * them once it is back, even with every tab closed (sw/background-sync.ts). What the worker did
 * is kept for the next open, which takes it here. Browsers without Background Sync send at the
 * next open, as the queue always has.
 */
import { promisifyRequest } from 'idb-keyval';
import { OUTBOX_SYNC_TAG, SYNC_OUTCOME_KEY, type SyncOutcome } from '#shared/outbox-sync.ts';
import { outboxDb, type QueuedWrite } from './store.ts';

interface SyncRegistration extends ServiceWorkerRegistration {
  sync?: { register(tag: string): Promise<void> };
}

/** Asks for a `sync` event once the network is back (where the browser has Background Sync). */
export function askBackgroundSync(): void {
  if (typeof navigator === 'undefined' || !navigator.serviceWorker?.controller) return;
  void navigator.serviceWorker.ready
    .then((registration: SyncRegistration) => registration.sync?.register(OUTBOX_SYNC_TAG))
    .catch((error: unknown) => console.warn('Background Sync was not granted', error));
}

/**
 * What the service worker did with writes, taken from its store: each is said by the one tab
 * that takes it (a taken outcome is gone for the others).
 */
export async function takeSyncOutcomes(): Promise<SyncOutcome<QueuedWrite>[]> {
  try {
    // Every key ['synced', id]: an empty array sorts after any string.
    const outcomeKeys = IDBKeyRange.bound([SYNC_OUTCOME_KEY], [SYNC_OUTCOME_KEY, []]);
    // Read and cleared in one transaction: another tab taking them at once finds them gone.
    const taken = await outboxDb()('readwrite', (store) => {
      const all = promisifyRequest<SyncOutcome<QueuedWrite>[]>(store.getAll(outcomeKeys));
      store.delete(outcomeKeys);
      return all;
    });
    return taken.sort((a, b) => a.write.at - b.write.at);
  } catch (error) {
    console.warn('Could not read what the service worker sent', error);
    return [];
  }
}
