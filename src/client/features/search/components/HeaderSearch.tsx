import { useNavigate, useRouterState } from '@tanstack/react-router';
import { useId, type FormEvent } from 'react';
import { SEARCH_QUERY_MAX_CHARS, type SearchType } from '#shared/constants.ts';
import { searchText } from '../../../entities/search/search-text.ts';
import { IconSearch } from '../../../ui/icons.tsx';

/** The PC header's search box: Enter opens /search with what it holds (on /search it shows that page's query). */
export function HeaderSearch() {
  const id = useId();
  const navigate = useNavigate();
  // On /search: its query, and its kind, which a new search from here keeps.
  const searchParams = (state: { location: { pathname: string; search: unknown } }) =>
    state.location.pathname === '/search' ? (state.location.search as { q?: string; type?: SearchType }) : undefined;
  const current = useRouterState({ select: (state) => searchParams(state)?.q ?? '' });
  const currentType = useRouterState({ select: (state) => searchParams(state)?.type });
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const field = event.currentTarget.elements.namedItem('q');
    const q = searchText(field instanceof HTMLInputElement ? field.value : '');
    void navigate({ to: '/search', search: { q: q || undefined, type: currentType } });
  };
  return (
    <form role="search" aria-label="搜索社区" className="header-search" onSubmit={onSubmit}>
      <label htmlFor={id} className="visually-hidden">
        搜索
      </label>
      <IconSearch size={16} className="header-search__icon" />
      {/* Keyed on the page's query: a new search, or Back to another, shows its own words. */}
      <input
        key={current}
        id={id}
        name="q"
        type="search"
        className="header-search__field"
        defaultValue={current}
        placeholder="搜索动态、话题、频道、用户"
        maxLength={SEARCH_QUERY_MAX_CHARS}
        enterKeyHint="search"
        autoComplete="off"
      />
    </form>
  );
}
