/** /search?q=&type= (搜索): what was searched for and which kind, in the address, so Back returns to the same results. */
import { createRoute } from '@tanstack/react-router';
import { SEARCH_TYPES, type SearchType } from '#shared/constants.ts';
import { loadChunk } from '../lib/chunk.ts';
import { searchText } from '../entities/search/search-text.ts';
import { rootRoute } from './root.tsx';

export const searchRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/search',
  staticData: { title: '搜索', heading: '搜索' },
  // Anything but a known kind reads as 动态 (left out of the address); an empty query as none.
  validateSearch: (search: Record<string, unknown>): { q?: string | undefined; type?: SearchType | undefined } => ({
    q: searchText(typeof search.q === 'string' || typeof search.q === 'number' ? String(search.q) : '') || undefined,
    type: SEARCH_TYPES.find((type) => type !== 'post' && type === search.type),
  }),
  loaderDeps: ({ search }) => ({ q: search.q, type: search.type ?? 'post' }),
  loader: (ctx) => loadChunk(() => import('./search.lazy.tsx')).then((page) => page.loadSearch(ctx)),
}).lazy(() => import('./search.lazy.tsx').then((m) => m.searchLazyRoute));
