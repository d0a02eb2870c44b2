/**
 * Dismissing a modal by its backdrop: only a click that both starts and ends on the backdrop
 * counts, so selecting text in the modal by dragging out of it never closes it.
 */
import { useRef, type MouseEvent, type PointerEvent } from 'react';

export function useBackdropDismiss(onDismiss: () => void) {
  const pressedOnBackdrop = useRef(false);
  return {
    onPointerDown: (event: PointerEvent<HTMLElement>) => {
      pressedOnBackdrop.current = event.target === event.currentTarget;
    },
    onClick: (event: MouseEvent<HTMLElement>) => {
      if (pressedOnBackdrop.current && event.target === event.currentTarget) onDismiss();
      pressedOnBackdrop.current = false;
    },
  };
}
