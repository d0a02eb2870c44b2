/**
 * The feed's first page inside the page of a navigation to /home (src/shared/first-screen.ts).
 * It is read through the API itself (inject, with the navigation's cookie, address and agent),
 * so it is exactly what the client's own first call would answer: the same viewer (likes and
 * votes), limits, serializer and errors. Anything but a prompt success leaves the page as it
 * is, and the client then calls as before: a first screen is never slower than without it.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { endpoints } from '#shared/endpoints.ts';
import { FIRST_FEED_PAGE_ELEMENT_ID, FIRST_FEED_PAGE_INPUT, FIRST_FEED_PAGE_PATHS } from '#shared/first-screen.ts';
import { jsonTextForScript } from './client-page.ts';

/** Longer than a healthy read takes (a few ms), short enough that a slow database costs little. */
export const FIRST_FEED_PAGE_WAIT_MS = 400;

export function carriesFirstFeedPage(request: FastifyRequest): boolean {
  return request.method === 'GET' && FIRST_FEED_PAGE_PATHS.includes(request.url.split('?')[0] ?? '');
}

/** The <script type="application/json"> element with channel/posts's answer, or '' when there is none to give. */
export async function firstFeedPageElement(app: FastifyInstance, request: FastifyRequest): Promise<string> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  for (const name of ['cookie', 'user-agent'] as const) {
    const value = request.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  let timer: NodeJS.Timeout | undefined;
  const answer = await Promise.race([
    app.inject({
      method: 'POST',
      url: endpoints.channelPosts.path,
      headers,
      remoteAddress: request.ip,
      payload: JSON.stringify(FIRST_FEED_PAGE_INPUT),
    }),
    new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), FIRST_FEED_PAGE_WAIT_MS))),
  ]).catch((error: unknown) => {
    request.log.warn({ err: error }, 'the first feed page could not be read for the page');
    return undefined;
  });
  clearTimeout(timer);
  if (answer?.statusCode !== 200 || (JSON.parse(answer.body) as { code?: unknown }).code !== 0) return '';
  return `<script id="${FIRST_FEED_PAGE_ELEMENT_ID}" type="application/json">${jsonTextForScript(answer.body)}</script>`;
}
