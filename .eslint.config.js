// ESLint flat config. It sits in a dotfile because the top level of the repository is fixed
// by the design card; `npm run lint` passes it explicitly.
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const features = readdirSync(new URL('./src/client/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** What no client file may import. Later blocks repeat it: a later block replaces the rule. */
const clientWide = [
  ['**/server/**', 'The client never imports the server.'],
  ['node:*', 'The client runs in browsers.'],
  {
    group: ['**/shared/api.ts', '\\#shared/api.ts', '**/shared/schemas.ts', '\\#shared/schemas.ts', 'zod'],
    allowTypeImports: true,
    message: 'zod stays out of browsers: import types only, and call request(endpoints.x, ...) from src/shared/endpoints.ts.',
  },
];

/** One import restriction per layer: the dependency direction of DESIGN.md section 2. */
const restrict = (files, patterns) => ({
  files,
  rules: {
    '@typescript-eslint/no-restricted-imports': [
      'error',
      {
        patterns: patterns.map((entry) =>
          Array.isArray(entry) ? { group: entry.slice(0, -1), message: entry.at(-1) } : entry,
        ),
      },
    ],
  },
});

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'coverage/**', 'src/server/db/migrations/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      eqeqeq: ['error', 'smart'],
    },
  },
  { files: ['src/**', 'sw/**'], rules: { 'no-console': ['error', { allow: ['warn', 'error'] }] } },
  {
    files: ['src/client/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  restrict(
    ['src/shared/**'],
    [
      ['../*', 'src/shared imports nothing outside itself.'],
      ['node:*', 'src/shared is pure TypeScript: no Node.'],
      ['react', 'src/shared is pure TypeScript: no UI.'],
    ],
  ),
  restrict(
    ['src/server/**'],
    [
      ['**/client/**', 'The server never imports the client.'],
      ['react', 'The server never imports the client.'],
    ],
  ),
  restrict(
    ['sw/**'],
    [
      ['**/client/**', 'The service worker shares only src/shared with the app.'],
      ['**/server/**', 'The service worker shares only src/shared with the app.'],
      {
        group: ['**/shared/api.ts', '**/shared/schemas.ts', 'zod'],
        allowTypeImports: true,
        message: 'zod stays out of browsers: use the route table in src/shared/endpoints.ts.',
      },
    ],
  ),
  restrict(['src/client/**'], clientWide),
  restrict(['src/client/lib/**', 'src/client/format/**', 'src/client/platform/**'], [
    ['**/ui/**', 'lib, format and platform sit below ui: raise typed errors or events instead.'],
    ['**/features/**', 'lib, format and platform sit below features.'],
    ['**/routes/**', 'lib, format and platform sit below routes.'],
    ['**/router*', 'lib, format and platform sit below the router.'],
    ...clientWide,
  ]),
  restrict(['src/client/ui/**'], [
    ['**/features/**', 'ui is shared by features and imports none of them.'],
    ['**/routes/**', 'ui sits below routes.'],
    ['**/router*', 'ui sits below the router.'],
    ...clientWide,
  ]),
  ...features.map((feature) =>
    restrict(
      [`src/client/features/${feature}/**`],
      [
        ...features
          .filter((other) => other !== feature)
          .map((other) => [
            `**/features/${other}/**`,
            // A sibling feature is reached by a relative path that never names "features".
            `../${other}/**`,
            `../../${other}/**`,
            `Features do not import each other (${feature} -> ${other}); compose them in a route.`,
          ]),
        ['**/routes/**', 'Features sit below routes.'],
        ...clientWide,
      ],
    ),
  ),
);
