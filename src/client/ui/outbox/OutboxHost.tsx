import { useOutbox } from '../../lib/outbox/store.ts';
import { LazyLayer, lazyComponent } from '../LazyLayer.tsx';

const OutboxPanel = lazyComponent(() => import('./OutboxPanel.tsx'));

/** 待发送 N while writes wait in the outbox (issue 9); its code comes when they do. */
export function OutboxHost() {
  return useOutbox((s) => s.items.some((item) => !s.trying.includes(item.id) && (s.viewer == null || item.uid === s.viewer))) ? (
    <LazyLayer>
      <OutboxPanel />
    </LazyLayer>
  ) : null;
}
