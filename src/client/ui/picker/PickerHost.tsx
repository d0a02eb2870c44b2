import { LazyLayer, lazyComponent } from '../LazyLayer.tsx';
import { usePickerStore } from './picker-store.ts';

const PickerView = lazyComponent(() => import('./PickerView.tsx'));

/** The bottom picker, whose code loads when it first opens. */
export function PickerHost() {
  const current = usePickerStore((s) => s.current);
  const settle = usePickerStore((s) => s.settle);
  if (!current) return null;
  return (
    <LazyLayer onError={() => settle(null)}>
      <PickerView key={current.id} current={current} choose={settle} />
    </LazyLayer>
  );
}
