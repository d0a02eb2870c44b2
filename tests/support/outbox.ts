/**
 * The outbox emptied between unit tests: its IndexedDB store cleared and its in-memory state
 * as the store starts (src/client/lib/write-queue/store.ts).
 */
import { clear } from 'idb-keyval';
import { outboxDb, useOutbox } from '../../src/client/lib/write-queue/store.ts';

export async function resetOutbox(): Promise<void> {
  await clear(outboxDb());
  useOutbox.setState(useOutbox.getInitialState());
}
