/** Which feed a page shows (/home, /follow, /follow?channelId=, /good), or null off the feeds. */
import type { FeedSource } from '../../entities/post/queries.ts';

export function feedSourceOf(pathname: string, search: Readonly<Record<string, unknown>>): FeedSource | null {
  if (pathname === '/home') return { tab: 'all' };
  if (pathname === '/good') return { tab: 'good' };
  if (pathname !== '/follow') return null;
  const channelId = Number(search.channelId);
  return Number.isInteger(channelId) && channelId > 0 ? { channelId } : { tab: 'follow' };
}
