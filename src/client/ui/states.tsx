import { useEffect, useState, type ReactNode } from 'react';
import { loadChunk } from '../lib/chunk.ts';
import { IconInbox, IconOffline, IconSpinner } from './icons.tsx';
import './states.css';

/** Nothing to show yet: a calm message and, optionally, what to do next. */
export function EmptyState({
  title,
  description,
  action,
  icon,
}: {
  title: string;
  description?: ReactNode;
  action?: ReactNode;
  icon?: ReactNode;
}) {
  return (
    <div className="state state--empty">
      <div className="state__icon" aria-hidden="true">
        {icon ?? <IconInbox size={40} />}
      </div>
      <p className="state__title">{title}</p>
      {description ? <p className="state__description">{description}</p> : null}
      {action ? <div className="state__action">{action}</div> : null}
    </div>
  );
}

/**
 * What to say about a failed request: its own message at once, then the catalogue's for its
 * code (SPEC.md section 8), which loads only when something has failed.
 */
function useErrorText(error: unknown): string {
  const own = error instanceof Error ? error.message : '';
  const [resolved, setResolved] = useState<{ error: unknown; text: string } | null>(null);
  useEffect(() => {
    if (error === undefined) return;
    let live = true;
    loadChunk(() => import('../lib/error-text.ts')).then(
      ({ errorText }) => live && setResolved({ error, text: errorText(error) }),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [error]);
  return resolved !== null && resolved.error === error ? resolved.text : own;
}

/** Loading failed: the reason and a 重试 button. */
export function ErrorState({
  title = '加载失败',
  error,
  message,
  onRetry,
  retrying = false,
  action,
}: {
  title?: string;
  /** The failure itself: its message is looked up in the catalogue. */
  error?: unknown;
  /** Or a message of the caller's own. */
  message?: string | undefined;
  onRetry?: () => void;
  retrying?: boolean;
  action?: ReactNode;
}) {
  const errorMessage = useErrorText(error);
  message ??= errorMessage;
  return (
    <div className="state state--error" role="alert">
      <div className="state__icon" aria-hidden="true">
        <IconOffline size={40} />
      </div>
      <p className="state__title">{title}</p>
      {message ? <p className="state__description">{message}</p> : null}
      <div className="state__action">
        {onRetry ? (
          <button type="button" className="button button--primary" onClick={onRetry} disabled={retrying}>
            {retrying ? '重试中…' : '重试'}
          </button>
        ) : null}
        {action}
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
