/** The misc service (WeChat share signature) and the tracking collector. */
import { defineHandlers } from '../http/define-endpoint.ts';
import { recordEvents } from '../services/tracking.ts';
import { signShareUrl } from '../services/wechat.ts';
import type { RouteDeps } from './deps.ts';

export const miscHandlers = ({ db, config }: RouteDeps) =>
  defineHandlers({
    wxShareSign: async ({ input }) =>
      signShareUrl({ appId: config.wechatAppId, jsapiTicket: config.wechatJsapiTicket, url: input.url }),

    collect: async ({ input, viewer, request }) => ({
      accepted: await recordEvents(db, viewer?.userId ?? null, { appId: input.app_id, logStore: input.log_store }, input.events, {
        address: request.ip,
        bytesPerHour: config.collectBytesPerAddressPerHour,
      }),
    }),
  });
