/**
 * Which long posts the reader opened with 展开, kept for the session. The feed is remounted on
 * every return to /home (kept alive: its data and scroll position come back); were the posts
 * folded again, the page would be shorter than the scroll position saved for it.
 */
import { create } from 'zustand';

interface ExpandedPostsState {
  expanded: Readonly<Record<number, true>>;
  toggle: (postId: number) => void;
}

export const useExpandedPostsStore = create<ExpandedPostsState>()((set) => ({
  expanded: {},
  toggle: (postId) =>
    set(({ expanded }) => {
      const { [postId]: wasExpanded, ...rest } = expanded;
      return { expanded: wasExpanded ? rest : { ...rest, [postId]: true } };
    }),
}));
