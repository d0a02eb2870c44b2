import { clientMessages } from '#shared/errors.ts';
import { useOnlineStore } from '../../platform/online-store.ts';
import { IconOffline } from '../../ui/icons.tsx';
import { useUpdateStore } from './update-store.ts';

/** SPEC.md section 4: while the network is down, a slim 网络异常 banner. */
export function OfflineBanner() {
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

/** A new version is ready: one tap reloads into it. */
export function UpdateBanner() {
  const apply = useUpdateStore((s) => s.apply);
  const dismissed = useUpdateStore((s) => s.dismissed);
  const dismiss = useUpdateStore((s) => s.dismiss);
  if (!apply || dismissed) return null;
  return (
    <div className="status-banner status-banner--update" role="status">
      <span>有新版本</span>
      <button type="button" className="button button--text" onClick={apply}>
        刷新
      </button>
      <button type="button" className="button button--text status-banner__dismiss" onClick={dismiss}>
        稍后
      </button>
    </div>
  );
}
