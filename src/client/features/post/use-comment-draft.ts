import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { sessionQueryOptions } from '../../entities/session/queries.ts';
import { useEarlyValue } from '../../lib/early-value.ts';
import { draftKey, useCommentDrafts } from './comment-drafts.ts';

/**
 * The draft a comment box edits: of this post, or of this reply, and of the viewer. Words written
 * before the login are the user's once they are logged in; words typed into the server's page
 * before the app started are the draft's too. `fieldName` names the post's own box as that page
 * does.
 */
export function useCommentDraft(postId: number, replyId: number | undefined) {
  const viewer = useQuery(sessionQueryOptions()).data?.uid;
  const key = draftKey(postId, replyId, viewer);
  // A visitor's words show as the user's until they are taken up (below).
  const draft = useCommentDrafts((s) => s.drafts[key] ?? (viewer === undefined ? undefined : s.drafts[draftKey(postId, replyId)]));
  const { write, adopt } = useCommentDrafts.getState();
  useEffect(() => {
    if (viewer !== undefined) adopt(draftKey(postId, replyId), key);
  }, [viewer, postId, replyId, key, adopt]);

  // The post's own box is on the server's page: words typed there before the app started are this
  // draft's, after any kept from before (nothing is lost).
  const fieldName = replyId === undefined ? `comment-${postId}` : undefined;
  useEarlyValue(fieldName, (typed) => {
    const early = [typed].flat().join('');
    const kept = useCommentDrafts.getState().drafts[key]?.text ?? '';
    write(key, kept.trim() && kept !== early ? `${kept}\n${early}` : early);
  });

  return { key, text: draft?.text ?? '', fieldName };
}
