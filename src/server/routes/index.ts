/**
 * Every call the server answers, in one map typed against the route table
 * (src/shared/endpoints.ts, schemas in src/shared/api.ts), plus the paths outside the JSON
 * contract (OTHER_PATHS). A name of the table is either answered by a handler here or listed
 * in NOT_YET_SERVED: adding a route to the table without either is a type error, and so is a
 * handler for a listed name. tests/api/contract.test.ts calls every entry and holds the list
 * to its word (listed names still answer 404).
 */
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { api, type Endpoint } from '#shared/api.ts';
import { OTHER_PATHS, routes, type EndpointName } from '#shared/endpoints.ts';
import { DOCS_CONTENT_SECURITY_POLICY } from '../http/security.ts';
import { defineEndpoint, type EndpointHandler, type Handler } from '../http/define-endpoint.ts';
import { accountHandlers, ticketDeleteRoute } from './account.ts';
import { booklistHandlers } from './booklists.ts';
import { channelHandlers } from './channels.ts';
import { complaintHandlers } from './complaints.ts';
import type { RouteDeps } from './deps.ts';
import { imageRoute, uploadImageRoute } from './images.ts';
import { liveRoute } from './live.ts';
import { moderationHandlers } from './moderation.ts';
import { noticeHandlers } from './notices.ts';
import { postHandlers } from './posts.ts';
import { pushHandlers } from './push.ts';
import { searchHandlers } from './search.ts';
import { siteContentHandlers } from './site-content.ts';
import { trackingHandlers } from './tracking.ts';
import { userHandlers } from './users.ts';
import { wechatShareHandlers } from './wechat-share.ts';

/** A path outside the JSON contract (multipart upload, images, the ticket-delete GIF, docs). */
export type OtherPathName = keyof typeof OTHER_PATHS;

/** Every name a client may call: the route table's and the other paths'. */
export type CallName = EndpointName | OtherPathName;

/**
 * Calls of the contract the server does not answer yet: each answers 404 接口不存在 until its
 * handler is written and it leaves this list. Never a stub that answers success. Empty: every
 * call of the table is served.
 */
export const NOT_YET_SERVED = [] as const satisfies readonly CallName[];

type NotYetServed = (typeof NOT_YET_SERVED)[number];

/** One handler per name of the route table, except the names not yet served (which may have none). */
export type HandlerMap = { [K in Exclude<EndpointName, NotYetServed>]: Handler<K> } & {
  [K in Extract<EndpointName, NotYetServed>]?: never;
};

/** Registers the route of one path outside the JSON contract. */
export type OtherRoute = (app: FastifyInstance, deps: RouteDeps) => Promise<void>;

export type OtherRouteMap = { [K in Exclude<OtherPathName, NotYetServed>]: OtherRoute } & {
  [K in Extract<OtherPathName, NotYetServed>]?: never;
};

/** THE map: every contract handler, grouped by resource (routes/*.ts), each thin over services/. */
export function contractHandlers(deps: RouteDeps): HandlerMap {
  return {
    ...accountHandlers(deps),
    ...channelHandlers(deps),
    ...userHandlers(deps),
    ...postHandlers(deps),
    ...complaintHandlers(deps),
    ...siteContentHandlers(deps),
    ...wechatShareHandlers(deps),
    ...trackingHandlers(deps),
    ...booklistHandlers(deps),
    ...noticeHandlers(deps),
    ...pushHandlers(deps),
    ...searchHandlers(deps),
    ...moderationHandlers(deps),
  };
}

const docsRoute: OtherRoute = async (app) => {
  await app.register(fastifySwaggerUi, { routePrefix: OTHER_PATHS.docs, staticCSP: DOCS_CONTENT_SECURITY_POLICY });
};

export const otherRoutes: OtherRouteMap = {
  ticketDelete: ticketDeleteRoute,
  images: imageRoute,
  uploadImage: uploadImageRoute,
  docs: docsRoute,
  live: liveRoute,
};

/** Registers every served call: validation, the envelope and OpenAPI come with defineEndpoint. */
export async function registerRoutes(app: FastifyInstance, deps: RouteDeps): Promise<void> {
  const handlers: Partial<Record<EndpointName, unknown>> = contractHandlers(deps);
  const notYetServed = new Set<string>(NOT_YET_SERVED);
  for (const name of Object.keys(routes) as EndpointName[]) {
    const handler = handlers[name];
    // The types rule both cases out; a cast somewhere must not turn them into a silent 404.
    if (notYetServed.has(name)) {
      if (handler) throw new Error(`${name} has a handler but is listed in NOT_YET_SERVED`);
      continue;
    }
    if (!handler) throw new Error(`no handler for ${name}: add one to the handler map or list it in NOT_YET_SERVED`);
    defineEndpoint(app, api[name] as Endpoint, handler as EndpointHandler<Endpoint>);
  }
  for (const route of Object.values(otherRoutes)) await route(app, deps);
}
