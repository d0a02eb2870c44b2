/**
 * The code a post card needs beyond the feed's own: its poll's and its code card's, loaded with
 * the first card that shows one (few posts carry either), and what a list or the app's first
 * render waits for so that no card grows when that code comes.
 */
import type { Post } from '#shared/schemas.ts';
import { lazyComponent } from '../../ui/LazyLayer.tsx';
import { cardTextsReady } from './card-text.ts';

export const PostVote = lazyComponent(() => import('./components/PostVote.tsx'));
export const CodeCard = lazyComponent(() => import('./components/CodeCard.tsx'));

const hasCode = (post: Post) => post.attach.some((a) => a.type === 'code');

/** Loads the code of the post's poll and code cards, if it has any: a page that shows it first (its loader) renders them at once. */
export function preloadPostParts(post: Post): Promise<unknown> {
  return Promise.all([post.vote ? PostVote.preload() : undefined, hasCode(post) ? CodeCard.preload() : undefined]);
}

/**
 * What a list waits for before its cards first show, so that no card grows when its poll's or
 * its code card's code comes: that code's load, while one these posts need is on its way.
 */
export function postPartsPending(posts: readonly Post[]): Promise<void> | undefined {
  // Both loads begin at once; the list waits for one, then the other if it is still on its way.
  return partLoads(posts)[0];
}

/** The loads of the code these posts' poll and code cards need that is not here yet (each the same promise until it settles). */
function partLoads(posts: readonly Post[]): Promise<void>[] {
  const loads = [posts.some((post) => post.vote) ? PostVote.pending() : undefined, posts.some(hasCode) ? CodeCard.pending() : undefined];
  return loads.filter((load) => load !== undefined);
}

/**
 * Settles once these posts' cards can show whole, as the server's first screen shows them: their
 * text without its syntax (card-text.ts), the code of their polls and code cards here (or not to
 * come). The app's first render waits for it: a hydration that waited inside the list instead
 * would leave the list the server's, whose buttons do nothing, after the app is up.
 */
export function cardsReady(posts: readonly Post[]): Promise<unknown> {
  return Promise.all([cardTextsReady(posts.map((post) => post.content)), ...partLoads(posts)]);
}
