/**
 * The post draft as IndexedDB ('horde-drafts', src/client/features/compose/drafts.ts) holds it
 * now, with the sizes of its pictures' blobs (0: no blob) and their urls (once uploaded), or null. A draft is kept per account
 * ('post@<uid>', a visitor's 'post'): this is the one edited last. The read waits for every write
 * to the store begun before it (IndexedDB runs them in order), never for a timer.
 */
import type { Page } from 'playwright-core';

export function storedDraft(page: Page): Promise<{ content: string; blobs: number[]; urls: (string | null)[] } | null> {
  return page.evaluate(
    () =>
      new Promise<{ content: string; blobs: number[]; urls: (string | null)[] } | null>((resolve) => {
        const opening = indexedDB.open('horde-drafts');
        opening.onupgradeneeded = () => opening.result.createObjectStore('drafts');
        opening.onerror = () => resolve(null);
        opening.onsuccess = () => {
          const db = opening.result;
          const read = db.transaction('drafts').objectStore('drafts').get('drafts');
          read.onsuccess = () => {
            db.close();
            type Stored = { editedAt?: number; removedAt?: number; publishParams?: { content: string; attach: { blob?: Blob; url?: string }[] } };
            const drafts = Object.entries((read.result as Record<string, Stored> | undefined) ?? {})
              .filter(([key]) => key === 'post' || key.startsWith('post@'))
              .map(([, draft]) => draft)
              .sort((a, b) => (b.editedAt ?? b.removedAt ?? 0) - (a.editedAt ?? a.removedAt ?? 0));
            const params = drafts[0]?.publishParams;
            resolve(
              params
                ? { content: params.content, blobs: params.attach.map((image) => image.blob?.size ?? 0), urls: params.attach.map((image) => image.url ?? null) }
                : null,
            );
          };
        };
      }),
  );
}
