import { useId, useRef } from 'react';
import { ModalDialog } from '../overlay/ModalDialog.tsx';
import type { ConfirmDialogState } from './confirm-store.ts';
import './dialog.css';

/** The confirm dialog: modal, Esc cancels, the backdrop cancels only when there is a cancel button. */
export default function ConfirmView({
  current,
  settle,
}: {
  current: ConfirmDialogState & { id: number };
  settle: (ok: boolean) => void;
}) {
  const okRef = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const contentId = useId();
  const cancel = () => settle(false);
  // Without a cancel button the only way out is OK; Esc still dismisses as cancel.
  return (
    <ModalDialog
      className="dialog-layer"
      role="alertdialog"
      aria-labelledby={current.title ? titleId : undefined}
      aria-describedby={current.content ? contentId : undefined}
      onDismiss={cancel}
      onBackdrop={current.cancelText ? cancel : undefined}
      initialFocus={okRef}
    >
      <div className="dialog">
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
              <button type="button" className="dialog__button" onClick={cancel}>
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
    </ModalDialog>
  );
}
