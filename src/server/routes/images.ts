/**
 * The two paths of pictures outside the JSON contract:
 *
 * - OTHER_PATHS.images: `GET /img/{id}` answers a stored image, `?w=N` a narrower copy
 *   (services/images.ts); cached for a year either way (an id and a width never change content).
 * - OTHER_PATHS.uploadImage: `POST /serv/v1/upload/image`, multipart with the picture in the
 *   field `file` (src/client/lib/upload.ts: XMLHttpRequest + FormData, the ticket as the cookie
 *   or the Ticket + Device-Id headers), login required. It answers the usual envelope:
 *   `{url: '/img/{id}', width, height}` or an error. Whatever arrives (no file, not multipart, too
 *   large, not an image) the answer is an envelope with a Chinese message, never an HTTP error page.
 */
import fastifyMultipart from '@fastify/multipart';
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { fail, ok } from '#shared/envelope.ts';
import { OTHER_PATHS } from '#shared/endpoints.ts';
import { uploadedImageSchema } from '#shared/schemas.ts';
import { BusinessError, notLoggedIn } from '../errors.ts';
import { envelopeSchema } from '../http/define-endpoint.ts';
import { getImage, imageVariantSource } from '../services/images.ts';
import { refuseIfSuspended } from '../services/once.ts';
import { hitUploadLimit, normalizeImage, saveUpload, tooLarge, uploadError } from '../services/uploads.ts';
import type { RouteDeps } from './deps.ts';

const IMMUTABLE = 'public, max-age=31536000, immutable';

export async function imageRoute(app: FastifyInstance, { db }: RouteDeps) {
  const variantOf = imageVariantSource(db);
  app.withTypeProvider<ZodTypeProvider>().get(
    `${OTHER_PATHS.images}/:id`,
    {
      schema: {
        tags: ['upload'],
        summary: 'A stored picture; ?w=N a narrower copy',
        params: z.object({ id: z.string().min(1).max(64) }),
        querystring: z.object({
          /** Wanted width in px; snapped to IMAGE_VARIANT_WIDTHS, never wider than the original. */
          w: z
            .string({ error: '图片宽度 w 应为正整数' })
            .regex(/^\d{1,6}$/, '图片宽度 w 应为正整数')
            .transform(Number)
            .refine((w) => w >= 1, '图片宽度 w 应为正整数')
            .optional(),
        }),
      },
    },
    async (request, reply) => {
      const { w } = request.query;
      const image = w === undefined ? await getImage(db, request.params.id) : await variantOf(request.params.id, w);
      return reply
        .header('content-type', image.mime)
        .header('cache-control', IMMUTABLE)
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
        .send(image.bytes);
    },
  );
}

/** Errors of the multipart reader and of Fastify's body parsing that mean "not a usable upload". */
const UPLOAD_ERROR_MESSAGES: Record<string, string> = {
  FST_INVALID_MULTIPART_CONTENT_TYPE: '请用 multipart/form-data 上传图片（字段 file）',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: '请用 multipart/form-data 上传图片（字段 file）',
  FST_ERR_CTP_EMPTY_JSON_BODY: '请选择要上传的图片',
  FST_ERR_CTP_INVALID_JSON_BODY: '请用 multipart/form-data 上传图片（字段 file）',
  FST_FILES_LIMIT: '一次只能上传一张图片',
  FST_PARTS_LIMIT: '上传内容过多，一次只能上传一张图片',
  FST_FIELDS_LIMIT: '上传内容过多，一次只能上传一张图片',
  FST_PROTO_VIOLATION: '上传内容格式不正确',
  FST_MP_PREMATURE_CLOSE: '上传未完成，请重试',
};

/** The picture of the request: the first file part, whole, at most `maxBytes`; else -1007. */
async function readUpload(request: FastifyRequest, maxBytes: number): Promise<Buffer> {
  if (!request.isMultipart()) throw uploadError(UPLOAD_ERROR_MESSAGES.FST_INVALID_MULTIPART_CONTENT_TYPE!);
  try {
    const part = await request.file();
    if (!part) throw uploadError('请选择要上传的图片');
    return await part.toBuffer();
  } catch (error) {
    throw asUploadError(error, maxBytes);
  }
}

/** Any failure while receiving an upload as the envelope's error (busboy's own errors carry no code). */
function asUploadError(error: unknown, maxBytes: number): BusinessError {
  if (error instanceof BusinessError) return error;
  const code = (error as Partial<FastifyError> | undefined)?.code;
  if (code === 'FST_REQ_FILE_TOO_LARGE' || code === 'FST_ERR_CTP_BODY_TOO_LARGE') return tooLarge(maxBytes);
  return uploadError((code && UPLOAD_ERROR_MESSAGES[code]) || '上传内容不完整或格式不正确，请重试');
}

export async function uploadImageRoute(app: FastifyInstance, { db, config }: RouteDeps) {
  await app.register(async (scope) => {
    await scope.register(fastifyMultipart, {
      throwFileSizeLimit: true,
      limits: { fileSize: config.uploadMaxBytes, files: 1, fields: 10, fieldSize: 1024, parts: 20, headerPairs: 50 },
    });
    // Errors before the handler (a body that is not multipart, too large for the JSON parser)
    // are upload errors too; anything else goes to the app's handler (a 500 stays a 500).
    scope.setErrorHandler((error: FastifyError, _request, reply) => {
      if (error instanceof BusinessError || (error.code && (error.code in UPLOAD_ERROR_MESSAGES || error.code.endsWith('TOO_LARGE')))) {
        const business = asUploadError(error, config.uploadMaxBytes);
        return reply.status(business.status).send(fail(business.code, business.message));
      }
      throw error;
    });
    scope.withTypeProvider<ZodTypeProvider>().post(
      OTHER_PATHS.uploadImage,
      {
        schema: {
          tags: ['upload'],
          summary: `Upload a picture (multipart, field "file"; PNG, JPEG, WebP or GIF up to ${config.uploadMaxBytes} bytes)`,
          consumes: ['multipart/form-data'],
          security: [{ ticketCookie: [] }, { ticketHeader: [] }],
          response: { 200: envelopeSchema(uploadedImageSchema) },
        },
      },
      async (request) => {
        const viewer = await request.resolveViewer();
        if (!viewer) throw notLoggedIn();
        await refuseIfSuspended(db, viewer.userId);
        await hitUploadLimit(db, viewer.userId, config.uploadLimitPerMinute);
        const bytes = await readUpload(request, config.uploadMaxBytes);
        const image = await normalizeImage(bytes);
        return ok(await saveUpload(db, viewer.userId, image, config.dailyUploadLimit));
      },
    );
  });
}
