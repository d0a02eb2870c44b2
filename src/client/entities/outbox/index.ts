/**
 * The outbox's door (issue 9): every write a user may make offline goes through outbox(), whose
 * code loads on first use; at start it loads only if writes are waiting in IndexedDB.
 */
import type { QueryClient } from '@tanstack/react-query';
import { loadChunk } from '../../lib/chunk.ts';
import { storedWriteCount } from '../../lib/outbox/store.ts';
import type * as Writes from './writes.ts';

let loading: Promise<typeof Writes> | undefined;

/** The outbox, started on `queryClient` (whose cached posts and users its answers change). */
export function outbox(queryClient: QueryClient): Promise<typeof Writes> {
  loading ??= loadChunk(() => import('./writes.ts')).catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading.then((writes) => (writes.startWrites(queryClient), writes));
}

/** At start: what waits from the last visit is shown and sent; without storage, the user hears so. */
export function startOutbox(queryClient: QueryClient): void {
  void storedWriteCount().then((count) => {
    if (count) outbox(queryClient).catch(() => undefined);
  });
}
