/**
 * Registers one contract endpoint: the shared zod input validates the body (or query), the
 * output shapes the OpenAPI docs and checks every answer given as data, and the handler returns
 * only data (or, for reads of posts, its JSON text: services/json-text.ts, held to the same schema by
 * tests); wrapping it in the envelope happens here, once.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Api, Endpoint } from '#shared/api.ts';
import type { EndpointName } from '#shared/endpoints.ts';
import { ok } from '#shared/envelope.ts';
import { notLoggedIn } from '../errors.ts';
import { StaleTicket } from '../services/sessions.ts';
import type { Viewer } from './auth.ts';
import { JsonText } from '../services/json-text.ts';

/** What Fastify names a JSON answer it writes itself. */
const JSON_TYPE = 'application/json; charset=utf-8';

export const errorEnvelopeSchema = z.object({
  code: z.literal(-1),
  error: z.object({ code: z.number().int(), msg: z.string() }),
});

export function envelopeSchema<T extends z.ZodType>(data: T) {
  return z.union([z.object({ code: z.literal(0), data }), errorEnvelopeSchema]);
}

export interface HandlerContext<E extends Endpoint, V> {
  input: z.output<E['input']>;
  viewer: V;
  request: FastifyRequest;
  reply: FastifyReply;
}

type ViewerFor<E extends Endpoint> = E['auth'] extends 'required' ? Viewer : Viewer | null;

/** What answers one endpoint: its input (validated), the caller, and the data to send (or its JSON text: services/json-text.ts). */
export type EndpointHandler<E extends Endpoint> = (
  ctx: HandlerContext<E, ViewerFor<E>>,
) => Promise<z.input<E['output']> | JsonText<z.input<E['output']>>>;

/** The handler of the contract call `K` (src/shared/endpoints.ts and api.ts). */
export type Handler<K extends EndpointName> = EndpointHandler<Api[K]>;

/**
 * Types a group of handlers by their names (each handler's input, viewer and output come from
 * its name): `defineHandlers({ channelDetail: ({ input }) => ... })`.
 */
export function defineHandlers<K extends EndpointName>(handlers: { [P in K]: Handler<P> }): { [P in K]: Handler<P> } {
  return handlers;
}

export function defineEndpoint<E extends Endpoint>(app: FastifyInstance, endpoint: E, handler: EndpointHandler<E>): void {
  const inputKey = endpoint.method === 'GET' ? 'querystring' : 'body';
  app.withTypeProvider<ZodTypeProvider>().route({
    method: endpoint.method,
    url: endpoint.path,
    schema: {
      tags: [endpoint.tag],
      summary: endpoint.summary,
      ...(endpoint.auth === 'required' ? { security: [{ ticketCookie: [] }, { ticketHeader: [] }] } : {}),
      [inputKey]: endpoint.input,
      response: { 200: envelopeSchema(endpoint.output) },
    },
    // A visitor's call that needs a login is answered before its body is validated: the body's
    // checks (its text counted) are work done only for someone who may make the call.
    ...(endpoint.auth === 'required'
      ? {
          preValidation: async (request: FastifyRequest) => {
            if (!(await request.resolveViewer())) throw notLoggedIn();
          },
        }
      : {}),
    handler: async (request, reply) => {
      // Calls that answer everyone alike skip the ticket lookup (one query saved per call).
      const viewer = endpoint.auth === 'none' ? null : await request.resolveViewer();
      if (endpoint.auth === 'required' && !viewer) throw notLoggedIn();
      const input = (inputKey === 'body' ? request.body : request.query) as z.output<E['input']>;
      let data: Awaited<ReturnType<EndpointHandler<E>>>;
      try {
        data = await handler({ input, viewer: viewer as ViewerFor<E>, request, reply });
      } catch (error) {
        // The ticket a viewer was remembered by is no longer live: answered as a fresh lookup finds the caller.
        if (!(error instanceof StaleTicket)) throw error;
        const fresh = await request.resolveViewerAfresh();
        if (endpoint.auth === 'required' && !fresh) throw notLoggedIn();
        data = await handler({ input, viewer: fresh as ViewerFor<E>, request, reply });
      }
      // A string with a JSON type is sent as it is: Fastify serializes only objects.
      if (data instanceof JsonText) return reply.type(JSON_TYPE).send(`{"code":0,"data":${data.text}}` as never);
      return ok(data);
    },
  });
}
