// Lint enforces the layer table of docs/architecture.md: a wrong import fails here, not in review.
import js from '@eslint/js';
import globals from 'globals';
import unicorn from 'eslint-plugin-unicorn';
import tseslint from 'typescript-eslint';
import { readFileSync } from 'node:fs';

const LAYERS = 'see the layer table in docs/architecture.md';

const nodeBuiltins = {
  group: ['node:*'],
  message: `The pure core must not touch Node; put I/O in core/src/node (${LAYERS}).`,
};
// The core's layers, lowest first (packages/core/layers.json): each layer's files may import only from
// their own layer and the ones before it. Known violations (issue 9) are allowed per source, nothing else.
const coreLayers = JSON.parse(readFileSync(new URL('packages/core/layers.json', import.meta.url), 'utf8'));
const coreGlobs = (paths) =>
  paths.map((entry) =>
    entry.endsWith('.ts') ? `packages/core/src/${entry}` : `packages/core/src/${entry}/**/*.ts`,
  );
const importGroups = (paths) =>
  paths.flatMap((entry) =>
    entry.endsWith('.ts') ? [`**/${entry.replace(/\.ts$/, '.js')}`] : [`**/${entry}/*`, `**/${entry}/**`],
  );
const childProcess = {
  name: 'node:child_process',
  message: `Processes start only in core/src/node/process/run-command.ts (${LAYERS}).`,
};
/** An import of electron refused, with why (`who` never imports it). */
const noElectron = (who) => ({ name: 'electron', message: `${who} (${LAYERS}).` });
const coreBase = { paths: [childProcess, noElectron('Core never imports electron')] };
/** A zone whose files may not import `paths` (module names) nor `patterns` (globs), each saying why. */
const restrictImports = (files, { paths, patterns }) => ({
  files,
  rules: { 'no-restricted-imports': ['error', patterns === undefined ? { paths } : { paths, patterns }] },
});
/** The no-restricted-imports options for a core source: no layer above `index`, except `allowed` ones. */
function layerRule(index, allowed) {
  const above = coreLayers.layers.slice(index + 1).filter((layer) => !allowed.includes(layer.name));
  const patterns = above.map((layer) => ({
    group: importGroups(layer.paths),
    message: `core/src ${coreLayers.layers[index].name} sits below ${layer.name} in packages/core/layers.json; move the code or the import (${LAYERS}).`,
  }));
  const pure = coreLayers.layers[index].name !== 'node';
  return [
    'error',
    {
      paths: coreBase.paths,
      patterns: pure ? [nodeBuiltins, ...patterns] : patterns,
    },
  ];
}
const layerOf = (from) =>
  coreLayers.layers.findIndex((layer) => layer.name === from || layer.paths.includes(from));
const layerZones = coreLayers.layers
  .filter((layer) => layer.name !== 'node')
  .map((layer, index) => ({
    files: coreGlobs(layer.paths),
    rules: {
      'no-restricted-imports': layerRule(
        index,
        coreLayers.knownViolations.filter((known) => known.from === layer.name).map((known) => known.to),
      ),
    },
  }));
const knownViolationZones = coreLayers.knownViolations
  .filter((known) => layerOf(known.from) === -1)
  .map((known) => {
    const index = coreLayers.layers.findIndex((layer) =>
      layer.paths.some((entry) => known.from.startsWith(`${entry}/`)),
    );
    return {
      files: [`packages/core/src/${known.from}`],
      rules: { 'no-restricted-imports': layerRule(index, [known.to]) },
    };
  });

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      'packages/cli/bundle/**',
      '**/node_modules/**',
      'fixtures/**',
      'schemas/**',
      '**/*.d.ts',
      '.tools/**',
      'test-artifacts/**',
      '.kernel-lane/**', // the kernel lane's work folder (tests/kernel): the unpacked kernel, the packed release
      'packages/desktop/out/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: {
          allowDefaultProject: ['*.js', '*.mjs', '*.ts', 'scripts/*.mjs', 'packages/cli/bin/*.js'],
        },
      },
    },
    plugins: { unicorn },
    rules: {
      curly: ['error', 'all'],
      eqeqeq: ['error', 'always'],
      'unicorn/filename-case': ['error', { case: 'kebabCase' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true },
      ],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/ban-ts-comment': ['error', { minimumDescriptionLength: 10 }],
      'no-restricted-imports': ['error', { paths: [childProcess] }],
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },
  { files: ['**/*.js', '**/*.mjs', '**/*.cjs'], ...tseslint.configs.disableTypeChecked },
  { files: ['**/*.js', '**/*.mjs', '**/*.cjs'], languageOptions: { globals: globals.node } },
  ...layerZones,
  ...knownViolationZones,
  {
    ...restrictImports(['packages/core/src/node/**/*.ts'], coreBase),
    ignores: ['packages/core/src/node/process/**'],
  },
  {
    files: ['packages/core/src/node/process/**/*.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  restrictImports(['packages/cli/src/**/*.ts'], {
    paths: [childProcess, noElectron('The CLI never imports electron')],
    patterns: [
      {
        group: ['@encplan/core/src/*', '**/core/src/**'],
        message: `Use @encplan/core or @encplan/core/node, not deep paths (${LAYERS}).`,
      },
    ],
  }),
  restrictImports(['packages/desktop/src/renderer/**/*.{ts,tsx}'], {
    paths: [
      { name: '@encplan/core/node', message: `The renderer uses only the neutral core entry (${LAYERS}).` },
      noElectron('The renderer never sees Electron'),
    ],
    patterns: [nodeBuiltins],
  }),
  restrictImports(['packages/desktop/src/main/**/*.ts', 'packages/desktop/src/preload/**/*.ts'], {
    paths: [childProcess],
    patterns: [
      { group: ['**/renderer/**'], message: `Main and preload never import the renderer (${LAYERS}).` },
    ],
  }),
  restrictImports(['packages/desktop/src/backend/**/*.ts', 'packages/desktop/src/server/**/*.ts'], {
    paths: [childProcess, noElectron('The wizard back end and encplan ui run without Electron')],
    patterns: [
      { group: ['**/renderer/**'], message: `Back end code never imports the renderer (${LAYERS}).` },
    ],
  }),
  // Shared by the renderer (the fake bridge runs the real handler table), so environment-neutral.
  restrictImports(
    ['packages/desktop/src/shared/**/*.ts', 'packages/desktop/src/backend/bridge-handlers.ts'],
    {
      paths: [
        childProcess,
        noElectron('Shared bridge code never imports electron'),
        {
          name: '@encplan/core/node',
          message: `Shared bridge code uses only the neutral core entry (${LAYERS}).`,
        },
      ],
      patterns: [nodeBuiltins],
    },
  ),
  {
    files: ['**/tests/**/*.ts', 'tests/**/*.ts', 'scripts/**', '**/*.test.ts'],
    rules: {
      'no-restricted-imports': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
);
