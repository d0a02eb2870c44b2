// The dependency rules of .eslint.config.js, tested through ESLint's Node API.
// Each case lints a few lines of code as if they sat at `from` (a file that need not exist) and
// imported real files of the tree; the rules work on resolved paths, so the cases use the `../`
// spellings and aliases a developer could try. The whole repository is linted once, by
// repository.test.ts.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint, type Linter } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const eslint = new ESLint({ cwd: root, overrideConfigFile: path.join(root, '.eslint.config.js') });

const FEATURE = 'src/client/features/feed/components/__lint_fixture__.tsx';
const UI = 'src/client/ui/__lint_fixture__.tsx';
const ENTITY = 'src/client/entities/post/__lint_fixture__.ts';
const ROUTE = 'src/client/routes/__lint_fixture__.tsx';
const APP = 'src/client/app/__lint_fixture__.tsx';
const LIB = 'src/client/lib/__lint_fixture__.ts';
const SHARED = 'src/shared/__lint_fixture__.ts';
const SERVER = 'src/server/routes/__lint_fixture__.ts';
const SERVER_HTTP = 'src/server/http/__lint_fixture__.ts';
const SERVER_SERVICES = 'src/server/services/__lint_fixture__.ts';
const SERVER_DB = 'src/server/db/__lint_fixture__.ts';
const SW = 'sw/__lint_fixture__.ts';
const BUILD = 'src/build/__lint_fixture__.ts';
const TESTS = 'tests/lint/__lint_fixture__.ts';

async function lint(from: string, code: string): Promise<Linter.LintMessage[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, from) });
  return result!.messages;
}

/** `import { x } from '<source>'; export { x };` */
const valueImport = (source: string) => `import { x } from '${source}';\nexport { x };\n`;
/** `import type { X } from '<source>'; export type { X };` */
const typeImport = (source: string) => `import type { X } from '${source}';\nexport type { X };\n`;

/** A relative import must point at a real file, or the case would test "unresolved" instead. */
function expectTarget(from: string, source: string) {
  if (source.startsWith('.')) {
    const target = path.resolve(root, path.dirname(from), source);
    expect(existsSync(target), `${source} from ${from} should exist (${target})`).toBe(true);
  }
}

type Case = { name: string; from: string; code: string; sources: string[]; rule: string; message?: RegExp };
const forbidden = (
  name: string,
  from: string,
  source: string,
  message: RegExp,
  code = valueImport(source),
  rule = 'boundaries/dependencies',
): Case => ({ name, from, code, sources: [source], rule, message });

/** An import nothing resolves is an error of its own, so a typo cannot bypass the layer rules. */
const unresolved = (name: string, from: string, source: string): Case => ({
  ...forbidden(name, from, source, /unknown/, valueImport(source), 'boundaries/no-unknown-dependencies'),
  sources: [],
});

const SIBLING = /Features do not import each other \(feed -> topic\)/;
const NO_APP = /Nothing in the client imports the app layer/;
const ONLY_APP_ROUTES = /Only the app layer imports routes/;
const BROWSER = /The client runs in browsers/;
const SHARED_ONLY = /src\/shared imports nothing but itself and zod/;
const ZOD = /zod stays out of browsers/;
const SW_ONLY = /The service worker imports only/;
const SERVER_ONLY = /The server never imports the client/;
const BUILD_ONLY = /src\/build imports neither the server/;

const forbiddenCases: Case[] = [
  // Features never import another feature, however the path is spelled, nor by import().
  forbidden('a feature imports a sibling feature through ../../topic', FEATURE, '../../topic/components/TopicList.tsx', SIBLING),
  forbidden('a feature imports a sibling feature through ../../../features/topic', FEATURE, '../../../features/topic/components/TopicList.tsx', SIBLING),
  forbidden(
    'a feature imports a sibling feature through ../../../../client/features/topic',
    FEATURE,
    '../../../../client/features/topic/components/TopicList.tsx',
    SIBLING,
  ),
  forbidden(
    'a feature imports a sibling feature by dynamic import()',
    FEATURE,
    '../../topic/components/TopicList.tsx',
    SIBLING,
    "export const load = () => import('../../topic/components/TopicList.tsx');\n",
  ),
  forbidden(
    'a feature re-exports a sibling feature (export * from)',
    FEATURE,
    '../../topic/components/TopicList.tsx',
    SIBLING,
    "export * from '../../topic/components/TopicList.tsx';\n",
  ),
  forbidden('a feature imports the app router', FEATURE, '../../../app/router.tsx', NO_APP),
  forbidden('a feature imports routes', FEATURE, '../../../routes/feeds.tsx', ONLY_APP_ROUTES),

  // The client's layers: lib/format/platform <- ui <- entities <- features <- routes <- app.
  forbidden('ui imports a feature', UI, '../features/topic/components/TopicList.tsx', /client-ui imports only/),
  forbidden('ui imports an entity', UI, '../entities/post/queries.ts', /client-ui imports only/),
  forbidden('an entity imports a feature', ENTITY, '../../features/topic/components/TopicList.tsx', /client-entity imports only/),
  forbidden('routes import the app layer', ROUTE, '../app/router.tsx', NO_APP),
  forbidden('lib imports ui', LIB, '../ui/toast/toast-store.ts', /client-lib imports only/),
  forbidden('lib imports platform', LIB, '../platform/online-store.ts', /client-lib imports only client-lib, client-format,/),

  // src/shared: itself and zod, nothing else.
  forbidden('src/shared imports pg', SHARED, 'pg', SHARED_ONLY),
  forbidden('src/shared imports node:fs', SHARED, 'node:fs', SHARED_ONLY),
  forbidden('src/shared imports react', SHARED, 'react', SHARED_ONLY),
  forbidden('src/shared imports zustand', SHARED, 'zustand', SHARED_ONLY),
  forbidden('src/shared imports ../client/lib/http.ts', SHARED, '../client/lib/http.ts', SHARED_ONLY),

  // The client never reaches the server, the database or Node.
  forbidden('the client imports pg', FEATURE, 'pg', BROWSER),
  forbidden('the client imports drizzle-orm', FEATURE, 'drizzle-orm', BROWSER),
  forbidden('the client imports a drizzle-orm subpath', FEATURE, 'drizzle-orm/pg-core', BROWSER),
  forbidden('the client imports fastify', FEATURE, 'fastify', BROWSER),
  forbidden('the client imports @fastify/*', FEATURE, '@fastify/cookie', BROWSER),
  forbidden('the client imports @electric-sql/pglite', FEATURE, '@electric-sql/pglite', BROWSER),
  forbidden('the client imports node:*', LIB, 'node:fs', BROWSER),
  forbidden('the client imports ../../server/app.ts', LIB, '../../server/app.ts', BROWSER),
  forbidden('the client imports zod as a value', FEATURE, 'zod', ZOD),
  forbidden('the client imports #shared/schemas.ts as a value', FEATURE, '#shared/schemas.ts', ZOD),
  forbidden('the client imports ../../shared/api.ts as a value', LIB, '../../shared/api.ts', ZOD),

  // The service worker: zod and the zod modules of src/shared as types only; never client or server.
  forbidden('the service worker imports zod as a value', SW, 'zod', ZOD),
  forbidden('the service worker imports #shared/api.ts as a value', SW, '#shared/api.ts', ZOD),
  forbidden('the service worker imports ../src/shared/api.ts as a value', SW, '../src/shared/api.ts', ZOD),
  forbidden(
    'the service worker imports #shared/api.ts with inline type specifiers (still loaded at run time)',
    SW,
    '#shared/api.ts',
    ZOD,
    "import { type X } from '#shared/api.ts';\nexport type { X };\n",
  ),
  forbidden('the service worker imports the client', SW, '../src/client/lib/http.ts', SW_ONLY),
  forbidden('the service worker imports the server', SW, '../src/server/app.ts', SW_ONLY),

  // The server: anything but the client, the service worker and React.
  forbidden('the server imports the client', SERVER, '../../client/lib/http.ts', SERVER_ONLY),
  forbidden('the server imports react', SERVER, 'react', SERVER_ONLY),
  forbidden('the server imports src/build', SERVER, '../../build/pwa.ts', SERVER_ONLY),
  // ...and its floors: db below services below http and routes, the app above them all.
  forbidden('the database layer imports a service', SERVER_DB, '../services/notices.ts', /server-db imports only server-db of the server/),
  forbidden('a service imports http', SERVER_SERVICES, '../http/auth.ts', /server-services imports only server-db, server-services/),
  forbidden('http imports the routes', SERVER_HTTP, '../routes/index.ts', /server-http imports only/),
  forbidden('a route imports the app', SERVER, '../app.ts', /server-routes imports only/),

  // src/build (vite.config.ts's modules): none of it ships, and it runs no server or worker code.
  forbidden('the client imports src/build', APP, '../../build/pwa.ts', /client-app imports only/),
  forbidden('the service worker imports src/build', SW, '../src/build/pwa.ts', SW_ONLY),
  forbidden('src/build imports the server', BUILD, '../server/app.ts', BUILD_ONLY),
  forbidden('src/build imports the service worker', BUILD, '../../sw/sw.ts', BUILD_ONLY),

  // Nothing slips through unresolved or unclassified.
  unresolved('an import that resolves to no file is an error (typo in a path)', FEATURE, '../../../entities/post/querys.ts'),
  unresolved('an #shared/* import that resolves to no file is an error', SW, '#shared/apis.ts'),
  unresolved('#shared/../ cannot climb out of src/shared', SW, '#shared/../client/lib/http.ts'),
  unresolved('a misspelt package is an error', FEATURE, 'zustandd'),
  forbidden(
    'import() of a computed specifier is an error',
    FEATURE,
    'n/a',
    /string literal/,
    "const name = '../../topic/components/TopicList.tsx';\nexport const load = () => import(name);\n",
    'no-restricted-syntax',
  ),
  forbidden(
    'a file outside every layer is an error',
    'src/client/__lint_fixture__.ts',
    'n/a',
    /does not belong to any known element/,
    'export const x = 1;\n',
    'boundaries/no-unknown-files',
  ),
];

type Allowed = { name: string; from: string; code: string; sources: string[] };
const allowedCases: Allowed[] = [
  {
    name: 'a feature imports an entity, ui, lib, its own files, styles, @tanstack/react-router and shared types',
    from: FEATURE,
    sources: [
      '../../../entities/post/queries.ts',
      '../../../ui/Avatar.tsx',
      '../../../lib/http.ts',
      '../expanded-posts-store.ts',
      './feed.css',
      '../../../styles/pages.css',
      '../../../ui/entity-header.css',
    ],
    code: [
      "import { a } from '../../../entities/post/queries.ts';",
      "import { b } from '../../../ui/Avatar.tsx';",
      "import { c } from '../../../lib/http.ts';",
      "import { d } from '../expanded-posts-store.ts';",
      "import './feed.css';",
      "import '../../../styles/pages.css';",
      "import '../../../ui/entity-header.css';",
      "import { Link } from '@tanstack/react-router';",
      "import type { Post } from '#shared/schemas.ts';",
      'export { a, b, c, d, Link };',
      'export type { Post };',
      '',
    ].join('\n'),
  },
  {
    name: 'the service worker imports types from #shared/api.ts and zod, values from endpoints, workbox-* and idb-keyval',
    from: SW,
    sources: ['./constants.ts'],
    code: [
      "import type { X } from '#shared/api.ts';",
      "import type { z } from 'zod';",
      "import { endpoints } from '#shared/endpoints.ts';",
      "import { registerRoute } from 'workbox-routing';",
      "import { get } from 'idb-keyval';",
      "import { c } from './constants.ts';",
      'export { endpoints, registerRoute, get, c };',
      'export type { X, z };',
      '',
    ].join('\n'),
  },
  { name: 'a route imports a feature', from: ROUTE, sources: ['../features/topic/components/TopicList.tsx'], code: valueImport('../features/topic/components/TopicList.tsx') },
  { name: 'app imports routes', from: APP, sources: ['../routes/feeds.tsx'], code: valueImport('../routes/feeds.tsx') },
  {
    name: 'an entity imports another entity and ui',
    from: ENTITY,
    sources: ['../user/queries.ts', '../../ui/Avatar.tsx'],
    code: "import { a } from '../user/queries.ts';\nimport { b } from '../../ui/Avatar.tsx';\nexport { a, b };\n",
  },
  {
    name: 'src/shared imports ./constants.ts, #shared/* and zod',
    from: SHARED,
    sources: ['./constants.ts'],
    code: "import { a } from './constants.ts';\nimport { b } from '#shared/errors.ts';\nimport { z } from 'zod';\nexport { a, b, z };\n",
  },
  {
    name: 'a route imports node:*, pg, fastify, zod, shared values, http, services, the database layer and the base files',
    from: SERVER,
    sources: ['../http/define-endpoint.ts', '../services/posts.ts', '../db/client.ts', '../config.ts'],
    code: [
      "import fs from 'node:fs';",
      "import pg from 'pg';",
      "import Fastify from 'fastify';",
      "import { z } from 'zod';",
      "import { a } from '#shared/api.ts';",
      "import { b } from '../http/define-endpoint.ts';",
      "import { c } from '../services/posts.ts';",
      "import { d } from '../db/client.ts';",
      "import { e } from '../config.ts';",
      'export { fs, pg, Fastify, z, a, b, c, d, e };',
      '',
    ].join('\n'),
  },
  {
    name: 'the database layer imports the base files',
    from: SERVER_DB,
    sources: ['../errors.ts', '../config.ts'],
    code: "import { a } from '../errors.ts';\nimport { b } from '../config.ts';\nexport { a, b };\n",
  },
  {
    name: 'src/build imports src/shared, the client, node:*, vite and its plugins',
    from: BUILD,
    sources: ['../shared/first-screen.ts', '../client/lib/early-acts-catcher.ts', './plugins.ts'],
    code: [
      "import { a } from '../shared/first-screen.ts';",
      "import { b } from '../client/lib/early-acts-catcher.ts';",
      "import { c } from './plugins.ts';",
      "import fs from 'node:fs';",
      "import { minify } from 'vite';",
      "import { VitePWA } from 'vite-plugin-pwa';",
      "import react from '@vitejs/plugin-react';",
      'export { a, b, c, fs, minify, VitePWA, react };',
      '',
    ].join('\n'),
  },
  {
    name: 'tests import anything',
    from: TESTS,
    sources: ['../../src/client/features/topic/components/TopicList.tsx', '../../src/server/app.ts'],
    code: [
      "import { a } from '../../src/client/features/topic/components/TopicList.tsx';",
      "import { b } from '../../src/server/app.ts';",
      "import pg from 'pg';",
      "import fs from 'node:fs';",
      'export { a, b, pg, fs };',
      '',
    ].join('\n'),
  },
  { name: 'a declaration file is fine anywhere', from: SHARED, sources: ['../client/env.d.ts'], code: typeImport('../client/env.d.ts') },
];

describe('layer rules: forbidden imports fail lint', () => {
  for (const c of forbiddenCases) {
    it(c.name, async () => {
      for (const source of c.sources) expectTarget(c.from, source);
      const messages = await lint(c.from, c.code);
      const hits = messages.filter((m) => m.ruleId === c.rule);
      expect(hits, JSON.stringify(messages, null, 2)).not.toHaveLength(0);
      if (c.message) expect(hits.map((m) => m.message).join('\n')).toMatch(c.message);
    });
  }
});

describe('layer rules: allowed imports pass lint', () => {
  for (const c of allowedCases) {
    it(c.name, async () => {
      for (const source of c.sources) expectTarget(c.from, source);
      expect(await lint(c.from, c.code)).toEqual([]);
    });
  }
});
