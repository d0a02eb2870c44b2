// ESLint flat config. It sits in a dotfile because the top level of the repository is fixed
// by the design card; `npm run lint` passes it explicitly.
//
// The layers' dependency direction (the policies below) is enforced by eslint-plugin-boundaries on
// RESOLVED paths: every import, export-from, require and import() is resolved to a file first
// (relative paths, the package.json "imports" alias #shared/*, packages), the file is classified
// into an element (layer), and the pair (importing layer, imported layer or package) is checked
// against the policies below. So `../../topic/x.ts`, `../../../features/topic/x.ts` and
// `../../../../client/features/topic/x.ts` land on the same element and get the same verdict.
// An import that resolves to nothing is an error of its own (boundaries/no-unknown-dependencies),
// so a typo, an unknown alias or `#shared/../` cannot slip past the rules; a file outside every
// layer is one too (boundaries/no-unknown-files). tests/lint/layers.test.ts has one case per rule.
import { createRequire } from 'node:module';
import path from 'node:path';
import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const root = import.meta.dirname;

/**
 * Module resolution for the boundaries plugin: eslint-import-resolver-node (paths and packages),
 * with package.json "imports" subpaths (`#shared/*`) handed to Node's own resolver, so the alias
 * is read from package.json exactly as Node, Vite and TypeScript read it, never repeated here.
 * A `#...` specifier Node cannot resolve yields no candidate, hence "unresolved". A package's
 * folder is tried first, then the file Node picks for it: a package with "exports" and no "main"
 * (vite) resolves only so.
 */
const resolver = {
  node: {
    extensions: ['.mjs', '.js', '.json', '.ts', '.tsx', '.d.ts'],
    packageIterator: (request, start, candidates) => {
      let byNode = [];
      try {
        byNode = [createRequire(path.join(start, 'noop.js')).resolve(request)];
      } catch {
        // Nothing Node would load.
      }
      return request.startsWith('#') ? byNode : [...candidates(), ...byNode];
    },
  },
};

/** Layers, matched on the path relative to the repository root; the first match wins. */
const elements = [
  { type: 'shared', pattern: 'src/shared' },
  // The server's floors (db below services below http and routes), each folder an element; the
  // rest (app.ts, boot.ts, main.ts, tools/) above them all, but for its base files (below).
  { type: 'server-db', pattern: 'src/server/db' },
  { type: 'server-services', pattern: 'src/server/services' },
  { type: 'server-seed', pattern: 'src/server/seed' },
  { type: 'server-http', pattern: 'src/server/http' },
  { type: 'server-routes', pattern: 'src/server/routes' },
  { type: 'server', pattern: 'src/server' },
  { type: 'build', pattern: 'src/build' },
  { type: 'sw', pattern: 'sw' },
  { type: 'client-lib', pattern: 'src/client/lib' },
  { type: 'client-format', pattern: 'src/client/format' },
  { type: 'client-platform', pattern: 'src/client/platform' },
  { type: 'client-styles', pattern: 'src/client/styles' },
  { type: 'client-ui', pattern: 'src/client/ui' },
  { type: 'client-entity', pattern: 'src/client/entities/*', capture: ['entity'] },
  { type: 'client-feature', pattern: 'src/client/features/*', capture: ['feature'] },
  { type: 'client-route', pattern: 'src/client/routes' },
  { type: 'client-app', pattern: 'src/client/app' },
  { type: 'tests', pattern: 'tests' },
].map((element) => ({ partialMatch: false, ...element }));
/**
 * Ambient declaration files (src/client/env.d.ts): no layer, and fine to reference from anywhere.
 * The server's base files (its settings, errors and address ranges): every server layer's floor.
 */
const files = [
  { category: 'declaration', pattern: 'src/**/*.d.ts' },
  { category: 'server-base', pattern: 'src/server/{config,errors,address-ranges}.ts' },
];

const server = ['server-db', 'server-services', 'server-seed', 'server-http', 'server-routes', 'server'];
/** What each server layer may import of the server, besides its base files, src/shared, Node and packages. */
const serverLayers = {
  'server-db': ['server-db'],
  'server-services': ['server-db', 'server-services'],
  'server-seed': ['server-db', 'server-services', 'server-seed'],
  'server-http': ['server-db', 'server-services', 'server-http'],
  'server-routes': ['server-db', 'server-services', 'server-http', 'server-routes'],
  server,
};

const client = [
  'client-lib',
  'client-format',
  'client-platform',
  'client-styles',
  'client-ui',
  'client-entity',
  'client-feature',
  'client-route',
  'client-app',
];
/**
 * What each client layer may import, besides src/shared, the CSS of src/client/styles and packages.
 * Files of one element (one feature, one entity, ui, ...) may always import each other: boundaries
 * only checks dependencies between elements. lib is the floor: it knows nothing of the platform it
 * runs on; what it needs of it is handed in by app/.
 */
const clientLayers = {
  'client-styles': [],
  'client-lib': ['client-lib', 'client-format'],
  'client-format': ['client-lib', 'client-format', 'client-platform'],
  'client-platform': ['client-lib', 'client-format', 'client-platform'],
  'client-ui': ['client-lib', 'client-format', 'client-platform', 'client-ui'],
  'client-entity': ['client-lib', 'client-format', 'client-platform', 'client-ui', 'client-entity'],
  'client-feature': ['client-lib', 'client-format', 'client-platform', 'client-ui', 'client-entity'],
  'client-route': ['client-lib', 'client-format', 'client-platform', 'client-ui', 'client-entity', 'client-feature'],
  'client-app': client,
};

const element = (types) => ({ element: { types: { anyOf: [types].flat() } } });
const anything = { to: { module: { origin: ['local', 'external', 'core'] } } };
const packages = (source) => ({ to: { module: { origin: 'external', source } } });
/** The modules of src/shared that build zod schemas; browsers use the route table of endpoints.ts. */
const zodValues = [
  { to: { module: { origin: 'external', source: 'zod' } }, dependency: { kind: 'value' } },
  { to: { element: { types: { anyOf: ['shared'] }, fileInternalPath: ['api.ts', 'schemas.ts'] } }, dependency: { kind: 'value' } },
];
const zodStaysOut =
  'zod stays out of browsers: import types only (`import type`), and call request(endpoints.x, ...) from src/shared/endpoints.ts (found {{dependency.source}}).';

/**
 * Policies of boundaries/dependencies. Anything no policy allows is an error (`default: disallow`),
 * and the LAST matching policy decides: each layer first disallows everything with a message that
 * says what it may import, then allows exactly that; the specific bans come after the allows.
 */
const policies = [
  // tests may import anything.
  { from: element('tests'), allow: anything },

  // src/shared: pure TypeScript, no DOM and no Node: itself and zod only.
  {
    from: element('shared'),
    disallow: anything,
    message: 'src/shared imports nothing but itself and zod (found {{dependency.source}}).',
  },
  { from: element('shared'), allow: [{ to: element('shared') }, packages('zod')] },

  // src/server: each layer the ones below it (serverLayers), src/shared, Node and packages...
  ...Object.entries(serverLayers).flatMap(([layer, allowed]) => [
    {
      from: element(layer),
      disallow: { to: element(server) },
      message: `${layer} imports only ${allowed.join(', ')} of the server (found {{dependency.source}}): db below services below http and routes.`,
    },
    {
      from: element(layer),
      allow: [{ to: element(['shared', ...allowed]) }, { to: { file: { categories: 'server-base' } } }, { to: { module: { origin: ['external', 'core'] } } }],
    },
  ]),
  // ...and never the client, the service worker, the build or React.
  {
    from: element(server),
    disallow: [{ to: element([...client, 'sw', 'build', 'tests']) }, packages(['react', 'react-dom'])],
    message: 'The server never imports the client, the service worker, the build or React (found {{dependency.source}}).',
  },

  // src/build: vite.config.ts's modules, run by Node at build time: anything but the server,
  // the service worker (built from its own entry) and the tests. The client layers and the
  // server never import it, so none of it ships.
  { from: element('build'), allow: anything },
  {
    from: element('build'),
    disallow: { to: element([...server, 'sw', 'tests']) },
    message: 'src/build imports neither the server, the service worker nor the tests (found {{dependency.source}}).',
  },

  // sw: itself, src/shared, workbox-* and idb-keyval; zod and the zod modules of src/shared as types only.
  {
    from: element('sw'),
    disallow: anything,
    message: 'The service worker imports only sw/, src/shared, workbox-* and idb-keyval (found {{dependency.source}}).',
  },
  {
    from: element('sw'),
    allow: [{ to: element(['sw', 'shared']) }, packages(['workbox-*', 'idb-keyval', 'zod'])],
  },
  { from: element('sw'), disallow: zodValues, message: zodStaysOut },

  // The client: each layer imports the layers below it, src/shared, styles and packages...
  ...Object.entries(clientLayers).flatMap(([layer, allowed]) => [
    {
      from: element(layer),
      disallow: anything,
      message: `${layer} imports only ${allowed.join(', ') || 'nothing of the client'}, src/shared, src/client/styles and packages (found {{dependency.source}}).`,
    },
    { from: element(layer), allow: [{ to: element(['shared', 'client-styles', ...allowed]) }, { to: { module: { origin: 'external' } } }] },
  ]),
  // ...and these bans hold whatever the table above says.
  {
    from: element('client-feature'),
    disallow: { to: element('client-feature') },
    message:
      'Features do not import each other ({{from.captured.feature}} -> {{to.captured.feature}}), statically or by import(); move the shared part to an entity or compose them in a route.',
  },
  {
    from: element(client.filter((layer) => layer !== 'client-app')),
    disallow: { to: element('client-app') },
    message: 'Nothing in the client imports the app layer (src/client/app: router, layout, main), found {{dependency.source}}.',
  },
  {
    from: element(client.filter((layer) => layer !== 'client-app' && layer !== 'client-route')),
    disallow: { to: element('client-route') },
    message: 'Only the app layer imports routes (found {{dependency.source}}).',
  },
  {
    from: element(client),
    disallow: [
      { to: element([...server, 'sw', 'tests']) },
      { to: { module: { origin: 'core' } } },
      packages(['pg', 'drizzle-orm', 'drizzle-kit', 'fastify', 'fastify-*', '@fastify/*', '@electric-sql/pglite']),
    ],
    message: 'The client runs in browsers: no server, database or Node code (found {{dependency.source}}).',
  },
  { from: element(client), disallow: zodValues, message: zodStaysOut },

  // Ambient declaration files (src/client/env.d.ts) are fine anywhere.
  { allow: { to: { file: { categories: 'declaration' } } } },
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'coverage/**', 'src/server/db/migrations/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      // Under verbatimModuleSyntax `import { type A } from 'x'` still loads 'x' (as `import {} from 'x'`);
      // this turns it into `import type`, which is what the boundaries rules count as a type import.
      '@typescript-eslint/no-import-type-side-effects': 'error',
      eqeqeq: ['error', 'smart'],
    },
  },
  { files: ['src/**', 'sw/**'], rules: { 'no-console': ['error', { allow: ['warn', 'error'] }] } },
  {
    // A function that does one job fits on a screen; a longer one is split into hooks or modules
    // with a job each (and a test each), not waved through.
    files: ['src/**', 'sw/**'],
    rules: { 'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }] },
  },
  {
    files: ['src/client/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    files: ['src/**', 'sw/**', 'tests/**'],
    plugins: { boundaries },
    settings: {
      'import/resolver': resolver,
      'boundaries/root-path': root,
      'boundaries/elements': elements,
      'boundaries/files': files,
      'boundaries/dependency-nodes': ['import', 'export', 'dynamic-import', 'require'],
      // An import nothing resolves stays "local" (not "external"), so no-unknown-dependencies reports it.
      'boundaries/flag-as-external': { unresolvableAlias: false, inNodeModules: true },
      'boundaries/legacy-templates': false,
    },
    rules: {
      'boundaries/dependencies': ['error', { default: 'disallow', checkAllOrigins: true, policies }],
    },
  },
  {
    files: ['src/**', 'sw/**'],
    rules: {
      // Every file belongs to a layer, and every import resolves to a file of a layer or a package.
      'boundaries/no-unknown-files': 'error',
      'boundaries/no-unknown-dependencies': 'error',
      // import() of a computed string would be invisible to the dependency rules.
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ImportExpression:not([source.type="Literal"])',
          message: 'import() takes a string literal, so the layer rules can see what it loads.',
        },
      ],
    },
  },
);
