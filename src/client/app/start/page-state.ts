import type { QueryClient } from '@tanstack/react-query';
import { clientMessages } from '#shared/errors.ts';
import { followOnline } from '../../lib/query-client.ts';
import { startLayoutTracking, useLayoutStore } from '../../platform/layout-store.ts';
import { onlineSource, reportWorkerNetworkStatus, startOnlineTracking } from '../../platform/online-store.ts';
import { registerServiceWorker } from '../../platform/pwa.ts';
import { suppressDoubleTap } from '../../ui/double-tap.ts';
import { toast } from '../../ui/toast/toast-store.ts';
import { keepInstallOffer, useAppOffers } from '../layout/app-offers.ts';

/**
 * What the app follows of the device and the page from the start: the layout (on <html
 * data-layout>), online or not, the service worker and its updates, the install offer.
 */
export function followPageState(queryClient: QueryClient): void {
  startLayoutTracking();
  startOnlineTracking();
  // 网络异常: a toast once each time the network is lost, never one per failed request; the banner
  // (layout/OfflineBanner.tsx) stays while it lasts.
  followOnline(queryClient, onlineSource, () => toast.warning(clientMessages.offline));
  suppressDoubleTap();
  document.documentElement.dataset.layout = useLayoutStore.getState().isMobile ? 'mobile' : 'pc';
  useLayoutStore.subscribe((state) => {
    document.documentElement.dataset.layout = state.isMobile ? 'mobile' : 'pc';
  });

  registerServiceWorker({
    onNetworkStatus: reportWorkerNetworkStatus,
    onUpdateReady: (applyUpdate) => useAppOffers.setState({ applyUpdate, updateDismissed: false }),
  });
  keepInstallOffer();
}
