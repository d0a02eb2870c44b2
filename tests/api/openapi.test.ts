/**
 * The OpenAPI document at /docs/json (src/server/http/openapi.ts), over the whole route table:
 * a valid OpenAPI 3 document; every served call named by a unique operationId (its name in the
 * table); the shared shapes as named components, referenced by $ref and never inlined again;
 * 452 on every call that looks at the ticket, 404 where a missing thing answers one (/img/{id}),
 * 304 where a caller holding the answer gets no body again;
 * the error codes of each answer; the upload's multipart body. A typed client generated from it
 * with openapi-typescript must compile, with the types a client would rely on. Served with its
 * client (the share target then documented too), it names its server and says for every
 * operation who may call it, and Redocly's recommended rules (`redocly lint`) find no error.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { OTHER_PATHS, routes, HTTP_LOGGED_IN_ELSEWHERE, type EndpointName, type Route } from '../../src/shared/endpoints.ts';
import { errorMessages } from '../../src/shared/error-messages.ts';
import { ErrorCode } from '../../src/shared/errors.ts';
import { SHARE_TARGET_PATH } from '../../src/shared/static-paths.ts';
import { projectRoot } from '../../src/server/config.ts';
import { NOT_YET_SERVED } from '../../src/server/routes/index.ts';
import { openTestApp, openTestAppWithClient, type TestApp } from '../support/api.ts';

type Json = Record<string, unknown>;
interface Operation {
  operationId?: string;
  requestBody?: { content: Record<string, { schema: Json }> };
  responses: Record<string, { content?: Record<string, { schema: Json }>; headers?: Record<string, unknown> }>;
}
interface Document {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Json> };
}

const SHARED_SHAPES = ['Post', 'Comment', 'User', 'Channel', 'Topic', 'Page'];
const served = (Object.keys(routes) as EndpointName[]).filter((name) => !(NOT_YET_SERVED as readonly string[]).includes(name));
const UPLOAD = { path: OTHER_PATHS.uploadImage, method: 'post' };
const IMAGE = { path: `${OTHER_PATHS.images}/{id}`, method: 'get' };

/** Every node of a JSON value, depth first. */
function* nodes(value: unknown): Generator<Json> {
  if (Array.isArray(value)) for (const item of value) yield* nodes(item);
  else if (value && typeof value === 'object') {
    yield value as Json;
    for (const child of Object.values(value)) yield* nodes(child);
  }
}

/** The codes the error branch of an answer may carry (error.code's enum). */
function errorCodes(schema: Json | undefined): number[] {
  for (const node of nodes(schema)) {
    const properties = node.properties as Record<string, Json> | undefined;
    const error = properties?.error?.properties as Record<string, Json> | undefined;
    if (error?.code?.enum) return error.code.enum as number[];
  }
  return [];
}

const jsonSchemaOf = (operation: Operation, status: string) => operation.responses[status]?.content?.['application/json']?.schema;

describe('the OpenAPI document', () => {
  let t: TestApp;
  let doc: Document;
  const operationOf = (path: string, method: string): Operation => {
    const operation = doc.paths[path]?.[method];
    if (!operation) throw new Error(`no ${method} ${path} in the document`);
    return operation;
  };

  beforeAll(async () => {
    t = await openTestApp();
    const response = await t.app.inject({ method: 'GET', url: `${OTHER_PATHS.docs}/json` });
    expect(response.statusCode).toBe(200);
    doc = response.json();
  });
  afterAll(() => t?.close());

  it('is a valid OpenAPI 3 document', async () => {
    expect(doc.openapi).toMatch(/^3\./);
    // validate() dereferences in place: give it a copy.
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeTruthy();
  });

  it('names every call of the route table, once, by its name', () => {
    for (const name of served) {
      const route = routes[name];
      expect(operationOf(route.path, route.method.toLowerCase()).operationId, `${route.method} ${route.path}`).toBe(name);
    }
    const ids = Object.values(doc.paths).flatMap((item) => Object.values(item).map((operation) => operation.operationId));
    expect(ids.every((id) => typeof id === 'string' && id.length > 0), 'every operation has an operationId').toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('names the shared shapes and sends them by $ref, never inline', () => {
    const outsideComponents = JSON.stringify(doc.paths);
    const everywhere = JSON.stringify(doc);
    for (const name of SHARED_SHAPES) {
      expect(doc.components.schemas[name], name).toBeDefined();
      expect(everywhere).toContain(`"$ref":"#/components/schemas/${name}"`);
    }
    expect(jsonSchemaOf(operationOf(routes.postDetail.path, 'post'), '200')).toMatchObject({
      anyOf: expect.arrayContaining([expect.objectContaining({ properties: expect.objectContaining({ data: { $ref: '#/components/schemas/Post' } }) })]),
    });
    expect(outsideComponents).toContain('"$ref":"#/components/schemas/Page"');
    // No copy of a shared shape inlined anywhere in the paths: the same set of properties.
    const keysOf = (schema: Json) => Object.keys((schema.properties as Json | undefined) ?? {}).sort().join(',');
    const named = new Map(SHARED_SHAPES.map((name) => [keysOf(doc.components.schemas[name]!), name]));
    const inlined = [...nodes(doc.paths)].map((node) => named.get(keysOf(node))).filter(Boolean);
    expect(inlined).toEqual([]);
  });

  it('answers 452 on every call that looks at the ticket, with the codes each call may answer', () => {
    for (const name of served) {
      const route = routes[name];
      const operation = operationOf(route.path, route.method.toLowerCase());
      const codes = errorCodes(jsonSchemaOf(operation, '200'));
      expect(codes, name).toEqual(expect.arrayContaining([ErrorCode.BadRequest, ErrorCode.TooFrequent]));
      if (route.auth === 'required') expect(codes, name).toContain(ErrorCode.NotLoggedIn);
      if (JSON.stringify(operation.requestBody ?? {}).includes('"client_id"')) expect(codes, name).toContain(ErrorCode.IdempotencyMismatch);
      for (const code of codes) expect(errorMessages[code], `${name}: ${code}`).toBeDefined();
      const elsewhere = operation.responses[String(HTTP_LOGGED_IN_ELSEWHERE)];
      if (route.auth === 'none') expect(elsewhere, name).toBeUndefined();
      else expect(errorCodes(jsonSchemaOf(operation, String(HTTP_LOGGED_IN_ELSEWHERE))), name).toEqual([ErrorCode.Relogin]);
      expect(errorCodes(jsonSchemaOf(operation, '503')), name).toEqual([ErrorCode.Internal]);
      expect(errorCodes(jsonSchemaOf(operation, '429')), name).toEqual([ErrorCode.TooFrequent]);
      expect(operation.responses['503']?.headers, name).toHaveProperty('retry-after');
    }
    expect(errorCodes(jsonSchemaOf(operationOf(routes.postDetail.path, 'post'), '200'))).toContain(ErrorCode.NotFound);
    expect(errorCodes(jsonSchemaOf(operationOf(routes.voteSubmit.path, 'post'), '200'))).toEqual(
      expect.arrayContaining([ErrorCode.AlreadyVoted, ErrorCode.VoteClosed]),
    );
  });

  it('documents a 304 with no body, the ETag and If-None-Match on the calls that revalidate, and on no other', () => {
    const route = (name: EndpointName): Route => routes[name];
    const revalidating = served.filter((name) => route(name).revalidates === true);
    expect(revalidating).toContain('noticeUnreadCount');
    for (const name of served) {
      const { path, method } = route(name);
      const operation = operationOf(path, method.toLowerCase()) as Operation & { parameters?: { in: string; name: string }[] };
      const notModified = operation.responses['304'];
      if (!revalidating.includes(name)) {
        expect(notModified, name).toBeUndefined();
        continue;
      }
      expect(notModified, name).toBeDefined();
      expect(notModified!.content, name).toBeUndefined();
      expect(notModified!.headers, name).toHaveProperty('etag');
      expect(operation.responses['200']!.headers, name).toHaveProperty('etag');
      expect(operation.parameters, name).toContainEqual(expect.objectContaining({ in: 'header', name: 'if-none-match' }));
    }
  });

  it('documents the upload with its multipart body, and /img/{id} with its pictures and its 404', async () => {
    const upload = operationOf(UPLOAD.path, UPLOAD.method);
    expect(upload.operationId).toBe('uploadImage');
    expect(upload.requestBody?.content['multipart/form-data']?.schema).toMatchObject({
      properties: { file: { type: 'string', format: 'binary' } },
      required: ['file'],
    });
    expect(upload.responses[String(HTTP_LOGGED_IN_ELSEWHERE)]).toBeDefined();
    expect(errorCodes(jsonSchemaOf(upload, '200'))).toEqual(expect.arrayContaining([ErrorCode.BadUpload, ErrorCode.NotLoggedIn]));

    const image = operationOf(IMAGE.path, IMAGE.method);
    expect(image.operationId).toBe('image');
    expect(Object.keys(image.responses['200']?.content ?? {})).toEqual(expect.arrayContaining(['image/png', 'image/jpeg', 'image/webp', 'image/gif']));
    expect(errorCodes(jsonSchemaOf(image, '404'))).toEqual([ErrorCode.NotFound]);
    // The 404 documented is the one answered.
    const missing = await t.app.inject({ method: 'GET', url: `${OTHER_PATHS.images}/no-such-image` });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: -1, error: { code: ErrorCode.NotFound } });
  });

  it('generates a typed client that compiles', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'openapi-client-'));
    try {
      await writeFile(join(dir, 'api.ts'), astToString(await openapiTS(structuredClone(doc) as never)));
      // Each line leans on a type the document must give: an `any` or a missing name fails it.
      await writeFile(
        join(dir, 'use.ts'),
        `import type { components, operations, paths } from './api';

type Json<R> = R extends { content: { 'application/json': infer B } } ? B : never;
type Data<R> = Extract<Json<R>, { code: 0 }> extends { data: infer D } ? D : never;
type ErrorCodeOf<R> = Extract<Json<R>, { code: -1 }> extends { error: { code: infer C } } ? C : never;

type PostDetail = paths['${routes.postDetail.path}']['post']['responses'][200];
const postId: Data<PostDetail>['id'] = 1;
// @ts-expect-error a post's id is a number
const wrongId: Data<PostDetail>['id'] = '1';
const post: components['schemas']['Post'] | undefined = undefined as Data<PostDetail> | undefined;
const missing: ErrorCodeOf<PostDetail> = -1005;
// @ts-expect-error post/detail never answers a second vote
const notItsCode: ErrorCodeOf<PostDetail> = -1008;

type Comments = operations['commentList']['responses'][200];
const firstReplyNick: Data<Comments>['list'][number]['replies'][number]['user']['nick'] = 'nick';
const nextIndex: Data<Comments>['page']['next_index'] = 0;
const commentBody: operations['commentAdd']['requestBody'] = {
  content: { 'application/json': { post_id: 1, content: 'hi', client_id: 'client-0001' } },
};

type Elsewhere = operations['postAdd']['responses'][${HTTP_LOGGED_IN_ELSEWHERE}];
const relogin: ErrorCodeOf<Elsewhere> = -3003;
const image: paths['/img/{id}']['get']['parameters']['path'] = { id: 'abc' };
const uploadFile: operations['uploadImage']['requestBody'] extends { content: { 'multipart/form-data': { file: string } } } ? true : false = true;

export { postId, wrongId, post, missing, notItsCode, firstReplyNick, nextIndex, commentBody, relogin, image, uploadFile };
`,
      );
      const program = ts.createProgram([join(dir, 'use.ts')], {
        strict: true,
        noEmit: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.ESNext,
        moduleResolution: ts.ModuleResolutionKind.Bundler,
        types: [],
        skipLibCheck: true,
      });
      const problems = ts
        .getPreEmitDiagnostics(program)
        .map((diagnostic) => `${diagnostic.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`);
      expect(problems).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('the OpenAPI document of a server with its client (the share target too)', () => {
  let t: TestApp;
  let doc: Document;

  beforeAll(async () => {
    t = await openTestAppWithClient();
    doc = (await t.app.inject({ method: 'GET', url: `${OTHER_PATHS.docs}/json` })).json();
  });
  afterAll(() => t?.close());

  it('says its server, and who may call each operation, named and summed up', async () => {
    expect((doc as unknown as { servers?: unknown[] }).servers?.length).toBeGreaterThan(0);
    const operations = Object.entries(doc.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, operation]) => ({ path, method, operation: operation as Operation & { security?: unknown[]; summary?: string } })));
    expect(operations.map(({ path, method }) => `${method} ${path}`)).toEqual(expect.arrayContaining([`get ${SHARE_TARGET_PATH}`, `post ${SHARE_TARGET_PATH}`]));
    expect(operations.filter(({ operation }) => !operation.operationId || !operation.summary || !operation.security).map(({ path, method }) => `${method} ${path}`)).toEqual([]);
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeTruthy();
  });

  it("passes Redocly's recommended rules with no error", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'openapi-lint-'));
    const file = join(dir, 'openapi.json');
    await writeFile(file, JSON.stringify(doc));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const run = spawnSync(join(projectRoot(), 'node_modules/.bin/redocly'), ['lint', file, '--format=json'], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
    const report = JSON.parse(run.stdout) as { totals: { errors: number }; problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[] };
    const errors = report.problems.filter((problem) => problem.severity === 'error').map((problem) => `${problem.ruleId} ${problem.location[0]?.pointer}: ${problem.message}`);
    expect(errors).toEqual([]);
    expect(report.totals.errors).toBe(0);
  });
});
