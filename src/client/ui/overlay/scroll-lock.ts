/**
 * Modals freeze body scrolling and give the scroll position back when they close
 * (SPEC.md section 4). Locks are counted, so a gallery opened over a picker is fine.
 */
import { useEffect } from 'react';

let locks = 0;
let savedY = 0;
let savedX = 0;
let savedStyle = '';

export function lockBodyScroll(): () => void {
  if (typeof document === 'undefined') return () => {};
  if (locks === 0) {
    savedY = window.scrollY;
    savedX = window.scrollX;
    const body = document.body;
    savedStyle = body.getAttribute('style') ?? '';
    const scrollbar = window.innerWidth - document.documentElement.clientWidth;
    body.style.position = 'fixed';
    body.style.top = `-${savedY}px`;
    body.style.left = `-${savedX}px`;
    body.style.right = '0';
    body.style.width = '100%';
    body.style.overflow = 'hidden';
    if (scrollbar > 0) body.style.paddingRight = `${scrollbar}px`;
    body.dataset.scrollLocked = 'true';
  }
  locks += 1;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    locks -= 1;
    if (locks === 0) {
      const body = document.body;
      if (savedStyle) body.setAttribute('style', savedStyle);
      else body.removeAttribute('style');
      delete body.dataset.scrollLocked;
      window.scrollTo({ left: savedX, top: savedY, behavior: 'instant' });
    }
  };
}

export function isBodyScrollLocked(): boolean {
  return locks > 0;
}

/** Locks body scroll while `active` is true. */
export function useBodyScrollLock(active: boolean): void {
  useEffect(() => {
    if (!active) return;
    return lockBodyScroll();
  }, [active]);
}
