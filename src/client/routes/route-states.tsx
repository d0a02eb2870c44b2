import { useQueryErrorResetBoundary } from '@tanstack/react-query';
import { Link, useRouter, type ErrorComponentProps } from '@tanstack/react-router';
import { useEffect } from 'react';
import { FeedSkeleton } from '../features/feed/components/FeedSkeleton.tsx';
import { LoadingRegion, Skeleton, SkeletonLines } from '../ui/Skeleton.tsx';
import { ErrorState } from '../ui/states.tsx';

/** The way back to /home that pages without content of their own offer. */
export function HomeLink({ label = '回到首页', primary = false }: { label?: string; primary?: boolean }) {
  return (
    <Link to="/home" className={`button ${primary ? 'button--primary' : 'button--ghost'}`}>
      {label}
    </Link>
  );
}

/** A route's loader or component failed: the reason, 重试 (runs the loaders again) and a way home. */
export function RouteError({ error, reset }: ErrorComponentProps) {
  const router = useRouter();
  const queryErrorResetBoundary = useQueryErrorResetBoundary();
  useEffect(() => {
    queryErrorResetBoundary.reset();
  }, [queryErrorResetBoundary]);
  const message = error instanceof Error && error.message ? error.message : '页面加载失败';
  return (
    <ErrorState
      title="加载失败"
      message={message}
      onRetry={() => {
        reset();
        void router.invalidate();
      }}
      action={<HomeLink />}
    />
  );
}

/** While a page's data loads. */
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

export function FeedPending() {
  return <FeedSkeleton />;
}
