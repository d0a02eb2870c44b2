/** Web Push: the server's public key, and the login user's subscription of this device (services/push.ts). */
import { defineHandlers } from '../http/define-endpoint.ts';
import { subscribePush, unsubscribePush } from '../services/push.ts';
import type { RouteDeps } from './deps.ts';

export const pushHandlers = ({ db, config, push }: RouteDeps) =>
  defineHandlers({
    pushKey: () => push.publicKey(),
    pushSubscribe: ({ input, viewer }) => subscribePush(db, viewer, input, config.pushServiceHosts),
    pushUnsubscribe: ({ input, viewer }) => unsubscribePush(db, viewer.userId, input.endpoint),
  });
