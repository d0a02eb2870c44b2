import { useEffect, useRef } from 'react';
import { BOTTOM_DETECTION_MARGIN_PX } from '#shared/constants.ts';

/** What of an infinite query the sentinel needs. */
interface PagedQuery {
  data?: { pages: readonly unknown[] } | undefined;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  isFetchNextPageError: boolean;
  status: 'pending' | 'error' | 'success';
  fetchNextPage: (options: { cancelRefetch: boolean }) => Promise<unknown>;
}

/**
 * A list's next page, loaded as the reader scrolls near its end: returns the ref of a sentinel
 * element under the list, which asks for the next page when it comes within
 * BOTTOM_DETECTION_MARGIN_PX of the viewport (never while a page is on its way or failed).
 */
export function useNextPageOnScroll(query: PagedQuery) {
  const { hasNextPage, isFetchingNextPage, isFetchNextPageError, status, fetchNextPage } = query;
  const sentinelRef = useRef<HTMLDivElement>(null);
  const canAutoLoad = hasNextPage && !isFetchingNextPage && !isFetchNextPageError && status === 'success';
  const pages = query.data?.pages.length;

  useEffect(() => {
    const sentinel = sentinelRef.current;
    if (!sentinel || !canAutoLoad || typeof IntersectionObserver === 'undefined') return;
    // A new observer after every page reports at once if the sentinel is still in view.
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) void fetchNextPage({ cancelRefetch: false });
      },
      { rootMargin: `0px 0px ${BOTTOM_DETECTION_MARGIN_PX}px 0px` },
    );
    observer.observe(sentinel);
    return () => observer.disconnect();
  }, [canAutoLoad, fetchNextPage, pages]);

  return sentinelRef;
}
