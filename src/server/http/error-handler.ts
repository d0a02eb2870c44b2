/**
 * Turns every failure into the envelope. A user's mistake (bad JSON, a body that fails its
 * schema, a business rule) is a business error with a clear message; a database that is away
 * for now is a 503 with -1002, to be tried again; only a fault of ours is a 500, and it never
 * leaks internals.
 */
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { fail } from '#shared/envelope.ts';
import { messageForCode } from '#shared/error-messages.ts';
import { ErrorCode } from '#shared/errors.ts';
import { isDatabaseUnavailable } from '../db/client.ts';
import { BusinessError } from '../errors.ts';

/** Seconds a client is told to wait before it tries again while the database is away. */
export const RETRY_AFTER_SECONDS = 1;

/** Fastify's own client-error codes, in words a user can act on. */
const fastifyClientErrors: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: '请求体不是有效的 JSON',
  FST_ERR_CTP_EMPTY_JSON_BODY: '请求体不能为空',
  FST_ERR_CTP_BODY_TOO_LARGE: '请求内容过大（JSON 请求体最多 1 MB）',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: '不支持的请求内容类型',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: '请求长度不正确',
  FST_ERR_VALIDATION: '请求参数错误',
};

export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof BusinessError) {
      // A client told when to come back does not hammer a limit it has already reached.
      const retryAfter = error.retryAfterSeconds ?? (error.code === ErrorCode.TooFrequent ? RETRY_AFTER_SECONDS : undefined);
      if (retryAfter !== undefined) reply.header('retry-after', String(retryAfter));
      return reply.status(error.status).send(fail(error.code, error.message));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const first = error.validation[0];
      const field = first?.instancePath ? first.instancePath.replace(/^\//, '').replaceAll('/', '.') : '';
      const detail = first ? `${field ? field + ' ' : ''}${first.message}` : '';
      return reply.status(200).send(fail(ErrorCode.BadRequest, `请求参数错误${detail ? '：' + detail : ''}`));
    }
    // A body over the limit is a bad request like any other (the image upload answers its own -1007).
    const clientMessage = error.code ? fastifyClientErrors[error.code] : undefined;
    if (clientMessage || (error.statusCode && error.statusCode >= 400 && error.statusCode < 500)) {
      return reply.status(200).send(fail(ErrorCode.BadRequest, clientMessage ?? '请求参数错误'));
    }
    // The database is away (restarting, its connections ended): nothing is wrong with the
    // request, which may be sent again; the pool reconnects by itself.
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: { message: error.message, code: error.code } }, 'database unavailable');
      return reply
        .status(503)
        .header('retry-after', String(RETRY_AFTER_SECONDS))
        .send(fail(ErrorCode.Internal, '服务暂时不可用，请稍后重试'));
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send(fail(ErrorCode.Internal, messageForCode(ErrorCode.Internal)));
  });
}
