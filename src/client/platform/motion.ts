/** Whether the reader asked the system for less motion: scrolls then jump instead of gliding. */
export function prefersReducedMotion(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}
