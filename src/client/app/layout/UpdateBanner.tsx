import { useAppOffers } from './app-offers.ts';

/** A new version is ready: one tap reloads into it. */
export default function UpdateBanner() {
  const apply = useAppOffers((s) => s.applyUpdate);
  const dismissed = useAppOffers((s) => s.updateDismissed);
  if (!apply || dismissed) return null;
  return (
    <div className="status-banner status-banner--update" role="status">
      <span>有新版本</span>
      <button type="button" className="button button--text" onClick={apply}>
        刷新
      </button>
      <button type="button" className="button button--text status-banner__dismiss" onClick={() => useAppOffers.setState({ updateDismissed: true })}>
        稍后
      </button>
    </div>
  );
}
