/**
 * A double tap within 300 ms (DOUBLE_TAP_MS) is suppressed. Cancelling the second touchend stops
 * what it would start: the browser's double-tap zoom and a second click (a 展开 that folds again at
 * once, a second 加载更多). A double tap is two taps on the same control: a tap on another one (a
 * poll's option, then 投票) always counts. Text fields keep their double tap, which selects a word.
 * The gallery's own double-tap zoom reads pointer events and is unaffected.
 */
import { DOUBLE_TAP_MS } from '#shared/constants.ts';

const KEEPS_DOUBLE_TAP = 'input, textarea, select, [contenteditable]:not([contenteditable="false"])';
/** What one tap acts on: the control around the touched element, or the element itself. */
const CONTROL = 'a, button, label, summary, [role="button"], [tabindex]';

/** Installs the guard on `target` (the document). Returns the uninstall. */
export function suppressDoubleTap(target: Document = document): () => void {
  let lastTapAt = Number.NEGATIVE_INFINITY;
  let lastTapped: Element | null = null;
  const onTouchEnd = (event: Event) => {
    const now = Date.now();
    const element = event.target instanceof Element ? event.target : null;
    const tapped = element?.closest(CONTROL) ?? element;
    if (now - lastTapAt < DOUBLE_TAP_MS && tapped === lastTapped && event.cancelable && !element?.closest(KEEPS_DOUBLE_TAP)) {
      event.preventDefault();
    }
    lastTapAt = now;
    lastTapped = tapped;
  };
  // Not passive: a passive listener may not cancel the event.
  target.addEventListener('touchend', onTouchEnd, { passive: false });
  return () => target.removeEventListener('touchend', onTouchEnd);
}
