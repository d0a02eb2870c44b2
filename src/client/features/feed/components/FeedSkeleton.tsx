import { LoadingRegion, Skeleton, SkeletonLines } from '../../../ui/Skeleton.tsx';
import './feed.css';

export function PostCardSkeleton({ withImage = false }: { withImage?: boolean }) {
  return (
    <div className="post-card post-card--skeleton" aria-hidden="true">
      <div className="post-card__head">
        <Skeleton width={40} height={40} radius="50%" />
        <div className="post-card__meta">
          <Skeleton width={96} height={14} />
          <Skeleton width={56} height={12} />
        </div>
      </div>
      <div className="post-content">
        <SkeletonLines lines={3} />
      </div>
      {withImage ? <Skeleton width="min(100%, 240px)" height={160} radius={8} /> : null}
    </div>
  );
}

/** Skeleton cards while the first page loads. */
export function FeedSkeleton({ count = 3 }: { count?: number }) {
  return (
    <LoadingRegion label="动态加载中">
      <div className="post-list">
        {Array.from({ length: count }, (_, i) => (
          <PostCardSkeleton key={i} withImage={i === 1} />
        ))}
      </div>
    </LoadingRegion>
  );
}
