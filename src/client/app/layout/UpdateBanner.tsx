import { useUpdateStore } from './update-store.ts';

/** A new version is ready: one tap reloads into it. */
export default function UpdateBanner() {
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
