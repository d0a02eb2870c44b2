/** A toast: its icon, its message and, when it may be closed, 关闭提示 (ToastHost.tsx shows it). */
import { useEffect, type CSSProperties, type ReactNode } from 'react';
import { IconSpinner } from '../icons.tsx';
import { IconCheck, IconClose, IconError, IconInfo, IconWarning } from '../icons-secondary.tsx';
import { useToastStore, type Toast, type ToastType } from './toast-store.ts';

const typeIcon: Record<ToastType, ReactNode> = {
  info: <IconInfo size={22} />,
  success: <IconCheck size={22} />,
  warning: <IconWarning size={22} />,
  error: <IconError size={22} />,
  loading: <IconSpinner size={22} />,
  toast: null,
};

export default function ToastView({ toast, onClose }: { toast: Toast; onClose: (id: number) => void }) {
  // On screen now: a toast held while this code loaded has its time from here (ToastHost.tsx).
  useEffect(() => useToastStore.getState().shown(toast.id), [toast.id]);
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
