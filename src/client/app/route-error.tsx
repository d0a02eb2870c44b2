/** The router's default error component (route-states.tsx loads it the first time a page fails). */
import { useQueryErrorResetBoundary } from '@tanstack/react-query';
import { useMatches, useRouter, type ErrorComponentProps } from '@tanstack/react-router';
import { ErrorCode } from '#shared/errors.ts';
import { useCallback, useEffect } from 'react';
import { CHUNK_LOAD_MESSAGE, isChunkLoadError } from '../lib/chunk.ts';
import { isApiError } from '../lib/http.ts';
import { useOnlineStore } from '../platform/online-store.ts';
import { HomeLink } from '../ui/HomeLink.tsx';
import { EmptyState, ErrorState } from '../ui/state-views.tsx';
import { canGoBackInSession } from '../lib/visit-history.ts';

/**
 * A route's loader, code or component failed: the reason, 重试 (runs the loaders again) and a
 * way home. Offline (and not refused by the server) it says that the page is not cached, and
 * loads it by itself once the network is back. The page's code itself failed to load: the
 * browser keeps that failure (and a deploy may have removed the old code), so 刷新页面 reloads.
 */
export default function RouteError({ error, reset }: ErrorComponentProps) {
  const router = useRouter();
  const gone = useMatches({ select: (matches) => matches.at(-1)?.staticData.gone });
  const queryErrorResetBoundary = useQueryErrorResetBoundary();
  const offline = useOnlineStore((s) => !s.online) && !(isApiError(error) && error.kind === 'business');
  useEffect(() => {
    queryErrorResetBoundary.reset();
  }, [queryErrorResetBoundary]);
  const retry = useCallback(() => {
    reset();
    void router.invalidate();
  }, [reset, router]);
  useEffect(() => useOnlineStore.subscribe((state, before) => void (state.online && !before.online && retry())), [retry]);
  const stale = isChunkLoadError(error);
  // Deleted, or never was: no 重试 would bring it back.
  if (isApiError(error) && error.code === ErrorCode.NotFound) {
    return <EmptyState title={gone ?? '内容不存在或已被删除'} description="可以返回上一页，或去首页看看别的动态。" action={<GoneActions />} />;
  }
  return (
    <ErrorState
      title={offline ? '当前处于离线状态' : '加载失败'}
      error={error}
      message={stale ? CHUNK_LOAD_MESSAGE : offline ? '这个页面还没有离线缓存，网络恢复后会自动加载' : undefined}
      onRetry={stale ? undefined : retry}
      action={
        <>
          {stale ? (
            <button type="button" className="button button--primary" onClick={() => location.reload()}>
              刷新页面
            </button>
          ) : null}
          <HomeLink />
        </>
      }
    />
  );
}

/** 返回 (where the reader came from, in this visit) and the way home. */
function GoneActions() {
  const router = useRouter();
  return (
    <>
      {canGoBackInSession() ? (
        <button type="button" className="button button--ghost" onClick={() => router.history.back()}>
          返回
        </button>
      ) : null}
      <HomeLink />
    </>
  );
}
