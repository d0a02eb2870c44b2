/**
 * A share to the installed app (the manifest's share_target): the service worker and the server
 * send it on to the composer over /home with `title`, `text` and `url` in the query, and the id
 * of the pictures the worker kept (src/shared/static-paths.ts); what was shared goes into the
 * post draft, after what the draft already holds. The pictures become the draft's own, uploaded
 * as the composer's are (offline, they go with the post).
 */
import { createStore, del, get } from 'idb-keyval';
import { SHARE_FIELDS, SHARED_FILES_DB, SHARED_FILES_PARAM } from '#shared/static-paths.ts';
import { flushDrafts, loadDrafts, postDraftKey, useDrafts } from './drafts.ts';
import { addImages } from './uploads.ts';

export type SharedData = Partial<Record<(typeof SHARE_FIELDS)[number], string | null>>;

/** Whether the query carries a share. */
export function hasShare(query: URLSearchParams): boolean {
  return [...SHARE_FIELDS, SHARED_FILES_PARAM].some((field) => query.get(field)?.trim());
}

/** The pictures the worker kept for share `id`, taken out of its store (a reload does not add them twice). */
async function takeSharedPictures(id: string | null): Promise<File[]> {
  if (!id) return [];
  const store = createStore(SHARED_FILES_DB.database, SHARED_FILES_DB.store);
  const files = await get<unknown>(id, store);
  await del(id, store);
  return Array.isArray(files) ? files.filter((file): file is File => file instanceof Blob) : [];
}

/**
 * The text a share writes: its title, text and link, one per line, each only once (apps often
 * put the link into the text too, or send the title as the text).
 */
export function sharedText({ title, text, url }: SharedData): string {
  const parts = [title, text, url].map((part) => part?.trim() ?? '').filter(Boolean);
  // A part inside another one is left out; of two equal parts the first stays.
  const repeated = (part: string, index: number) =>
    parts.some((other, at) => at !== index && other.includes(part) && (other !== part || at < index));
  return parts.filter((part, index) => !repeated(part, index)).join('\n');
}

/**
 * Adds what the query shares to the post draft of user `uid` (a visitor's before the login) and
 * stores it. The stored drafts are read first, so a draft begun earlier keeps its text and its client_id.
 */
export async function takeShare(query: URLSearchParams, uid: number | undefined): Promise<void> {
  const shared = sharedText({ title: query.get('title'), text: query.get('text'), url: query.get('url') });
  const pictures = await takeSharedPictures(query.get(SHARED_FILES_PARAM)).catch((error: unknown) => {
    console.warn('Could not read the shared pictures', error);
    return [];
  });
  if (!shared && pictures.length === 0) return;
  await loadDrafts();
  const key = postDraftKey(uid);
  if (shared) {
    useDrafts.getState().edit(key, (draft) => {
      const before = draft.publishParams.content.trimEnd();
      return { ...draft, publishParams: { ...draft.publishParams, content: before ? `${before}\n\n${shared}` : shared } };
    });
  }
  addImages(key, pictures);
  await flushDrafts();
}
