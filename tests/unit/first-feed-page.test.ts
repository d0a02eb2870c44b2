/**
 * The first feed page that comes inside the page (src/client/entities/post/first-feed-page.ts):
 * put where /home's loader looks, read once, and ignored when it is not a success.
 */
import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { FIRST_FEED_PAGE_ELEMENT_ID } from '../../src/shared/first-screen.ts';
import { adoptFirstFeedPage } from '../../src/client/entities/post/first-feed-page.ts';
import { feedQueryOptions } from '../../src/client/entities/post/queries.ts';
import { makePost } from './fixtures.ts';

function carry(text: string): void {
  const element = document.createElement('script');
  element.id = FIRST_FEED_PAGE_ELEMENT_ID;
  element.type = 'application/json';
  element.textContent = text;
  document.body.append(element);
}

const homeFeed = feedQueryOptions({ tab: 'all' });

afterEach(() => document.getElementById(FIRST_FEED_PAGE_ELEMENT_ID)?.remove());

describe('adoptFirstFeedPage', () => {
  it('puts the page where /home’s feed query reads it, once', async () => {
    const page = { list: [makePost(3), makePost(2)], page: { more: true, next_index: 2 } };
    carry(JSON.stringify({ code: 0, data: page }));
    const client = new QueryClient();
    expect(adoptFirstFeedPage(client)).toBe(true);
    expect(client.getQueryData(homeFeed.queryKey)).toEqual({ pages: [page], pageParams: [0] });
    // /home's loader finds it and calls nothing.
    await expect(client.ensureInfiniteQueryData(homeFeed)).resolves.toEqual({ pages: [page], pageParams: [0] });
    expect(document.getElementById(FIRST_FEED_PAGE_ELEMENT_ID)).toBeNull();
    expect(adoptFirstFeedPage(new QueryClient())).toBe(false);
  });

  it('ignores a page without it, an error envelope and broken JSON', () => {
    const client = new QueryClient();
    expect(adoptFirstFeedPage(client)).toBe(false);
    carry(JSON.stringify({ code: -1, error: { code: -1002, msg: '服务异常' } }));
    expect(adoptFirstFeedPage(client)).toBe(false);
    carry('{"code":0,');
    expect(adoptFirstFeedPage(client)).toBe(false);
    expect(client.getQueryData(homeFeed.queryKey)).toBeUndefined();
  });
});
