/**
 * The one write path's meaning (entities/outbox/: each write's kinds, changes and run); it is
 * stored and sent by lib/write-queue/, listed for the user by ui/outbox-panel/.
 *
 * The outbox's door: every write goes through write() of run.ts, whose code loads on first use;
 * at start it loads only if writes are waiting in IndexedDB.
 */
import type { QueryClient } from '@tanstack/react-query';
import { loadChunk } from '../../lib/chunk.ts';
import type { Outcome } from '../../lib/write-queue/queue.ts';
import { storedWriteCount } from '../../lib/write-queue/store.ts';
import { toast } from '../../ui/toast/toast-store.ts';
import type * as Run from './run.ts';
import type { WriteInput, WriteKind, WriteNotices } from './types.ts';

let loading: Promise<typeof Run> | undefined;
let loadNotices: () => Promise<WriteNotices> = () => Promise.reject(new Error('The outbox is not started'));

/** The outbox, started on `queryClient` (whose cached posts, comments, users and channels its writes change). */
export function outbox(queryClient: QueryClient): Promise<typeof Run> {
  loading ??= loadChunk(() => import('./run.ts')).catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return Promise.all([loading, loadNotices()]).then(([run, notices]) => (run.startWrites(queryClient, notices), run));
}

/**
 * Makes a write as the logged-in user (run.ts's write): shown at once, sent now or when it can,
 * said when refused. Resolves with what became of it; a refusal of its own (its code did not
 * load) is said here.
 */
export function makeWrite<K extends WriteKind>(queryClient: QueryClient, kind: K, input: WriteInput<K>, id?: string): Promise<Outcome> {
  return outbox(queryClient)
    .then((run) => run.write(kind, input, id))
    .catch((error: unknown) => {
      toast.error(error instanceof Error ? error.message : String(error));
      return { status: 'refused', error };
    });
}

/** How the app speaks of writes (its texts and routes), loaded with the outbox: set once, as the app starts. */
export function setWriteNotices(notices: () => Promise<WriteNotices>): void {
  loadNotices = notices;
}

/** At start: what waits from the last visit is shown and sent; without storage, the user hears so. */
export function startOutbox(queryClient: QueryClient): void {
  void storedWriteCount().then((count) => {
    if (count) outbox(queryClient).catch(() => undefined);
  });
}
