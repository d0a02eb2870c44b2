/**
 * /home's first feed page before anything else is read (src/client/entities/post/first-feed-page.ts):
 * the one the last visit kept in localStorage (read back on /home only, not when too old or
 * unreadable, and marked for a refetch). The one inside a first visit's page: first-read.test.ts.
 */
import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  adoptStoredFirstFeedPage,
  keepFirstFeedPage,
  STORED_FIRST_FEED_PAGE_KEY,
} from '../../src/client/entities/post/first-feed-page.ts';
import { PERSIST_MAX_AGE_MS } from '../../src/client/lib/query-client.ts';
import { feedQueryOptions } from '../../src/client/entities/post/queries.ts';
import { makePost } from './fixtures.ts';

const homeFeed = feedQueryOptions({ tab: 'all' });

describe('the first feed page kept by the last visit', () => {
  afterEach(() => {
    localStorage.clear();
    vi.useRealTimers();
  });

  const first = { list: [makePost(3), makePost(2)], page: { more: true, next_index: 2 } };
  const second = { list: [makePost(1)], page: { more: false, next_index: 1 } };

  it('keeps the first page as the feed changes, never the later ones, and forgets it with the query', async () => {
    const client = new QueryClient();
    const stop = keepFirstFeedPage(client);
    client.setQueryData(homeFeed.queryKey, { pages: [first], pageParams: [0] }, { updatedAt: 1_000 });
    expect(JSON.parse(localStorage.getItem(STORED_FIRST_FEED_PAGE_KEY)!)).toEqual({ savedAt: 1_000, page: first });
    client.setQueryData(homeFeed.queryKey, { pages: [first, second], pageParams: [0, 2] }, { updatedAt: 2_000 });
    expect(JSON.parse(localStorage.getItem(STORED_FIRST_FEED_PAGE_KEY)!).page).toEqual(first);
    // Another feed (a channel's) is not /home's.
    client.setQueryData(feedQueryOptions({ channelId: 3 }).queryKey, { pages: [second], pageParams: [0] });
    expect(JSON.parse(localStorage.getItem(STORED_FIRST_FEED_PAGE_KEY)!).page).toEqual(first);
    client.removeQueries({ queryKey: homeFeed.queryKey });
    expect(localStorage.getItem(STORED_FIRST_FEED_PAGE_KEY)).toBeNull();
    stop();
  });

  it('puts it back on /home and /, with its time, marked for a refetch once shown', async () => {
    const client = new QueryClient();
    keepFirstFeedPage(client);
    client.setQueryData(homeFeed.queryKey, { pages: [first, second], pageParams: [0, 2] });
    const savedAt = client.getQueryState(homeFeed.queryKey)!.dataUpdatedAt;
    for (const path of ['/home', '/']) {
      const next = new QueryClient();
      expect(adoptStoredFirstFeedPage(next, path)).toBe(true);
      expect(next.getQueryData(homeFeed.queryKey)).toEqual({ pages: [first], pageParams: [0] });
      expect(next.getQueryState(homeFeed.queryKey)).toMatchObject({ dataUpdatedAt: savedAt, isInvalidated: true });
      await expect(next.ensureInfiniteQueryData(homeFeed)).resolves.toEqual({ pages: [first], pageParams: [0] });
    }
  });

  it('not over a newer first page the cache already holds (what the page carried)', () => {
    localStorage.setItem(STORED_FIRST_FEED_PAGE_KEY, JSON.stringify({ savedAt: Date.now() - 60_000, page: first }));
    const client = new QueryClient();
    client.setQueryData(homeFeed.queryKey, { pages: [second], pageParams: [0] }, { updatedAt: Date.now() - 30_000 });
    expect(adoptStoredFirstFeedPage(client, '/home')).toBe(false);
    expect(client.getQueryData(homeFeed.queryKey)).toEqual({ pages: [second], pageParams: [0] });
  });

  it('not on another route, not older than the persisted cache keeps anything, not when unreadable', () => {
    vi.useFakeTimers({ now: 10 * PERSIST_MAX_AGE_MS, toFake: ['Date'] });
    const stored = (savedAt: number) => localStorage.setItem(STORED_FIRST_FEED_PAGE_KEY, JSON.stringify({ savedAt, page: first }));
    stored(Date.now() - 1_000);
    expect(adoptStoredFirstFeedPage(new QueryClient(), '/message/detail/3')).toBe(false);
    expect(adoptStoredFirstFeedPage(new QueryClient(), '/home')).toBe(true);
    stored(Date.now() - PERSIST_MAX_AGE_MS);
    expect(adoptStoredFirstFeedPage(new QueryClient(), '/home')).toBe(false);
    localStorage.setItem(STORED_FIRST_FEED_PAGE_KEY, '{"savedAt":');
    expect(adoptStoredFirstFeedPage(new QueryClient(), '/home')).toBe(false);
    localStorage.setItem(STORED_FIRST_FEED_PAGE_KEY, JSON.stringify({ savedAt: Date.now(), page: {} }));
    const client = new QueryClient();
    expect(adoptStoredFirstFeedPage(client, '/home')).toBe(false);
    expect(client.getQueryData(homeFeed.queryKey)).toBeUndefined();
  });
});
