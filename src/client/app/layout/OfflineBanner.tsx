import { useRouterState } from '@tanstack/react-router';
import { useEffect } from 'react';
import { clientMessages } from '#shared/errors.ts';
import { probeNetwork, startNetworkProbe } from '../../platform/network-probe.ts';
import { useOnlineStore } from '../../platform/online-store.ts';
import { IconOffline } from '../../ui/icons-secondary.tsx';
import { toast } from '../../ui/toast/toast-store.ts';

/**
 * While the network is down, a slim 网络异常 banner. It says cached content is shown only when the
 * page shows some (every part of it loaded), never over an error or a skeleton. While it shows, a
 * probe notices the network coming back when no event says so; 重试 asks at once. It floats over
 * the page, taking no room from it (layout.css).
 */
export default function OfflineBanner() {
  const online = useOnlineStore((s) => s.online);
  const showsCached = useRouterState({ select: (s) => s.matches.every((match) => match.status === 'success') });
  useEffect(() => startNetworkProbe(() => useOnlineStore.getState().setOnline(true)), []);
  if (online) return null;
  const retry = () =>
    void probeNetwork().then((answered) => (answered ? useOnlineStore.getState().setOnline(true) : toast.info('网络仍未连接，恢复后会自动刷新')));
  return (
    <div className="status-banner status-banner--offline" role="status">
      <IconOffline size={16} />
      <span>{clientMessages.offline}</span>
      {showsCached ? <span className="status-banner__hint">，已为你显示缓存内容</span> : null}
      <button type="button" className="button button--text button--small status-banner__retry" onClick={retry}>
        重试
      </button>
    </div>
  );
}
