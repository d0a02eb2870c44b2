/**
 * The post draft as IndexedDB ('horde-drafts', src/client/features/compose/drafts.ts) holds it
 * now, with the sizes of its pictures' blobs (0: no blob), or null. The read waits for every write
 * to the store begun before it (IndexedDB runs them in order), never for a timer.
 */
import type { Page } from 'playwright-core';

export function storedDraft(page: Page): Promise<{ content: string; blobs: number[] } | null> {
  return page.evaluate(
    () =>
      new Promise<{ content: string; blobs: number[] } | null>((resolve) => {
        const opening = indexedDB.open('horde-drafts');
        opening.onupgradeneeded = () => opening.result.createObjectStore('drafts');
        opening.onerror = () => resolve(null);
        opening.onsuccess = () => {
          const db = opening.result;
          const read = db.transaction('drafts').objectStore('drafts').get('drafts');
          read.onsuccess = () => {
            db.close();
            const draft = (read.result as Record<string, { publishParams?: { content: string; attach: { blob?: Blob }[] } }> | undefined)?.post;
            const params = draft?.publishParams;
            resolve(params ? { content: params.content, blobs: params.attach.map((image) => image.blob?.size ?? 0) } : null);
          };
        };
      }),
  );
}
