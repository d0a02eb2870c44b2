import { useEffect, useLayoutEffect } from 'react';
import { createPortal } from 'react-dom';
import { LazyLayer, lazyComponent } from '../LazyLayer.tsx';
import { selectInnermostModal, useModalStack } from '../overlay/modal-stack.ts';
import { useToastStore, type Toast } from './toast-store.ts';
import './toast.css';

// A visit with nothing to say carries no toast: its code comes with the first one.
const ToastView = lazyComponent(() => import('./ToastView.tsx'));

/** The toast's words alone, where the code of its view did not load. */
function ToastWords({ toast }: { toast: Toast }) {
  useEffect(() => useToastStore.getState().shown(toast.id), [toast.id]);
  return (
    <div className={`toast toast--${toast.type}`} data-toast-type={toast.type}>
      <span className="toast__message">{toast.message}</span>
    </div>
  );
}

const isUrgent = (toast: Toast) => toast.type === 'error' || toast.type === 'warning';

/**
 * The toast; where its code cannot load (offline without a service worker, a deploy removed it),
 * its words alone. While that code loads (the first toast of a visit) its time waits: on a slow
 * device the toast would otherwise end before it was ever seen.
 */
function ShownToast({ toast, onClose }: { toast: Toast; onClose: (id: number) => void }) {
  useLayoutEffect(() => {
    if (ToastView.pending()) useToastStore.getState().hold(toast.id);
  }, [toast.id]);
  return (
    <LazyLayer failed={<ToastWords toast={toast} />}>
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
