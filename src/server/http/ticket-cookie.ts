/**
 * The browser's ticket cookie, and the logout a browser made while the server could not hear it.
 *
 * A logout is final on the device the moment the user chooses it, online or not: the page sets the
 * readable LOGOUT_PENDING_COOKIE beside the httpOnly ticket it cannot touch. Whatever request of
 * that browser next reaches any process (a page, an API call, the service worker's fetch, an
 * image) ends the ticket before anything else reads it, is served as a visitor's, and clears both
 * cookies. So nothing is ever done as the user after they logged out, from any tab, after a reload
 * or a restart of the browser.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LOGOUT_PENDING_COOKIE, TICKET_COOKIE } from '#shared/endpoints.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { endTicket, TICKET_TTL_MS } from '../services/sessions.ts';

const ticketCookieOptions = (config: Pick<Config, 'secureCookies'>) => ({ path: '/', httpOnly: true, sameSite: 'lax', secure: config.secureCookies }) as const;

export function setTicketCookie(config: Pick<Config, 'secureCookies'>, reply: FastifyReply, ticket: string): void {
  reply.setCookie(TICKET_COOKIE, ticket, { ...ticketCookieOptions(config), maxAge: TICKET_TTL_MS / 1000 });
}

export function clearTicketCookie(config: Pick<Config, 'secureCookies'>, reply: FastifyReply): void {
  reply.clearCookie(TICKET_COOKIE, ticketCookieOptions(config));
}

/** The request's Cookie header without the ticket and the marker (the first screen's reads pass it on). */
function cookieHeaderWithout(header: string, names: readonly string[]): string {
  return header
    .split(';')
    .filter((pair) => !names.includes(pair.split('=', 1)[0]!.trim()))
    .join(';')
    .trim();
}

async function endPendingLogout(db: Db, config: Pick<Config, 'secureCookies'>, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const ticket = request.cookies[TICKET_COOKIE];
  if (ticket) await endTicket(db, ticket, 'logout');
  delete request.cookies[TICKET_COOKIE];
  delete request.cookies[LOGOUT_PENDING_COOKIE];
  const rest = cookieHeaderWithout(request.headers.cookie ?? '', [TICKET_COOKIE, LOGOUT_PENDING_COOKIE]);
  if (rest) request.headers.cookie = rest;
  else delete request.headers.cookie;
  if (ticket) clearTicketCookie(config, reply);
  reply.clearCookie(LOGOUT_PENDING_COOKIE, { path: '/', sameSite: 'lax', secure: config.secureCookies });
}

/** Before anything reads who is calling: a logout the browser made meanwhile ends its ticket first. */
export function installPendingLogout(app: FastifyInstance, db: Db, config: Pick<Config, 'secureCookies'>): void {
  app.addHook('onRequest', async (request, reply) => {
    if (request.cookies[LOGOUT_PENDING_COOKIE] !== undefined) await endPendingLogout(db, config, request, reply);
  });
}
