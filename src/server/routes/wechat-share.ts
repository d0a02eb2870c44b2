/** The WeChat share signature (the upstream's misc service, the OpenAPI tag misc). */
import { defineHandlers } from '../http/define-endpoint.ts';
import { signShareUrl } from '../services/wechat.ts';
import type { RouteDeps } from './deps.ts';

export const wechatShareHandlers = ({ config }: RouteDeps) =>
  defineHandlers({
    wxShareSign: async ({ input }) =>
      signShareUrl({ appId: config.wechatAppId, jsapiTicket: config.wechatJsapiTicket, url: input.url }),
  });
