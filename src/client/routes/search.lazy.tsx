import { createLazyRoute } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { SEARCH_TYPES, type SearchType } from '#shared/constants.ts';
import { searchQueryOptions } from '../entities/search/queries.ts';
import { searchText } from '../entities/search/search-text.ts';
import { rememberSearch } from '../entities/search/recent-searches.ts';
import { FeedSkeleton } from '../features/feed/components/FeedSkeleton.tsx';
import { PostCard } from '../features/feed/components/PostCard.tsx';
import { postPartsPending } from '../features/feed/post-parts.ts';
import { RecentSearches } from '../features/search/components/RecentSearches.tsx';
import { SearchForm } from '../features/search/components/SearchForm.tsx';
import { SEARCH_TYPE_LABELS, SearchResults } from '../features/search/components/SearchResults.tsx';
import { Page } from '../ui/Page.tsx';
import { Tabs } from '../ui/Tabs.tsx';
import type { RouterContext } from './root.tsx';

/** The loader of search, loaded with this page's code. Not waited for: the page keeps its field while the results load (or fail offline). */
export function loadSearch({ context, deps }: { context: RouterContext; deps: { q: string | undefined; type: SearchType } }): void {
  if (deps.q) void context.queryClient.prefetchInfiniteQuery(searchQueryOptions(deps.q, deps.type)).catch(() => undefined);
}

export const searchLazyRoute = createLazyRoute('/search')({ component: SearchPage });

/** /search: the field, 最近搜索 under it while it is empty, then the results in tabs 动态 / 话题 / 频道 / 用户. */
function SearchPage() {
  const { q = '', type = 'post' } = searchLazyRoute.useSearch();
  const navigate = searchLazyRoute.useNavigate();
  const [text, setText] = useState(q);
  const [shownQ, setShownQ] = useState(q);
  // Another search (the header's box, Back) puts its words in the field.
  if (shownQ !== q) {
    setShownQ(q);
    setText(q);
  }
  const inputRef = useRef<HTMLInputElement>(null);
  // Opened to search (the phone's entry, an empty address): the field is ready to type in.
  useEffect(() => {
    if (!q) inputRef.current?.focus();
    // Only as the page opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  useEffect(() => {
    if (q) rememberSearch(q);
  }, [q]);

  const search = (raw: string, kind: SearchType = type) => {
    const next = searchText(raw);
    setText(next);
    if (!next) {
      inputRef.current?.focus();
      return;
    }
    void navigate({ search: (prev) => ({ ...prev, q: next, type: kind === 'post' ? undefined : kind }) });
  };

  return (
    <Page title="搜索">
      <div className="card search-page">
        <SearchForm value={text} onChange={setText} onSubmit={search} inputRef={inputRef} pageFocus={!q} />
        {text.trim() === '' ? <RecentSearches onPick={(item) => search(item)} /> : null}
      </div>
      {q ? (
        <div className="card card--flush">
          <Tabs
            label="搜索分类"
            selected={type}
            onSelect={(key) =>
              void navigate({
                search: (prev) => ({ ...prev, type: key === 'post' ? undefined : SEARCH_TYPES.find((kind) => kind === key) }),
                replace: true,
              })
            }
            tabs={SEARCH_TYPES.map((kind) => ({
              key: kind,
              label: SEARCH_TYPE_LABELS[kind],
              panel: (
                <SearchResults
                  q={q}
                  type={kind}
                  postSkeleton={<FeedSkeleton />}
                  postsPending={postPartsPending}
                  renderPost={(post, excerpt) => <PostCard post={post} excerpt={excerpt} />}
                />
              ),
            }))}
          />
        </div>
      ) : null}
    </Page>
  );
}
