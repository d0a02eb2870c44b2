/** The router's default pending and error components: every route uses them unless it says otherwise. */
import type { ErrorComponentProps } from '@tanstack/react-router';
import { LoadingRegion, Skeleton, SkeletonLines } from '../ui/Skeleton.tsx';
import { LazyLayer, lazyComponent } from '../ui/LazyLayer.tsx';
import { CodeUnavailableState } from '../ui/states.tsx';

// A visit in which no page fails does not carry it.
const RouteErrorView = lazyComponent(() => import('./route-error.tsx'));

/** A route's loader, code or component failed (route-error.tsx says what, and offers what to do). */
export function RouteError(props: ErrorComponentProps) {
  return (
    <LazyLayer failed={<CodeUnavailableState />}>
      <RouteErrorView {...props} />
    </LazyLayer>
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
