import { clientMessages } from '#shared/errors.ts';
import { useOnlineStore } from '../../platform/online-store.ts';
import { IconOffline } from '../../ui/icons.tsx';

/** SPEC.md section 4: while the network is down, a slim 网络异常 banner. */
export default function OfflineBanner() {
  const online = useOnlineStore((s) => s.online);
  if (online) return null;
  return (
    <div className="status-banner status-banner--offline" role="status">
      <IconOffline size={16} />
      <span>{clientMessages.offline}</span>
      <span className="status-banner__hint">，已为你显示缓存内容</span>
    </div>
  );
}
