import { useEffect, type RefObject } from 'react';
import { loadChunk } from '../lib/chunk.ts';

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
        if (document.activeElement !== target || !target.matches(':focus-visible')) return;
        // Its own chunk: only a keyboard's focus needs it, and a first visit by touch never does.
        void loadChunk(() => import('./scroll-clear-of-bar.ts')).then((scroll) => scroll.scrollClearOfBar(target, bar, edge), () => undefined);
      });
    };
    content.addEventListener('focusin', onFocusIn);
    return () => {
      cancelAnimationFrame(frame);
      content.removeEventListener('focusin', onFocusIn);
    };
  }, [barRef, contentRef, active, edge]);
}
