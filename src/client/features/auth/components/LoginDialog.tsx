import { lazy, Suspense } from 'react';
import { useLoginDialogStore } from '../login-store.ts';

const LoginPanel = lazy(() => import('./LoginPanel.tsx'));

/** The phone login popup (SPEC.md section 6): its code loads when it first opens. */
export function LoginDialog() {
  const open = useLoginDialogStore((s) => s.open);
  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <LoginPanel />
    </Suspense>
  );
}
