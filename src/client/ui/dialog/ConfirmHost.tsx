import { LazyLayer, lazyComponent } from '../LazyLayer.tsx';
import { useConfirmStore } from './confirm-store.ts';

const ConfirmView = lazyComponent(() => import('./ConfirmView.tsx'));

/** The confirm dialog, whose code loads when it first opens. */
export function ConfirmHost() {
  const current = useConfirmStore((s) => s.current);
  const settle = useConfirmStore((s) => s.settle);
  if (!current) return null;
  return (
    <LazyLayer onError={() => settle(false)}>
      <ConfirmView key={current.id} current={current} settle={settle} />
    </LazyLayer>
  );
}
