/** The misc service (WeChat share signature) and the tracking collector. */
import type { FastifyInstance } from 'fastify';
import { api } from '#shared/api.ts';
import { trackingEvents } from '../db/schema.ts';
import { defineEndpoint } from '../http/define-endpoint.ts';
import { signShareUrl } from '../services/wechat.ts';
import type { RouteDeps } from './deps.ts';

export async function miscRoutes(app: FastifyInstance, { db, config }: RouteDeps) {
  defineEndpoint(app, api.wxShareSign, async ({ input }) =>
    signShareUrl({ appId: config.wechatAppId, jsapiTicket: config.wechatJsapiTicket, url: input.url }),
  );

  defineEndpoint(app, api.collect, async ({ input, viewer }) => {
    const now = Date.now();
    await db.insert(trackingEvents).values(
      input.events.map((event) => ({
        event: event.event,
        uid: viewer?.userId ?? null,
        properties: { ...event.properties, app_id: input.app_id },
        // A client clock far off is not trusted beyond a day.
        createdAt: new Date(event.time && Math.abs(event.time - now) < 86_400_000 ? event.time : now),
      })),
    );
    return { accepted: input.events.length };
  });
}
