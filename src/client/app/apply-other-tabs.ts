/**
 * What the other tabs changed (lib/app-events.ts), applied here through the same code that
 * applies a write's changes in the tab that made it (entities/outbox/changes.ts), loaded with
 * the first such change.
 */
import type { QueryClient } from '@tanstack/react-query';
import { hearOtherTabs } from '../lib/app-events.ts';
import { loadChunk } from '../lib/chunk.ts';

export function applyAppEvents(queryClient: QueryClient): () => void {
  return hearOtherTabs((event) => {
    loadChunk(() => import('../entities/outbox/changes.ts')).then(
      (changes) => changes.applyChange(queryClient, event),
      (error: unknown) => console.warn('Could not apply what another tab changed', error),
    );
  });
}
