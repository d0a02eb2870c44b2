/** Images live in the database, so any API process serves any image; ids never change content. */
import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { OTHER_PATHS } from '#shared/endpoints.ts';
import { images } from '../db/schema.ts';
import { ErrorCode } from '#shared/errors.ts';
import { BusinessError } from '../errors.ts';
import type { RouteDeps } from './deps.ts';

export async function imageRoutes(app: FastifyInstance, { db }: RouteDeps) {
  app.withTypeProvider<ZodTypeProvider>().get(
    `${OTHER_PATHS.images}/:id`,
    { schema: { hide: true, params: z.object({ id: z.string().min(1).max(64) }) } },
    async (request, reply) => {
      const [image] = await db
        .select({ mime: images.mime, bytes: images.bytes })
        .from(images)
        .where(eq(images.id, request.params.id))
        .limit(1);
      if (!image) throw new BusinessError(ErrorCode.NotFound, '图片不存在', 404);
      return reply
        .header('content-type', image.mime)
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
        .send(image.bytes);
    },
  );
}
