import { LazyLayer, lazyComponent } from '../../../ui/LazyLayer.tsx';
import { useLoginDialogStore } from '../login-store.ts';

const LoginPanel = lazyComponent(() => import('./LoginPanel.tsx'));

/** The phone login popup: its code loads when it first opens. */
export function LoginDialog() {
  const open = useLoginDialogStore((s) => s.open);
  const close = useLoginDialogStore((s) => s.close);
  if (!open) return null;
  return (
    <LazyLayer onError={close}>
      <LoginPanel />
    </LazyLayer>
  );
}
