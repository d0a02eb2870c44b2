/**
 * 有 N 条新动态 (loaded with the first check, see start-fresh-feed.ts): one request for the
 * newest page of the feed on screen; the posts newer than the newest it shows make the pill. A
 * tap jumps to the top and puts them in front of the loaded pages (all loaded pages stay); when there are
 * more than a page of them, the feed is fetched again instead. The pill goes with the page, a
 * pull to refresh, or a check that finds nothing new.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { AnyRouter } from '@tanstack/react-router';
import { endpoints } from '#shared/endpoints.ts';
import type { Paged, Post } from '#shared/schemas.ts';
import { prependNewer } from '../../entities/post/prepend.ts';
import { FEED_PAGE_SIZE, postKeys, type PostPages } from '../../entities/post/queries.ts';
import { request } from '../../lib/http.ts';
import { feedSourceOf } from './feed-source.ts';
import './new-posts.css';

let pill: HTMLDivElement | null = null;
let offRoute: (() => void) | null = null;

export function hideNewPosts(): void {
  pill?.remove();
  pill = null;
  offRoute?.();
  offRoute = null;
}

function showNewPosts(router: AnyRouter, label: string, onTap: () => void): void {
  hideNewPosts();
  const href = router.state.location.href;
  pill = document.createElement('div');
  pill.className = 'new-posts';
  pill.setAttribute('role', 'status');
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'new-posts__pill';
  button.textContent = label;
  button.addEventListener('click', () => {
    hideNewPosts();
    // A jump, before the new posts go in front: a smooth scroll was cut short on the way when
    // the feed measured the new card and kept the reader's place.
    window.scrollTo({ top: 0, behavior: 'instant' });
    onTap();
  });
  pill.append(button);
  document.body.append(pill);
  offRoute = router.subscribe('onResolved', (event) => {
    if (event.toLocation.href !== href) hideNewPosts();
  });
}

/** The newest post a check found, by feed, and the check on its way: a live post already found is not asked for again. */
const newestFound = new Map<string, number>();
let running: Promise<void> = Promise.resolve();

/**
 * Looks for posts newer than the feed on screen shows, and offers them. Told of one new post (by
 * the live stream), it waits for a check on its way and asks only if neither that check nor the
 * feed has it already.
 */
export function checkNewPosts(queryClient: QueryClient, router: AnyRouter, postId?: number): Promise<void> {
  const check = running.then(() => checkOnce(queryClient, router, postId));
  running = check.catch(() => undefined);
  return check;
}

async function checkOnce(queryClient: QueryClient, router: AnyRouter, postId: number | undefined): Promise<void> {
  const { pathname, search } = router.state.location;
  const source = feedSourceOf(pathname, search);
  if (!source) return;
  const queryKey = postKeys.feed(source);
  const newest = queryClient.getQueryData<PostPages>(queryKey)?.pages[0]?.list[0]?.id;
  if (newest === undefined) return;
  const feed = JSON.stringify(queryKey);
  if (postId !== undefined && Math.max(newest, newestFound.get(feed) ?? 0) >= postId) return;
  let latest: Paged<Post>;
  try {
    latest = await request(
      endpoints.channelPosts,
      'channelId' in source ? { channel_id: source.channelId, size: FEED_PAGE_SIZE } : { tab: source.tab, size: FEED_PAGE_SIZE },
    );
  } catch {
    return; // Offline or refused: ask again at the next check.
  }
  // The reader may have moved on while we asked.
  newestFound.set(feed, Math.max(newestFound.get(feed) ?? 0, latest.list[0]?.id ?? 0));
  if (router.state.location.pathname !== pathname) return;
  const fresh = latest.list.filter((post) => post.id > newest);
  if (fresh.length === 0) {
    hideNewPosts();
    return;
  }
  const more = fresh.length === latest.list.length && latest.page.more;
  showNewPosts(router, `有 ${fresh.length}${more ? '+' : ''} 条新动态`, () => {
    if (more) void queryClient.refetchQueries({ queryKey, exact: true });
    else prependNewer(queryClient, queryKey, fresh);
  });
}

window.addEventListener('startRefresh', hideNewPosts);
