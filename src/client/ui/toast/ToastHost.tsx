import { createPortal } from 'react-dom';
import { LazyLayer, lazyComponent } from '../LazyLayer.tsx';
import { selectInnermostModal, useModalStack } from '../overlay/modal-stack.ts';
import { useToastStore, type Toast } from './toast-store.ts';
import './toast.css';

// A visit with nothing to say carries no toast: its code comes with the first one.
const ToastView = lazyComponent(() => import('./ToastView.tsx'));

const isUrgent = (toast: Toast) => toast.type === 'error' || toast.type === 'warning';

/**
 * The toast. Its words show at once, and alone while its code loads or where it cannot load
 * (offline without a service worker, a deploy removed it): a toast lasts a moment from when it is
 * asked for, and the first of a visit on a slow device would otherwise end before its code came.
 */
function ShownToast({ toast, onClose }: { toast: Toast; onClose: (id: number) => void }) {
  const words = (
    <div className={`toast toast--${toast.type}`} data-toast-type={toast.type}>
      <span className="toast__message">{toast.message}</span>
    </div>
  );
  return (
    <LazyLayer failed={words} loading={words}>
      <ToastView toast={toast} onClose={onClose} />
    </LazyLayer>
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
        {current && !isUrgent(current) ? <ShownToast key={current.id} toast={current} onClose={close} /> : null}
      </div>
      <div className="toast-region" role="alert" aria-live="assertive" aria-atomic="true">
        {current && isUrgent(current) ? <ShownToast key={current.id} toast={current} onClose={close} /> : null}
      </div>
    </>
  );
  return modal ? createPortal(regions, modal) : regions;
}
