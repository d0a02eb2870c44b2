/**
 * A modal on the browser's own <dialog> (showModal): the page under it is inert, focus starts
 * inside and returns to where it was on close, Escape dismisses (its cancel event), and while
 * any modal is open the page does not scroll and keeps its place (base.css, :has(dialog:modal)).
 * Mount it only while open. The <dialog> covers the viewport and centres its panel; a click
 * that starts and ends outside the panel is a backdrop click.
 */
import { useLayoutEffect, useRef, type DialogHTMLAttributes, type ReactNode, type RefObject } from 'react';
import { useBackdropDismiss } from './backdrop.ts';
import { useModalStack } from './modal-stack.ts';
import './modal.css';

export interface ModalDialogProps extends Omit<DialogHTMLAttributes<HTMLDialogElement>, 'onCancel' | 'open'> {
  /** Escape. */
  onDismiss: () => void;
  /** Absent: the backdrop does not dismiss (a notice that must be answered). */
  onBackdrop?: (() => void) | undefined;
  /** What gets focus first; by default the browser's choice (autofocus, else the first focusable). */
  initialFocus?: RefObject<HTMLElement | null> | undefined;
  children: ReactNode;
}

export function ModalDialog({ onDismiss, onBackdrop, initialFocus, children, ...props }: ModalDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const backdrop = useBackdropDismiss(() => onBackdrop?.());
  const focusRef = useRef(initialFocus);

  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (!dialog.open) dialog.showModal();
    focusRef.current?.current?.focus();
    const { push, remove } = useModalStack.getState();
    push(dialog);
    return () => {
      remove(dialog);
      // Closed before React removes it, so the browser gives focus back to where it was.
      if (dialog.open) dialog.close();
    };
  }, []);

  return (
    <dialog
      ref={ref}
      {...props}
      {...backdrop}
      onCancel={(event) => {
        // The browser would close it by itself; the owner decides (and unmounts it).
        event.preventDefault();
        onDismiss();
      }}
    >
      {children}
    </dialog>
  );
}
