import { useEffect, type RefObject } from 'react';
import { prefersReducedMotion } from '../platform/motion.ts';

/**
 * While `active`, a control that takes keyboard focus (partly) under the bar at `barRef`, a bar
 * held at the bottom of the viewport (sticky or fixed), is scrolled just clear of it, focus ring
 * included (WCAG 2.2 SC 2.4.11 Focus Not Obscured). Browsers scroll a focused element only when
 * it is out of the viewport, and a bar over the viewport's foot does not count; Chromium ignores
 * scroll-padding-bottom for focus too.
 *
 * Only focus that shows its ring (:focus-visible, i.e. from the keyboard) moves the page: a tap
 * or a click landed on a visible part already, and moving the control from under the finger
 * between press and release would lose the click. Only focus within the bar's parent counts (the
 * content the bar lies over), not the bar itself nor dialogs and chrome elsewhere in the page.
 */
export function useFocusClearOfBar(barRef: RefObject<HTMLElement | null>, active: boolean): void {
  useEffect(() => {
    const bar = barRef.current;
    const content = bar?.parentElement;
    if (!active || !bar || !content) return;
    let frame = 0;
    const onFocusIn = (event: FocusEvent) => {
      const target = event.target;
      if (!(target instanceof Element) || bar.contains(target)) return;
      cancelAnimationFrame(frame);
      // The browser scrolls an out-of-view element into view after the focus events: measure after it.
      frame = requestAnimationFrame(() => {
        if (document.activeElement === target && target.matches(':focus-visible')) scrollClearOfBar(target, bar);
      });
    };
    content.addEventListener('focusin', onFocusIn);
    return () => {
      cancelAnimationFrame(frame);
      content.removeEventListener('focusin', onFocusIn);
    };
  }, [barRef, active]);
}

function scrollClearOfBar(target: Element, bar: HTMLElement): void {
  const barBox = bar.getBoundingClientRect();
  if (barBox.height === 0) return;
  const box = target.getBoundingClientRect();
  const style = getComputedStyle(target);
  const ring = Math.max(0, parseFloat(style.outlineWidth) + parseFloat(style.outlineOffset) || 0);
  const under = box.bottom + ring - barBox.top;
  if (under <= 0 || box.top >= barBox.bottom) return;
  // The smallest scroll that clears the bar, but never one that takes the control's top out of view.
  const by = Math.ceil(Math.min(under, box.top - ring));
  if (by > 0) window.scrollBy({ top: by, behavior: prefersReducedMotion() ? 'auto' : 'smooth' });
}
