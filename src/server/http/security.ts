/**
 * What every answer carries and what no request may do, whatever the route:
 *
 * - Headers: nosniff, a strict referrer policy, same-origin framing; HSTS when the ticket
 *   cookie is Secure (SECURE_COOKIES, i.e. served over HTTPS); an HTML answer without a
 *   policy of its own (the page and the API docs have theirs) gets a closed one, so that no
 *   HTML we answer can be framed or run anything.
 * - CSRF: a write authenticated by the ticket cookie must come from this origin: its
 *   Sec-Fetch-Site is same-origin (or none), else its Origin (else its Referer) names this
 *   host; and its body is JSON (application/json, or the note call's base64 body, whose
 *   marking header no cross-site form can send), or multipart for the image upload. A
 *   cross-site form or a text/plain POST is refused before its body is read. Calls that
 *   carry the ticket as Ticket + Device-Id headers cannot be sent by another site (custom
 *   headers need a CORS preflight, which this server never grants).
 * - No public source maps: *.map answers 404, whatever the build left in the client folder.
 * - Errors Node's HTTP parser answers before Fastify sees the request (headers over 16 KiB,
 *   which an over-long URL is too; a malformed request) answer the envelope as well.
 * - Log lines never carry a secret: http/log-redaction.ts.
 */
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { routes, BASE64_BODY_HEADER, BASE64_BODY_VALUE, DEVICE_ID_HEADER, OTHER_PATHS, TICKET_COOKIE, TICKET_HEADER } from '#shared/endpoints.ts';
import { fail } from '#shared/envelope.ts';
import { ErrorCode } from '#shared/errors.ts';
import type { Config } from '../config.ts';
import { BusinessError, badRequest } from '../errors.ts';

/** One year, subdomains included: set only where the site is served over HTTPS. */
export const STRICT_TRANSPORT_SECURITY = 'max-age=31536000; includeSubDomains';

/** For any HTML answer that has no policy of its own: nothing runs, nothing loads, nobody frames it. */
export const CLOSED_CONTENT_SECURITY_POLICY = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/**
 * The API docs (Swagger UI at /docs): its scripts and styles are files of this origin, its
 * inline styles are style attributes, it fetches the OpenAPI JSON from here and shows data:
 * icons. Framed by this origin only, like the app.
 */
export const DOCS_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'self'",
].join('; ');

/** Paths of the calls that change something (the route table's writes and the image upload). */
const WRITE_PATHS = new Set<string>([
  ...Object.values(routes)
    .filter((route) => route.kind === 'write' && route.method === 'POST')
    .map((route) => route.path),
  OTHER_PATHS.uploadImage,
]);

/** Whether the ticket this request would be authenticated with comes from the cookie. */
function authenticatedByCookie(request: FastifyRequest): boolean {
  if (request.headers[TICKET_HEADER] && request.headers[DEVICE_ID_HEADER]) return false;
  return !!request.cookies?.[TICKET_COOKIE];
}

/** Whether `url` (an Origin or a Referer) is of this host, default ports counted as absent. */
const sameHost = (url: string, host: string) => {
  try {
    const given = new URL(url);
    return given.host === new URL(`${given.protocol}//${host}`).host;
  } catch {
    return false;
  }
};

/** Why a cookie-authenticated write is refused as cross-site, or null when it comes from this origin. */
export function crossSiteReason(request: FastifyRequest): string | null {
  const site = request.headers['sec-fetch-site'];
  if (typeof site === 'string') return site === 'same-origin' || site === 'none' ? null : `Sec-Fetch-Site: ${site}`;
  const origin = request.headers.origin;
  if (typeof origin === 'string') return sameHost(origin, request.host) ? null : `Origin: ${origin}`;
  const referer = request.headers.referer;
  if (typeof referer === 'string') return sameHost(referer, request.host) ? null : 'Referer';
  // No browser sends a cross-site POST without one of the three: a native client or a script.
  return null;
}

function isJsonBody(request: FastifyRequest): boolean {
  const type = String(request.headers['content-type'] ?? '')
    .split(';')[0]!
    .trim()
    .toLowerCase();
  if (request.routeOptions.url === OTHER_PATHS.uploadImage) return type === 'multipart/form-data';
  return type === 'application/json' || request.headers[BASE64_BODY_HEADER] === BASE64_BODY_VALUE;
}

/**
 * Writes an error envelope straight to a socket and closes it: for answers given before (or
 * instead of) Fastify seeing a request.
 */
export function answerOnSocket(socket: Socket, status: number, statusText: string, code: number, msg: string, retryAfterSeconds?: number): void {
  const body = JSON.stringify(fail(code, msg));
  const retryAfter = retryAfterSeconds === undefined ? '' : `Retry-After: ${retryAfterSeconds}\r\n`;
  if (socket.writable) {
    socket.end(
      `HTTP/1.1 ${status} ${statusText}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${retryAfter}Connection: close\r\n\r\n${body}`,
    );
  }
}

/** Answers of Node's HTTP parser, in the envelope (Fastify's clientErrorHandler). */
export function answerClientError(error: NodeJS.ErrnoException & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, text, msg] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', '请求头或地址过长']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', '请求超时，请重试']
        : [400, 'Bad Request', '请求格式不正确'];
  answerOnSocket(socket, status, text, ErrorCode.BadRequest, msg);
  socket.destroy(error);
}

export function installWebSecurity(app: FastifyInstance, config: Pick<Config, 'secureCookies'>): void {
  app.addHook('onRequest', async (request, reply) => {
    const path = request.url.split('?')[0]!;
    if (path.endsWith('.map')) {
      return reply.status(404).send(fail(ErrorCode.NotFound, `文件不存在：${path.slice(0, 200)}`));
    }
    if (request.method === 'POST' && WRITE_PATHS.has(request.routeOptions.url ?? '') && authenticatedByCookie(request)) {
      if (crossSiteReason(request) !== null) throw new BusinessError(ErrorCode.Forbidden, '请求来源不被允许：请在本站页面内操作');
      if (!isJsonBody(request)) {
        // The upload answers what it answers for any unusable upload (-1007).
        if (request.routeOptions.url === OTHER_PATHS.uploadImage) throw new BusinessError(ErrorCode.BadUpload, '请用 multipart/form-data 上传图片（字段 file）');
        throw badRequest('请以 application/json 发送请求');
      }
    }
    return undefined;
  });

  app.addHook('onSend', async (_request, reply) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'strict-origin-when-cross-origin');
    reply.header('x-frame-options', 'SAMEORIGIN');
    if (config.secureCookies) reply.header('strict-transport-security', STRICT_TRANSPORT_SECURITY);
    const type = String(reply.getHeader('content-type') ?? '');
    if (type.startsWith('text/html') && !reply.hasHeader('content-security-policy')) {
      reply.header('content-security-policy', CLOSED_CONTENT_SECURITY_POLICY);
    }
  });
}
