import { useId, useRef } from 'react';
import { useModal } from '../overlay/modal.ts';
import { useConfirmStore } from './confirm-store.ts';

/** The confirm dialog: modal, focus kept inside, Esc cancels, z-index 100 (--z-dialog). */
export function ConfirmHost() {
  const current = useConfirmStore((s) => s.current);
  const settle = useConfirmStore((s) => s.settle);
  const panelRef = useRef<HTMLDivElement>(null);
  const okRef = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const contentId = useId();
  const open = current !== null;
  const cancel = () => settle(false);
  const backdrop = useModal(panelRef, open, {
    onEscape: cancel,
    onBackdrop: current?.cancelText ? cancel : undefined,
    initialFocus: okRef,
  });
  if (!current) return null;
  // Without a cancel button the only way out is OK; Esc still dismisses as cancel.
  return (
    <div className="dialog-layer" {...backdrop}>
      <div
        ref={panelRef}
        className="dialog"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={current.title ? titleId : undefined}
        aria-describedby={current.content ? contentId : undefined}
        tabIndex={-1}
      >
        {current.title ? (
          <h2 id={titleId} className="dialog__title">
            {current.title}
          </h2>
        ) : null}
        {current.content ? (
          <div id={contentId} className="dialog__content">
            {current.content}
          </div>
        ) : null}
        {current.cancelText || current.okText ? (
          <div className="dialog__actions">
            {current.cancelText ? (
              <button type="button" className="dialog__button" onClick={() => settle(false)}>
                {current.cancelText}
              </button>
            ) : null}
            {current.okText ? (
              <button
                ref={okRef}
                type="button"
                className={`dialog__button dialog__button--ok${current.danger ? ' dialog__button--danger' : ''}`}
                onClick={() => settle(true)}
              >
                {current.okText}
              </button>
            ) : null}
          </div>
        ) : null}
      </div>
    </div>
  );
}
