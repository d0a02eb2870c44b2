import { useEffect, type RefObject } from 'react';
import { prefersReducedMotion } from '../platform/motion.ts';

/** Where the bar is held: over the viewport's top (a header) or its foot (a bar of actions). */
export type BarEdge = 'top' | 'bottom';

export interface FocusClearOfBarOptions {
  edge?: BarEdge;
  /** The content the bar lies over; the bar's parent by default. */
  contentRef?: RefObject<HTMLElement | null>;
}

/**
 * While `active`, a control that takes keyboard focus (partly) under the bar at `barRef`, a bar
 * held at the top or the bottom of the viewport (sticky or fixed), is scrolled just clear of it,
 * focus ring included (WCAG 2.2 SC 2.4.11 Focus Not Obscured): Tab down the page under a bar at
 * the foot, Shift+Tab up it under the header. Browsers scroll a focused element only when it is
 * out of the viewport, and a bar over the viewport's top or foot does not count; Chromium ignores
 * scroll-padding for focus too.
 *
 * Only focus that shows its ring (:focus-visible, i.e. from the keyboard) moves the page: a tap
 * or a click landed on a visible part already, and moving the control from under the finger
 * between press and release would lose the click. Only focus within the content counts, not the
 * bar itself nor dialogs and chrome elsewhere in the page.
 */
export function useFocusClearOfBar(barRef: RefObject<HTMLElement | null>, active: boolean, { edge = 'bottom', contentRef }: FocusClearOfBarOptions = {}): void {
  useEffect(() => {
    const bar = barRef.current;
    const content = contentRef ? contentRef.current : bar?.parentElement;
    if (!active || !bar || !content) return;
    let frame = 0;
    const onFocusIn = (event: FocusEvent) => {
      const target = event.target;
      if (!(target instanceof Element) || bar.contains(target)) return;
      cancelAnimationFrame(frame);
      // The browser scrolls an out-of-view element into view after the focus events: measure after it.
      frame = requestAnimationFrame(() => {
        if (document.activeElement === target && target.matches(':focus-visible')) scrollClearOfBar(target, bar, edge);
      });
    };
    content.addEventListener('focusin', onFocusIn);
    return () => {
      cancelAnimationFrame(frame);
      content.removeEventListener('focusin', onFocusIn);
    };
  }, [barRef, contentRef, active, edge]);
}

function scrollClearOfBar(target: Element, bar: HTMLElement, edge: BarEdge): void {
  const barBox = bar.getBoundingClientRect();
  if (barBox.height === 0) return;
  const box = target.getBoundingClientRect();
  const style = getComputedStyle(target);
  const ring = Math.max(0, parseFloat(style.outlineWidth) + parseFloat(style.outlineOffset) || 0);
  // The smallest scroll that clears the bar, but never one that takes the control's other end out of view.
  if (edge === 'bottom') {
    const under = box.bottom + ring - barBox.top;
    if (under <= 0 || box.top >= barBox.bottom) return;
    const by = Math.ceil(Math.min(under, box.top - ring));
    if (by > 0) scrollPageBy(by);
  } else {
    const under = barBox.bottom - (box.top - ring);
    if (under <= 0 || box.bottom <= barBox.top) return;
    const by = Math.ceil(Math.min(under, window.innerHeight - (box.bottom + ring)));
    if (by > 0) scrollPageBy(-by);
  }
}

const scrollPageBy = (top: number) => window.scrollBy({ top, behavior: prefersReducedMotion() ? 'auto' : 'smooth' });
