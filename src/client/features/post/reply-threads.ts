/**
 * Which comments of a post show all their replies, and how many pages of them: 共 N 条回复
 * opened (one page, one more with each 加载更多回复), or one's own reply sent to a comment whose
 * list carries only its first ones (every page: the reply is the last). Kept for the tab's
 * session, so a reload, or the trip to /comment on mobile and back, shows them as they were.
 */
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';

/** Every page, to the last reply. */
export const ALL_PAGES = Number.MAX_SAFE_INTEGER;

interface ReplyThreadsState {
  /** Per post, per comment opened, the pages of replies to show. */
  opened: Record<string, Record<string, number>>;
  /** Shows at least `pages` pages of the comment's replies. */
  open: (postId: number, commentId: number, pages?: number) => void;
  close: (postId: number, commentId: number) => void;
}

export const useReplyThreads = create<ReplyThreadsState>()(
  persist(
    (set) => ({
      opened: {},
      open: (postId, commentId, pages = 1) =>
        set((state) => {
          const threads = state.opened[postId] ?? {};
          if ((threads[commentId] ?? 0) >= pages) return state;
          return { opened: { ...state.opened, [postId]: { ...threads, [commentId]: pages } } };
        }),
      close: (postId, commentId) =>
        set((state) => {
          const { [commentId]: closed, ...left } = state.opened[postId] ?? {};
          if (closed === undefined) return state;
          const { [postId]: _threads, ...rest } = state.opened;
          return { opened: Object.keys(left).length > 0 ? { ...rest, [postId]: left } : rest };
        }),
    }),
    { name: 'horde:reply-threads', storage: createJSONStorage(() => sessionStorage) }, // horde: src/client/README.md ('horde')
  ),
);

/** How many pages of the replies of comment `commentId` of post `postId` show; 0 when closed. */
export const useThreadPages = (postId: number, commentId: number): number => useReplyThreads((s) => s.opened[postId]?.[commentId] ?? 0);
