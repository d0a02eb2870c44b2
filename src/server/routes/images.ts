/** OTHER_PATHS.images: stored images by id, cached for a year (ids never change content). */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { OTHER_PATHS } from '#shared/endpoints.ts';
import { getImage } from '../services/images.ts';
import type { RouteDeps } from './deps.ts';

export async function imageRoute(app: FastifyInstance, { db }: RouteDeps) {
  app.withTypeProvider<ZodTypeProvider>().get(
    `${OTHER_PATHS.images}/:id`,
    { schema: { hide: true, params: z.object({ id: z.string().min(1).max(64) }) } },
    async (request, reply) => {
      const image = await getImage(db, request.params.id);
      return reply
        .header('content-type', image.mime)
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
        .send(image.bytes);
    },
  );
}
