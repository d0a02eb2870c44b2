/** The tracking collector: batches of events the client sends. */
import { defineHandlers } from '../http/define-endpoint.ts';
import { recordEvents } from '../services/tracking.ts';
import type { RouteDeps } from './deps.ts';

export const trackingHandlers = ({ db, config }: RouteDeps) =>
  defineHandlers({
    collect: async ({ input, viewer, request }) => ({
      accepted: await recordEvents(db, viewer?.userId ?? null, { appId: input.app_id, logStore: input.log_store }, input.events, {
        address: request.ip,
        bytesPerHour: config.collectBytesPerAddressPerHour,
      }),
    }),
  });
