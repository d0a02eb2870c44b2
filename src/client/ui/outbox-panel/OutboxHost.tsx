/**
 * The one write path as the user sees it (ui/outbox-panel/: 待发送 N and its list); the writes
 * are stored and sent by lib/write-queue/, and made and settled by entities/outbox/.
 */
import { useOutbox, writesOf } from '../../lib/write-queue/store.ts';
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
