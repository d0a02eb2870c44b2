import { useEffect, useState, type RefObject } from 'react';

/**
 * Whether the element has gone up past the top of the viewport (scrolled by, not yet reached
 * counts as false). For a stand-in that should follow the reader only once they are beyond the
 * original: a fixed bar that must not cover anything while the original is still ahead.
 */
export function useScrolledPast(ref: RefObject<Element | null>): boolean {
  const [past, setPast] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => {
      const entry = entries[entries.length - 1];
      if (entry) setPast(!entry.isIntersecting && entry.boundingClientRect.bottom <= (entry.rootBounds?.top ?? 0));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return past;
}
