/**
 * A share to the installed app (the manifest's share_target): the service worker and the server
 * send it on to the composer over /home with `title`, `text` and `url` in the query
 * (src/shared/static-paths.ts); what was shared goes into the post draft, after what the draft
 * already holds.
 */
import { SHARE_FIELDS } from '#shared/static-paths.ts';
import { flushDrafts, loadDrafts, postDraftKey, useDrafts } from './drafts.ts';

export type SharedData = Partial<Record<(typeof SHARE_FIELDS)[number], string | null>>;

/** Whether the query carries a share. */
export function hasShare(query: URLSearchParams): boolean {
  return SHARE_FIELDS.some((field) => query.get(field)?.trim());
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
  if (!shared) return;
  await loadDrafts();
  useDrafts.getState().edit(postDraftKey(uid), (draft) => {
    const before = draft.publishParams.content.trimEnd();
    return { ...draft, publishParams: { ...draft.publishParams, content: before ? `${before}\n\n${shared}` : shared } };
  });
  await flushDrafts();
}
