/** Pull to refresh and the new-posts check in one chunk (start-fresh-feed.ts loads it once for either). */
export { startPullToRefresh } from './pull-to-refresh.ts';
export { checkNewPosts } from './new-posts.ts';
