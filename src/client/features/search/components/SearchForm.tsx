import { useId, type FormEvent, type Ref } from 'react';
import { SEARCH_QUERY_MAX_CHARS } from '#shared/constants.ts';
import { IconSearch } from '../../../ui/icons.tsx';
import '../search.css';

/** The search page's field (role=search, labelled): Enter searches what it holds. */
export function SearchForm({
  value,
  onChange,
  onSubmit,
  pageFocus = false,
  inputRef,
}: {
  value: string;
  onChange: (value: string) => void;
  onSubmit: (value: string) => void;
  pageFocus?: boolean;
  inputRef?: Ref<HTMLInputElement>;
}) {
  const id = useId();
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onSubmit(value);
  };
  return (
    <form role="search" aria-label="搜索" className="search-form" onSubmit={submit}>
      <label htmlFor={id} className="visually-hidden">
        搜索动态、话题、频道、用户
      </label>
      <span className="search-form__box">
        <IconSearch size={18} className="search-form__icon" />
        <input
          ref={inputRef}
          id={id}
          name="q"
          type="search"
          className="search-form__field"
          value={value}
          onChange={(event) => onChange(event.target.value)}
          placeholder="搜索动态、话题、频道、用户"
          maxLength={SEARCH_QUERY_MAX_CHARS}
          enterKeyHint="search"
          autoComplete="off"
          // Focused by the page as it opens to search: the shell, which focuses a new page's
          // content, leaves it there.
          data-page-focus={pageFocus || undefined}
        />
      </span>
      <button type="submit" className="button button--primary search-form__submit">
        搜索
      </button>
    </form>
  );
}
