import type { CSSProperties, ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { selectInnermostModal, useModalStack } from '../overlay/modal-stack.ts';
import { IconCheck, IconClose, IconError, IconInfo, IconSpinner, IconWarning } from '../icons.tsx';
import { useToastStore, type Toast, type ToastType } from './toast-store.ts';
import './toast.css';

const typeIcon: Record<ToastType, ReactNode> = {
  info: <IconInfo size={22} />,
  success: <IconCheck size={22} />,
  warning: <IconWarning size={22} />,
  error: <IconError size={22} />,
  loading: <IconSpinner size={22} />,
  toast: null,
};

const isUrgent = (toast: Toast) => toast.type === 'error' || toast.type === 'warning';

function ToastView({ toast, onClose }: { toast: Toast; onClose: (id: number) => void }) {
  const icon = toast.prefix ?? typeIcon[toast.type];
  const style: CSSProperties | undefined =
    toast.top !== null ? { top: `${toast.top}px`, transform: 'translateX(-50%)' } : undefined;
  return (
    <div
      className={`toast toast--${toast.type}${icon ? ' toast--with-icon' : ''}`}
      style={style}
      aria-busy={toast.type === 'loading' || undefined}
      data-toast-type={toast.type}
    >
      {icon ? <span className="toast__icon">{icon}</span> : null}
      <span className="toast__message">{toast.message}</span>
      {toast.closable ? (
        <button type="button" className="toast__close" aria-label="关闭提示" onClick={() => onClose(toast.id)}>
          <IconClose size={16} />
        </button>
      ) : null}
    </div>
  );
}

/**
 * Renders the single current toast. Both live regions are always in the document so
 * screen readers announce each new message; errors and warnings are announced assertively.
 * While a modal is open they live inside it: everything outside a modal is inert and under it.
 */
export function ToastHost() {
  const current = useToastStore((s) => s.current);
  const close = useToastStore((s) => s.close);
  const modal = useModalStack(selectInnermostModal);
  const regions = (
    <>
      <div className="toast-region" role="status" aria-live="polite" aria-atomic="true">
        {current && !isUrgent(current) ? <ToastView key={current.id} toast={current} onClose={close} /> : null}
      </div>
      <div className="toast-region" role="alert" aria-live="assertive" aria-atomic="true">
        {current && isUrgent(current) ? <ToastView key={current.id} toast={current} onClose={close} /> : null}
      </div>
    </>
  );
  return modal ? createPortal(regions, modal) : regions;
}
