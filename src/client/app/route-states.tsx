/** The router's default pending and error components: every route uses them unless it says otherwise. */
import { useQueryErrorResetBoundary } from '@tanstack/react-query';
import { useRouter, type ErrorComponentProps } from '@tanstack/react-router';
import { useEffect } from 'react';
import { HomeLink } from '../ui/HomeLink.tsx';
import { LoadingRegion, Skeleton, SkeletonLines } from '../ui/Skeleton.tsx';
import { ErrorState } from '../ui/states.tsx';

/** A route's loader, code or component failed: the reason, 重试 (runs the loaders again) and a way home. */
export function RouteError({ error, reset }: ErrorComponentProps) {
  const router = useRouter();
  const queryErrorResetBoundary = useQueryErrorResetBoundary();
  useEffect(() => {
    queryErrorResetBoundary.reset();
  }, [queryErrorResetBoundary]);
  return (
    <ErrorState
      title="加载失败"
      error={error}
      onRetry={() => {
        reset();
        void router.invalidate();
      }}
      action={<HomeLink />}
    />
  );
}

/** While a page's code or data loads. */
export function PagePending() {
  return (
    <LoadingRegion label="页面加载中">
      <div className="card page-skeleton" aria-hidden="true">
        <Skeleton width="40%" height={20} />
        <SkeletonLines lines={4} />
      </div>
    </LoadingRegion>
  );
}
