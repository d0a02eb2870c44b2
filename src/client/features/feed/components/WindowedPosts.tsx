/**
 * A long feed, windowed: only the cards near the viewport are in the DOM, however many
 * pages are loaded. PostList loads this chunk when the list grows past WINDOW_FROM posts, so a
 * first visit to /home carries none of it.
 *
 * Cards differ in height, so each is measured when shown, and the heights are kept by post id
 * for the session: when a kept-alive /home comes back, the list is as tall as when it was left
 * before it paints, and the restored scroll position lands on the same post.
 */
import { useWindowVirtualizer, type VirtualItem, type Virtualizer } from '@tanstack/react-virtual';
import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import type { Post } from '#shared/schemas.ts';
import { PostCard } from './PostCard.tsx';

/** A card not measured yet: about a text card with a line of chips. */
const ESTIMATED_CARD_PX = 240;
/** Cards kept in the DOM above and below the viewport (keyboard and find-in-page reach them). */
const OVERSCAN = 5;

const heightById = new Map<number, number>();

/**
 * The plain list shown until this chunk arrived is still in the page while the windowed one first
 * renders: its cards' heights (with the gap after each) are taken as measured, so the switch does
 * not move what the reader sees. While the chunk loads, React keeps the plain list it showed before
 * in the page too, hidden (display: none), beside the same list shown as Suspense's fallback: only
 * cards with a height count (a hidden card's 0 would be kept as its height, and every later return
 * to the list would land on another post once those cards are measured for real).
 */
function measurePlainList(): void {
  for (const list of document.querySelectorAll('.post-list:not(.post-list--windowed)')) {
    const gap = parseFloat(getComputedStyle(list).rowGap) || 0;
    for (const card of list.querySelectorAll(':scope > article')) {
      const id = /^post-(\d+)-author$/.exec(card.getAttribute('aria-labelledby') ?? '')?.[1];
      const height = card.getBoundingClientRect().height;
      if (id && height > 0) heightById.set(Number(id), height + gap);
    }
  }
}

/**
 * When a card above the viewport turns out taller or shorter than its estimate, the virtualizer
 * scrolls by the difference so that what the reader sees stays put: as it does by default, except
 * while the page scrolls up. Its correction is an instant scroll, which ends a smooth one: 回到顶部's
 * smooth scroll to the top would stop short of it. Scrolling up by hand past cards a jump skipped
 * (never measured), those below shift by the difference instead.
 */
function keepsPlaceUnlessScrollingUp(item: VirtualItem, _delta: number, instance: Virtualizer<Window, HTMLDivElement>): boolean {
  if (instance.scrollDirection === 'backward') return false;
  const offset = instance.scrollOffset ?? 0;
  // Measured before: only a card wholly above moves the view; a first measure: any that starts above.
  return instance.itemSizeCache.has(item.key) ? item.end <= offset : item.start < offset;
}

/**
 * A slot's height as laid out, fractions of a pixel included. The virtualizer's own measure rounds
 * to whole pixels, and the rounding added up: a card's text lines are often 22.5 px tall, so each
 * card above the reader's counted half a pixel more, and the switch to this list moved the 30th
 * post down by 13 px. A slot seen before keeps its height when it comes back into the DOM (no
 * layout is read), as with the virtualizer's own measure.
 */
function slotHeight(element: HTMLDivElement, entry: ResizeObserverEntry | undefined, instance: Virtualizer<Window, HTMLDivElement>): number {
  const box = entry?.borderBoxSize[0];
  if (box) return box.blockSize;
  const measured = entry ? undefined : instance.itemSizeCache.get(instance.options.getItemKey(instance.indexFromElement(element)));
  return measured ?? element.getBoundingClientRect().height;
}

/** The virtualizer's setting for that has no option of the hook: it is set on the instance. */
function correctScrollUnlessScrollingUp(virtualizer: Virtualizer<Window, HTMLDivElement>): void {
  virtualizer.shouldAdjustScrollPositionOnItemSizeChange = keepsPlaceUnlessScrollingUp;
}

export default function WindowedPosts({
  posts,
  more,
}: {
  posts: Post[];
  /** More pages may come: the feed's size is unknown (-1 for ARIA) until the last. */
  more: boolean;
  /** The plain list, for when this chunk cannot load (see PostList). */
  children?: ReactNode;
}) {
  const listRef = useRef<HTMLDivElement>(null);
  useState(measurePlainList);
  const [scrollMargin, setScrollMargin] = useState(0);
  const virtualizer = useWindowVirtualizer<HTMLDivElement>({
    count: posts.length,
    estimateSize: (index) => heightById.get(posts[index]!.id) ?? ESTIMATED_CARD_PX,
    getItemKey: (index) => posts[index]!.id,
    overscan: OVERSCAN,
    scrollMargin,
    measureElement: (element, entry, instance) => {
      const height = slotHeight(element, entry, instance);
      const post = posts[Number(element.getAttribute('data-index'))];
      if (post) heightById.set(post.id, height);
      return height;
    },
  });
  useLayoutEffect(() => correctScrollUnlessScrollingUp(virtualizer), [virtualizer]);

  // Where the list starts in the page (the header, pending posts and the pill sit above it),
  // checked again with every change of the posts (posts put in front come with other changes above).
  useLayoutEffect(() => {
    const list = listRef.current;
    if (list) setScrollMargin(list.getBoundingClientRect().top + window.scrollY);
  }, [posts]);

  // Where each card is in the whole feed, for screen readers (most cards are not in the DOM).
  // Set here rather than as props of the card, whose code every first visit loads.
  useLayoutEffect(() => {
    for (const slot of listRef.current?.children ?? []) {
      const card = slot.firstElementChild;
      card?.setAttribute('aria-posinset', String(Number(slot.getAttribute('data-index')) + 1));
      card?.setAttribute('aria-setsize', String(more ? -1 : posts.length));
    }
  });

  return (
    <div
      ref={listRef}
      className="post-list post-list--windowed"
      style={{ height: virtualizer.getTotalSize() }}
    >
      {virtualizer.getVirtualItems().map((item) => (
        <div
          key={item.key}
          ref={virtualizer.measureElement}
          data-index={item.index}
          className="post-list__slot"
          // On whole pixels (text on a fraction of one is blurred on some screens); the
          // heights above it are added up unrounded, so the card is within half a pixel of its place.
          style={{ transform: `translateY(${Math.round(item.start - scrollMargin)}px)` }}
        >
          <PostCard post={posts[item.index]!} />
        </div>
      ))}
    </div>
  );
}
