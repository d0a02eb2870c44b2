/** The account and university services: phone login, tickets, the login user. */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { DEVICE_ID_HEADER, OTHER_PATHS, TICKET_COOKIE } from '#shared/endpoints.ts';
import { notLoggedIn } from '../errors.ts';
import { defineHandlers } from '../http/define-endpoint.ts';
import { crossSiteReason } from '../http/security.ts';
import { clearTicketCookie, setTicketCookie } from '../http/ticket-cookie.ts';
import { login, loginUserById, requestLoginCode } from '../services/login.ts';
import { endTicket, endTicketByImageCall, lookupTicket } from '../services/sessions.ts';
import { isUniversityUser } from '../services/users.ts';
import type { RouteDeps } from './deps.ts';

/** The smallest transparent GIF: the answer of the image-style ticket delete call. */
const PIXEL_GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

export const accountHandlers = ({ db, config, codeSender }: RouteDeps) =>
  defineHandlers({
    loginCode: ({ input, request }) =>
      requestLoginCode(db, codeSender, {
        cellphone: input.cellphone,
        ip: request.ip,
        resendSeconds: config.loginCodeResendSeconds,
        codesPerAddressPerHour: config.loginCodesPerAddressPerHour,
      }),

    // A browser's ticket travels only in the httpOnly cookie, out of reach of the page's
    // scripts. The mini-program and the native app send it as the Ticket header with their
    // Device-Id, and send that Device-Id with every call, this one too: they get the ticket in
    // the answer, bound to that device.
    login: async ({ input, request, reply }) => {
      const headerDevice = request.headers[DEVICE_ID_HEADER]?.toString().trim().slice(0, 64) || undefined;
      const { ticket, ...result } = await login(db, {
        cellphone: input.cellphone,
        code: input.code,
        deviceKind: input.device_kind,
        deviceId: headerDevice ?? input.device_id,
        via: headerDevice ? 'headers' : 'cookie',
      });
      setTicketCookie(config, reply, ticket);
      return headerDevice ? { ...result, ticket } : result;
    },

    logout: async ({ request, reply }) => {
      const ticket = request.ticket();
      if (ticket) await endTicket(db, ticket, 'logout');
      clearTicketCookie(config, reply);
      return {};
    },

    auth: async ({ viewer }) => {
      if (!viewer) throw notLoggedIn();
      return loginUserById(db, viewer.userId);
    },

    checkUser: async ({ viewer }) => ({ result: await isUniversityUser(db, viewer.userId) }),
  });

/** OTHER_PATHS.ticketDelete: the image-style call after a 452. */
export async function ticketDeleteRoute(app: FastifyInstance, { db, config }: RouteDeps) {
  app.withTypeProvider<ZodTypeProvider>().get(
    OTHER_PATHS.ticketDelete,
    {
      schema: {
        tags: ['account'],
        summary:
          'Image-style call after a 452: drops the ended ticket (a live one only when the query names it and the caller is its device); always answers a 1x1 GIF',
        querystring: z.object({ ticket: z.string().max(200).optional() }),
      },
      // A malformed query must still answer an image: the caller is an <img>.
      errorHandler: (_error, _request, reply) => reply.header('content-type', 'image/gif').send(PIXEL_GIF),
    },
    async (request, reply) => {
      const credentials = request.credentials();
      await endTicketByImageCall(db, request.query.ticket || undefined, {
        ticket: credentials?.ticket,
        deviceId: credentials?.via === 'headers' ? credentials.deviceId : request.headers[DEVICE_ID_HEADER]?.toString(),
        fromThisSite: crossSiteReason(request) === null,
      });
      // The cookie goes only when its ticket is no longer live: a GET from another site must
      // not log anyone out.
      const cookie = request.cookies[TICKET_COOKIE];
      if (cookie && (await lookupTicket(db, cookie)).state !== 'valid') clearTicketCookie(config, reply);
      return reply.header('content-type', 'image/gif').header('cache-control', 'no-store').send(PIXEL_GIF);
    },
  );
}
