/** Web Push: the server's public key, and the login user's subscription of this device (services/push.ts). */
import { defineHandlers } from '../http/define-endpoint.ts';
import { writer } from '../services/once.ts';
import { subscribePush, unsubscribePush } from '../services/push.ts';
import type { RouteDeps } from './deps.ts';

export const pushHandlers = ({ db, config, push, onReplay }: RouteDeps) => {
  // Like every write of a logged-in user: counted against the write limit, refused while suspended, once per client_id.
  const write = writer(db, config, onReplay);
  return defineHandlers({
    pushKey: () => push.publicKey(),
    pushSubscribe: ({ input, viewer }) =>
      write({ endpoint: 'pushSubscribe', viewer, input }, (tx) => subscribePush(tx, viewer, input, config.pushServiceHosts)),
    pushUnsubscribe: ({ input, viewer }) => write({ endpoint: 'pushUnsubscribe', viewer, input }, (tx) => unsubscribePush(tx, viewer.userId, input.endpoint)),
  });
};
