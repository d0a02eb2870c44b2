import { useOutbox, writesOf } from '../../lib/outbox/store.ts';
import { LazyLayer, lazyComponent } from '../LazyLayer.tsx';

const OutboxPanel = lazyComponent(() => import('./OutboxPanel.tsx'));

/** 待发送 N while writes wait in the outbox; its code comes when they do. */
export function OutboxHost() {
  return useOutbox((s) => writesOf(s.items, s.viewer).some((item) => !s.trying.includes(item.id))) ? (
    <LazyLayer>
      <OutboxPanel />
    </LazyLayer>
  ) : null;
}
