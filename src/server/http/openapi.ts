/**
 * The OpenAPI document (/docs/json, shown at /docs), built from the route table and the shared
 * zod schemas: an operationId per call (its name in the route table or OTHER_PATHS), the shared
 * shapes as named components referenced by $ref, and every answer a call may give: the envelope
 * with the error codes it may carry, 452 for a ticket ended elsewhere, 429/500/503, 304 with the
 * ETag for a call that revalidates (the route table's `revalidates`), the upload's
 * multipart body and the pictures of /img/{id}. Only the document changes here: the routes keep
 * validating and serialising with their own schemas.
 */
import type { SwaggerTransform, SwaggerTransformObject } from '@fastify/swagger';
import { createJsonSchemaTransform, createJsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HTTP_LOGGED_IN_ELSEWHERE, OTHER_PATHS, routes, type Auth, type EndpointName, type Route } from '#shared/endpoints.ts';
import { errorMessages } from '#shared/error-messages.ts';
import { ErrorCode } from '#shared/errors.ts';
import { SHARE_TARGET_PATH } from '#shared/static-paths.ts';
import {
  attachSchema,
  channelDetailSchema,
  channelSchema,
  commentBaseSchema,
  commentSchema,
  loginUserSchema,
  noteSchema,
  pageInfoSchema,
  postSchema,
  topicDetailSchema,
  topicSchema,
  uploadedImageSchema,
  userBriefSchema,
  userInfoSchema,
  voteSchema,
} from '#shared/schemas.ts';

/**
 * Shared shapes named once in components.schemas. Only these very objects become a $ref; an
 * `.extend()` of one is a new shape and stays inline. A registry of its own, not zod's global
 * one, so nothing else in the process is named by accident.
 */
const namedShapes = z.registry<{ id: string }>();
const NAMED = {
  Post: postSchema,
  Comment: commentSchema,
  CommentBase: commentBaseSchema,
  User: userBriefSchema,
  LoginUser: loginUserSchema,
  UserInfo: userInfoSchema,
  Channel: channelSchema,
  ChannelDetail: channelDetailSchema,
  Topic: topicSchema,
  TopicDetail: topicDetailSchema,
  Page: pageInfoSchema,
  Vote: voteSchema,
  Attach: attachSchema,
  Note: noteSchema,
  UploadedImage: uploadedImageSchema,
};
for (const [id, schema] of Object.entries(NAMED)) namedShapes.add(schema, { id });

const E = ErrorCode;

/**
 * Business codes a call's service may answer beyond those every call shares (-1004, -2005),
 * those of its login (-2000, 452) and -1009 of a client_id: read off the services' throws.
 */
const BUSINESS_CODES: Partial<Record<EndpointName, readonly number[]>> = {
  loginCode: [E.CodeNotSent],
  login: [E.CodeEmpty, E.CodeExpired, E.CodeWrong],
  auth: [E.NotLoggedIn],
  channelDetail: [E.NotFound],
  channelPosts: [E.NotLoggedIn],
  followChannel: [E.NotFound],
  unfollowChannel: [E.NotFound],
  userChannelList: [E.NotFound],
  followUser: [E.NotFound, E.FollowLimit],
  unfollowUser: [E.NotFound],
  userInfo: [E.NotFound],
  userPosts: [E.NotFound],
  nickUpdate: [E.DailyLimit],
  postDetail: [E.NotFound],
  postAdd: [E.NotFound, E.DailyLimit],
  postDelete: [E.NotFound, E.Forbidden],
  likeAdd: [E.NotFound],
  likeCancel: [E.NotFound],
  likeList: [E.NotFound],
  commentList: [E.NotFound],
  commentReplies: [E.NotFound],
  commentAdd: [E.NotFound, E.DailyLimit],
  commentDelete: [E.NotFound, E.Forbidden],
  voteSubmit: [E.NotFound, E.AlreadyVoted, E.VoteClosed],
  topicDetail: [E.NotFound],
  topicPosts: [E.NotFound],
  codeDetail: [E.NotFound],
  booklistDetail: [E.NotFound],
  complainAdd: [E.NotFound, E.AlreadyComplained, E.OwnComplaint, E.DailyLimit, E.FeedbackInvalid, E.FeedbackTooLong],
  noteUpdate: [E.NotFound, E.DailyLimit],
  moderationQueue: [E.Forbidden],
  moderationHide: [E.Forbidden, E.NotFound],
  moderationRestore: [E.Forbidden, E.NotFound],
  moderationDismiss: [E.Forbidden, E.NotFound],
  moderationSuspend: [E.Forbidden, E.NotFound],
  moderationLift: [E.Forbidden, E.NotFound],
  moderationLog: [E.Forbidden],
};

type JsonSchema = Record<string, unknown>;

interface CallDoc {
  operationId: string;
  auth: Auth;
  /** Codes of an answer with HTTP 200 (the envelope's error.code). */
  codes: readonly number[];
  /** The document of a path outside the JSON contract: what its own schema cannot say. */
  patch?: (schema: JsonSchema) => void;
  /** Answers 304 to a caller holding the answer's ETag (the route table's `revalidates`). */
  revalidates?: boolean;
}

/** Whether a JSON schema (through allOf/anyOf/oneOf) has the property `name`. */
function hasProperty(schema: unknown, name: string): boolean {
  if (!schema || typeof schema !== 'object') return false;
  const node = schema as JsonSchema;
  if (node.properties && typeof node.properties === 'object' && name in node.properties) return true;
  return ['allOf', 'anyOf', 'oneOf'].some((key) => Array.isArray(node[key]) && (node[key] as unknown[]).some((s) => hasProperty(s, name)));
}

function contractCodes(name: EndpointName, input: unknown): number[] {
  const { auth, kind } = routes[name];
  return [
    E.BadRequest,
    E.TooFrequent,
    ...(auth === 'required' ? [E.NotLoggedIn] : []),
    // Every write of a logged-in user passes the writer, which refuses a suspended user's (services/once.ts).
    ...(auth === 'required' && kind === 'write' && name !== 'logout' ? [E.Suspended] : []),
    // A write keyed by client_id answers -1009 when the key comes back with another body (services/once.ts).
    ...(hasProperty(input, 'client_id') ? [E.IdempotencyMismatch] : []),
    ...(BUSINESS_CODES[name] ?? []),
  ];
}

/** The error envelope {code:-1, error:{code, msg}} with the codes it may carry, each with its message. */
function errorEnvelope(codes: readonly number[]): JsonSchema {
  const sorted = [...new Set(codes)].sort((a, b) => b - a);
  return {
    type: 'object',
    properties: {
      code: { type: 'integer', enum: [-1] },
      error: {
        type: 'object',
        properties: {
          code: {
            type: 'integer',
            enum: sorted,
            description: sorted.map((code) => `${code} ${errorMessages[code] ?? ''}`.trim()).join('; '),
          },
          msg: { type: 'string' },
        },
        required: ['code', 'msg'],
        additionalProperties: false,
      },
    },
    required: ['code', 'error'],
    additionalProperties: false,
  };
}

const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'];

/** The installed app's share target: the shared text and pictures land in the composer, through a 303 to it. */
const shareTarget = (summary: string) => (schema: JsonSchema) => {
  schema.summary = summary;
  schema.tags = ['app'];
  const response = schema.response as Record<string, unknown>;
  response['303'] = { description: 'To the composer over /home, with what was shared', headers: { location: { type: 'string' } } };
  response['400'] = { description: 'Never: whatever arrives, the composer opens (what it cannot read is left out)' };
};

const OTHER_CALLS: Record<string, CallDoc> = {
  [`GET ${SHARE_TARGET_PATH}`]: {
    operationId: 'shareTarget',
    auth: 'none',
    codes: [],
    patch: shareTarget('The share target of the installed app, shared without pictures (title, text, url in the query)'),
  },
  [`POST ${SHARE_TARGET_PATH}`]: {
    operationId: 'shareTargetPost',
    auth: 'none',
    codes: [],
    patch: shareTarget('The share target of the installed app, shared with pictures (multipart; the service worker keeps them)'),
  },
  [`POST ${OTHER_PATHS.uploadImage}`]: {
    operationId: 'uploadImage',
    auth: 'required',
    codes: [E.TooFrequent, E.NotLoggedIn, E.BadUpload, E.DailyLimit, E.Suspended],
    patch: (schema) => {
      schema.body = {
        type: 'object',
        properties: { file: { type: 'string', format: 'binary', description: 'PNG, JPEG, WebP or GIF' } },
        required: ['file'],
      };
    },
  },
  [`GET ${OTHER_PATHS.images}/:id`]: {
    operationId: 'image',
    auth: 'none',
    codes: [E.BadRequest],
    patch: (schema) => {
      const response = schema.response as Record<string, unknown>;
      const picture = { schema: { type: 'string', format: 'binary' } };
      response['200'] = {
        description: 'The picture (?w=N: a narrower copy), cached for a year; or the envelope of a bad request',
        content: {
          ...Object.fromEntries(IMAGE_TYPES.map((type) => [type, picture])),
          'application/json': { schema: errorEnvelope([E.BadRequest]) },
        },
      };
      response['404'] = { description: 'No such picture', ...errorEnvelope([E.NotFound]) };
    },
  },
  [`GET ${OTHER_PATHS.ticketDelete}`]: {
    operationId: 'ticketDelete',
    auth: 'none',
    codes: [],
    patch: (schema) => {
      (schema.response as Record<string, unknown>)['200'] = {
        description: 'Always a 1x1 GIF',
        content: { 'image/gif': { schema: { type: 'string', format: 'binary' } } },
      };
    },
  },
};

function callOf(method: string, url: string, input: unknown): CallDoc | undefined {
  for (const [name, route] of Object.entries(routes) as [EndpointName, Route][]) {
    if (route.method === method && route.path === url) {
      return { operationId: name, auth: route.auth, codes: contractCodes(name, input), revalidates: route.revalidates === true };
    }
  }
  return OTHER_CALLS[`${method} ${url}`];
}

/** The success branch of the envelope the route's own schema gave (anyOf [{code:0,data}, error]). */
function successBranch(response: unknown): JsonSchema | undefined {
  const anyOf = (response as JsonSchema | undefined)?.anyOf;
  if (!Array.isArray(anyOf)) return undefined;
  return (anyOf as JsonSchema[]).find((branch) => hasProperty(branch, 'data'));
}

const zodTransform = createJsonSchemaTransform({ schemaRegistry: namedShapes });
const zodTransformObject = createJsonSchemaTransformObject({ schemaRegistry: namedShapes });

/** The ways a caller shows its ticket (define-endpoint.ts's security schemes). */
const TICKET = [{ ticketCookie: [] }, { ticketHeader: [] }];

/** @fastify/swagger's `transform`: each route's zod schemas to JSON schema, then its full answers. */
export const openApiTransform: SwaggerTransform = (args) => {
  const result = zodTransform(args);
  const methods = [args.route.method].flat();
  // A route of OTHER_CALLS without a schema of its own (the share target's) is documented all the same.
  if (!result.schema && methods.length === 1 && OTHER_CALLS[`${methods[0]} ${args.url}`]) result.schema = {};
  const schema = result.schema as JsonSchema | undefined;
  if (!schema || schema.hide || methods.length !== 1) return result;
  const call = callOf(methods[0]!, args.url, schema.body ?? schema.querystring);
  // Every operation says who may call it: a ticket, a ticket or none ({}), or anyone ([]).
  schema.security ??= call?.auth === 'required' ? TICKET : call?.auth === 'optional' ? [{}, ...TICKET] : [];
  if (!call) return result;
  schema.operationId = call.operationId;
  const response = (schema.response ?? {}) as Record<string, unknown>;
  schema.response = response;
  const success = successBranch(response['200']);
  if (success) {
    const codes = [...new Set(call.codes)].sort((a, b) => b - a);
    response['200'] = {
      description: `{code:0,data}, or {code:-1,error:{code,msg}} with error.code one of ${codes.join(', ')}`,
      anyOf: [success, errorEnvelope(codes)],
    };
  }
  if (call.auth !== 'none') {
    response[String(HTTP_LOGGED_IN_ELSEWHERE)] = {
      description: 'The ticket was ended by a login on another device of the same kind: log in again',
      ...errorEnvelope([E.Relogin]),
    };
  }
  if (call.revalidates) {
    const etag = { etag: { type: 'string', description: 'The answer’s tag: sent back in If-None-Match, it gets a 304 while the answer is the same' } };
    if (response['200']) (response['200'] as JsonSchema).headers = etag;
    schema.headers = {
      type: 'object',
      properties: { 'if-none-match': { type: 'string', description: 'The ETag of the answer the caller holds' } },
    };
    response['304'] = { type: 'null', description: 'The answer is the one whose ETag the caller sent in If-None-Match: no body', headers: etag };
  }
  const retryAfter = { 'retry-after': { type: 'integer', description: 'Seconds to wait before trying again' } };
  response['429'] = {
    description: 'Too many connections from one address at once (http/connection-caps.ts)',
    headers: retryAfter,
    ...errorEnvelope([E.TooFrequent]),
  };
  response['500'] = { description: 'A fault of the server', ...errorEnvelope([E.Internal]) };
  response['503'] = { description: 'The database is away for now', headers: retryAfter, ...errorEnvelope([E.Internal]) };
  call.patch?.(schema);
  return result;
};

/** Every $ref of a document, as component names. */
function referencedNames(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) value.forEach((item) => referencedNames(item, into));
  else if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref' && typeof child === 'string') into.add(child.replace('#/components/schemas/', ''));
      else referencedNames(child, into);
    }
  }
  return into;
}

/**
 * OpenAPI 3.0 reads `nullable` only beside a `type`, and zod writes a nullable object as
 * {nullable, allOf: [$ref]} and a nullable union as {nullable, anyOf}: the object gets its type,
 * the union's members each say they may be null.
 */
function typeNullables(value: unknown): void {
  if (Array.isArray(value)) value.forEach(typeNullables);
  if (!value || typeof value !== 'object' || Array.isArray(value)) return;
  const node = value as JsonSchema;
  if (node.nullable === true && node.type === undefined) {
    if (Array.isArray(node.allOf)) node.type = 'object';
    else if (Array.isArray(node.anyOf)) {
      node.anyOf = (node.anyOf as JsonSchema[]).map((member) => (member.type === undefined ? member : { ...member, nullable: true }));
      delete node.nullable;
    }
  }
  Object.values(node).forEach(typeNullables);
}

/**
 * @fastify/swagger's `transformObject`: adds the named shapes to components.schemas. zod makes an
 * input twin of each ("PostInput"); the ones no request uses are dropped.
 */
export const openApiTransformObject: SwaggerTransformObject = (args) => {
  const document = zodTransformObject(args) as { servers?: unknown[]; components?: { schemas?: Record<string, unknown> } };
  // The document is served by the server it describes: its calls are relative to it.
  if (!document.servers?.length) document.servers = [{ url: '/', description: 'The server that serves this document' }];
  typeNullables(document);
  const schemas = document.components?.schemas;
  // Until none goes: an unused twin may be the only user of another (PostInput of UserInput).
  for (let dropped = true; schemas && dropped; ) {
    dropped = false;
    const used = referencedNames(document);
    for (const name of Object.keys(schemas)) {
      if (name.endsWith('Input') && !used.has(name)) {
        delete schemas[name];
        dropped = true;
      }
    }
  }
  return document as ReturnType<SwaggerTransformObject>;
};
