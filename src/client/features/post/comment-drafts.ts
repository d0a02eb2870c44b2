/**
 * What the user is writing under a post, kept per post and per answered comment until it is
 * sent (a reload, a look at another page, or the switch to /comment on mobile keep it). Each
 * draft is born with its client_id, so a send retried after a lost answer is one comment.
 */
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { newClientId } from '../../lib/ids.ts';

export interface CommentDraft {
  text: string;
  clientId: string;
}

interface CommentDraftState {
  drafts: Record<string, CommentDraft>;
  write: (key: string, text: string) => void;
  /** A refusal the user fixes makes a new comment: a new client_id. */
  renew: (key: string) => void;
  clear: (key: string) => void;
  /** Moves the draft at `from` to `to` when `to` holds none (a visitor's words, as they log in). */
  adopt: (from: string, to: string) => void;
}

/**
 * Whose comment, and where it goes: the post, and the comment or reply it answers (0: the post
 * itself). A logged-in user's drafts are theirs alone on a shared device; a visitor's (written
 * before the login, or kept by an earlier version) are taken up by whoever logs in to send them.
 */
export const draftKey = (postId: number, replyId = 0, uid?: number): string => `${uid === undefined ? '' : `${uid}@`}${postId}:${replyId}`;

export const useCommentDrafts = create<CommentDraftState>()(
  persist(
    (set) => ({
      drafts: {},
      write: (key, text) =>
        set((state) => ({ drafts: { ...state.drafts, [key]: { text, clientId: state.drafts[key]?.clientId ?? newClientId() } } })),
      renew: (key) =>
        set((state) => {
          const draft = state.drafts[key];
          return draft ? { drafts: { ...state.drafts, [key]: { ...draft, clientId: newClientId() } } } : state;
        }),
      adopt: (from, to) =>
        set((state) => {
          const { [from]: moved, ...rest } = state.drafts;
          return moved && !state.drafts[to] ? { drafts: { ...rest, [to]: moved } } : state;
        }),
      clear: (key) =>
        set((state) => {
          const { [key]: _sent, ...rest } = state.drafts;
          return { drafts: rest };
        }),
    }),
    { name: 'horde:comment-drafts', storage: createJSONStorage(() => localStorage) }, // horde: src/client/README.md ('horde')
  ),
);
