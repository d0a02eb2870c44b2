/**
 * The states of a list or a page: empty, failed (with 重试), and the end of a paged list. The
 * empty and the error state come in a chunk of their own the first time one shows
 * (state-views.tsx); the list's end shows on every feed, so it is here.
 */
import type { ReactNode } from 'react';
import { CHUNK_LOAD_MESSAGE } from '../lib/chunk.ts';
import { LazyLayer, lazyComponent } from './LazyLayer.tsx';
import { IconSpinner } from './icons.tsx';
import './states.css';

export interface EmptyStateProps {
  title: string;
  description?: ReactNode;
  action?: ReactNode;
  icon?: ReactNode;
}

export interface ErrorStateProps {
  title?: string;
  /** The failure itself: its message is looked up in the catalogue. */
  error?: unknown;
  /** Or a message of the caller's own. */
  message?: string | undefined;
  onRetry?: () => void;
  retrying?: boolean;
  action?: ReactNode;
}

const EmptyStateView = lazyComponent<EmptyStateProps>(() => import('./state-views.tsx').then((views) => ({ default: views.EmptyState })));
const ErrorStateView = lazyComponent<ErrorStateProps>(() => import('./state-views.tsx').then((views) => ({ default: views.ErrorState })));

/** Nothing to show yet: a calm message and, optionally, what to do next. */
export function EmptyState(props: EmptyStateProps) {
  return (
    <LazyLayer
      failed={
        <div className="state state--empty">
          <p className="state__title">{props.title}</p>
        </div>
      }
    >
      <EmptyStateView {...props} />
    </LazyLayer>
  );
}

/** Loading failed: the reason and a 重试 button. */
export function ErrorState(props: ErrorStateProps) {
  return (
    <LazyLayer failed={<CodeUnavailableState title={props.title} />}>
      <ErrorStateView {...props} />
    </LazyLayer>
  );
}

/**
 * Where the code of an error state did not load either (a deploy removed the old code, or the
 * network is gone without a service worker to keep it): only a reload brings code back.
 */
export function CodeUnavailableState({ title = '加载失败' }: { title?: string | undefined }) {
  return (
    <div className="state state--error" role="alert">
      <p className="state__title">{title}</p>
      <p className="state__description">{CHUNK_LOAD_MESSAGE}</p>
      <div className="state__action">
        <button type="button" className="button button--primary" onClick={() => location.reload()}>
          刷新页面
        </button>
      </div>
    </div>
  );
}

/** What ListFooter reads from an infinite query (useInfiniteQuery's result has it). */
export interface PagedQueryState {
  isFetchingNextPage: boolean;
  isFetchNextPageError: boolean;
  hasNextPage: boolean;
  fetchNextPage: () => unknown;
}

/**
 * The end of a paged list: loading the next page, its failure with a retry, a button for
 * the next page (infinite scroll's keyboard and fallback path), or 没有更多了.
 */
export function ListFooter({ query, moreLabel = '加载更多' }: { query: PagedQueryState; moreLabel?: string }) {
  const { isFetchingNextPage, isFetchNextPageError, hasNextPage, fetchNextPage } = query;
  return (
    <div className="list-footer">
      {isFetchingNextPage ? (
        <span className="list-footer__loading" role="status">
          <IconSpinner size={18} /> 加载中…
        </span>
      ) : isFetchNextPageError ? (
        <span className="list-footer__error" role="alert">
          加载失败
          <button type="button" className="button button--text" onClick={() => void fetchNextPage()}>
            重试
          </button>
        </span>
      ) : hasNextPage ? (
        <button type="button" className="button button--ghost list-footer__more" onClick={() => void fetchNextPage()}>
          {moreLabel}
        </button>
      ) : (
        <span className="list-footer__end">没有更多了</span>
      )}
    </div>
  );
}
