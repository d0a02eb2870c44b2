import { useEffect } from 'react';
import { adoptVisitorDraft, postDraftKey, startDrafts, useDraft, useDrafts } from './drafts.ts';

/**
 * The draft the composer edits: the user's (`uid`; undefined while the session is unknown), a new
 * one with its client_id, or a visitor's draft adopted, as soon as the stored ones are known.
 * `draft` is undefined until then.
 */
export function usePostDraft(uid: number | undefined) {
  const loaded = useDrafts((s) => s.loaded);
  const draftKey = postDraftKey(uid);
  const draft = useDraft(draftKey);

  useEffect(() => startDrafts(), []);
  useEffect(() => {
    if (loaded && !draft && uid !== undefined) adoptVisitorDraft(uid);
  }, [loaded, draft, uid]);

  return { draftKey, draft };
}
