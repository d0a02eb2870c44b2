/**
 * What every modal needs, together: the page under it stops scrolling (and keeps its place),
 * focus stays inside and Escape dismisses, and a click on the backdrop dismisses.
 */
import type { RefObject } from 'react';
import { useBackdropDismiss } from './backdrop.ts';
import { useFocusTrap } from './focus-trap.ts';
import { useBodyScrollLock } from './scroll-lock.ts';

export interface ModalOptions {
  onEscape: () => void;
  /** Absent: the backdrop does not dismiss (a notice that must be answered). */
  onBackdrop?: () => void;
  initialFocus?: RefObject<HTMLElement | null>;
}

/** Returns the props for the backdrop element. */
export function useModal(panelRef: RefObject<HTMLElement | null>, open: boolean, options: ModalOptions) {
  useBodyScrollLock(open);
  useFocusTrap(panelRef, open, { onEscape: options.onEscape, initialFocus: options.initialFocus });
  return useBackdropDismiss(() => options.onBackdrop?.());
}
