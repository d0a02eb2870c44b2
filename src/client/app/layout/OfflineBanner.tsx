import { useRouterState } from '@tanstack/react-router';
import { useEffect } from 'react';
import { clientMessages } from '#shared/errors.ts';
import { startNetworkProbe } from '../../platform/network-probe.ts';
import { useOnlineStore } from '../../platform/online-store.ts';
import { IconOffline } from '../../ui/icons-secondary.tsx';

/**
 * SPEC.md section 4: while the network is down, a slim 网络异常 banner. It says cached content is
 * shown only when the page shows some (every part of it loaded), never over an error or a
 * skeleton. While it shows, a probe notices the network coming back when no event says so.
 */
export default function OfflineBanner() {
  const online = useOnlineStore((s) => s.online);
  const showsCached = useRouterState({ select: (s) => s.matches.every((match) => match.status === 'success') });
  useEffect(() => startNetworkProbe(() => useOnlineStore.getState().setOnline(true)), []);
  if (online) return null;
  return (
    <div className="status-banner status-banner--offline" role="status">
      <IconOffline size={16} />
      <span>{clientMessages.offline}</span>
      {showsCached ? <span className="status-banner__hint">，已为你显示缓存内容</span> : null}
    </div>
  );
}
