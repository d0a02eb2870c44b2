/** /invite (邀请函): the invitation, leading to /invite/channelList (channel.tsx). */
import { createRoute } from '@tanstack/react-router';
import { PROVIDER_NAME } from '../platform/runtime-config.ts';
import { rootRoute } from './root.tsx';

export const inviteRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/invite',
  staticData: { title: `${PROVIDER_NAME}邀请函`, heading: `${PROVIDER_NAME}邀请函` },
}).lazy(() => import('./invite.lazy.tsx').then((m) => m.inviteLazyRoute));
