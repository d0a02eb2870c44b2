/** The account and university services: phone login, tickets, the login user. */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { api } from '#shared/api.ts';
import { OTHER_PATHS, TICKET_COOKIE } from '#shared/endpoints.ts';
import { eq } from 'drizzle-orm';
import { users } from '../db/schema.ts';
import { notLoggedIn } from '../errors.ts';
import { defineEndpoint } from '../http/define-endpoint.ts';
import { login, loginUserById, requestLoginCode, type CodeSender } from '../services/login.ts';
import { endTicket, TICKET_TTL_MS } from '../services/sessions.ts';
import type { RouteDeps } from './deps.ts';

/** The smallest transparent GIF: the answer of the image-style ticket delete call. */
const PIXEL_GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

export async function accountRoutes(app: FastifyInstance, { db, config, codeSender }: RouteDeps & { codeSender: CodeSender }) {
  const setTicketCookie = (reply: FastifyReply, ticket: string) =>
    reply.setCookie(TICKET_COOKIE, ticket, {
      httpOnly: true,
      sameSite: 'lax',
      secure: config.secureCookies,
      path: '/',
      maxAge: TICKET_TTL_MS / 1000,
    });
  const clearTicketCookie = (reply: FastifyReply) =>
    reply.clearCookie(TICKET_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure: config.secureCookies });

  defineEndpoint(app, api.loginCode, ({ input, request }) =>
    requestLoginCode(db, codeSender, {
      cellphone: input.cellphone,
      ip: request.ip,
      resendSeconds: config.loginCodeResendSeconds,
    }),
  );

  defineEndpoint(app, api.login, async ({ input, reply }) => {
    const result = await login(db, {
      cellphone: input.cellphone,
      code: input.code,
      deviceKind: input.device_kind,
      deviceId: input.device_id,
    });
    setTicketCookie(reply, result.ticket);
    return result;
  });

  defineEndpoint(app, api.logout, async ({ request, reply }) => {
    const ticket = request.ticket();
    if (ticket) await endTicket(db, ticket, 'logout');
    clearTicketCookie(reply);
    return {};
  });

  defineEndpoint(app, api.auth, async ({ viewer }) => {
    if (!viewer) throw notLoggedIn();
    return loginUserById(db, viewer.userId);
  });

  defineEndpoint(app, api.checkUser, async ({ viewer }) => {
    const [row] = await db.select({ isUniversity: users.isUniversity }).from(users).where(eq(users.id, viewer.userId));
    return { result: row?.isUniversity ?? false };
  });

  app.withTypeProvider<ZodTypeProvider>().get(
    OTHER_PATHS.ticketDelete,
    {
      schema: {
        tags: ['account'],
        summary: 'Image-style call after a 452: ends the ticket, always answers a 1x1 GIF',
        querystring: z.object({ ticket: z.string().max(200).optional() }),
      },
      // A malformed query must still answer an image: the caller is an <img>.
      errorHandler: (_error, _request, reply) => reply.header('content-type', 'image/gif').send(PIXEL_GIF),
    },
    async (request, reply) => {
      const ticket = request.query.ticket || request.ticket();
      if (ticket) await endTicket(db, ticket, 'deleted');
      clearTicketCookie(reply);
      return reply.header('content-type', 'image/gif').header('cache-control', 'no-store').send(PIXEL_GIF);
    },
  );
}
