/**
 * The empty and the error state, loaded the first time one shows (states.tsx), so a visit in
 * which nothing fails and nothing is empty does not carry them.
 */
import { useEffect, useState } from 'react';
import { loadChunk } from '../lib/chunk.ts';
import { IconInbox, IconOffline } from './icons-secondary.tsx';
import type { EmptyStateProps, ErrorStateProps } from './states.tsx';

/** Nothing to show yet: a calm message and, optionally, what to do next. */
export function EmptyState({ title, description, action, icon }: EmptyStateProps) {
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
 * code (src/shared/error-messages.ts), which loads only when something has failed.
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
export function ErrorState({ title = '加载失败', error, message, onRetry, retrying = false, action }: ErrorStateProps) {
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

