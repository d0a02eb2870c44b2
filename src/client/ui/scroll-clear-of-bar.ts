/** The scroll of useFocusClearOfBar (focus-clear-of-bar.ts), loaded with the first keyboard focus near a bar. */
import { prefersReducedMotion } from '../platform/motion.ts';
import type { BarEdge } from './focus-clear-of-bar.ts';

/** Scrolls the page just enough that `target`, focus ring included, is clear of `bar` at `edge`. */
export function scrollClearOfBar(target: Element, bar: HTMLElement, edge: BarEdge): void {
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
