/**
 * SPEC.md sections 4 and 9: a double tap within 300 ms is suppressed. Cancelling the second
 * touchend stops what it would start: the browser's double-tap zoom and a second click (a
 * 展开 that folds again at once, a second 加载更多). Text fields keep their double tap, which
 * selects a word. The gallery's own double-tap zoom reads pointer events and is unaffected.
 */
import { DOUBLE_TAP_MS } from '#shared/constants.ts';

const KEEPS_DOUBLE_TAP = 'input, textarea, select, [contenteditable]:not([contenteditable="false"])';

/** Installs the guard on `target` (the document). Returns the uninstall. */
export function suppressDoubleTap(target: Document = document): () => void {
  let lastTapAt = Number.NEGATIVE_INFINITY;
  const onTouchEnd = (event: Event) => {
    const now = Date.now();
    const element = event.target instanceof Element ? event.target : null;
    if (now - lastTapAt < DOUBLE_TAP_MS && event.cancelable && !element?.closest(KEEPS_DOUBLE_TAP)) {
      event.preventDefault();
    }
    lastTapAt = now;
  };
  // Not passive: a passive listener may not cancel the event.
  target.addEventListener('touchend', onTouchEnd, { passive: false });
  return () => target.removeEventListener('touchend', onTouchEnd);
}
