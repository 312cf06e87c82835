// @ts-check
import js from '@eslint/js';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// Regexes, not globs: a glob like 'fs' would also match a relative './fs'.
const banNode = {
  regex: '^(node:.*|fs|fs/promises|path|os|child_process|crypto|http|https|net|stream|url|util|worker_threads)$',
  message: 'Node APIs belong in main/ (only main/ runs in Node).',
};
const banElectron = { regex: '^electron(/.*)?$', message: 'Only main/electron/ and preload/ may import Electron.' };
const banUi = { regex: '^(react|react-dom|zustand)(/.*)?$', message: 'shared/ has no UI.' };

/**
 * The layers point one way: renderer → preload → shared ← main. These zones make the linter,
 * not memory, hold that line (main/layering.test.ts proves each rule fires).
 */
const layerZones = [
  {
    target: './renderer',
    from: ['./main', './preload', './e2e', './bench'],
    message: 'The renderer talks to main only through window.familiar (renderer/ipc).',
  },
  {
    target: './main',
    from: ['./renderer', './preload', './e2e'],
    message: 'main/ must not depend on renderer/, preload/ or e2e/.',
  },
  { target: './preload', from: ['./main', './renderer'], message: 'preload/ may use only shared/ and Electron.' },
  {
    target: './shared',
    from: ['./main', './renderer', './preload', './e2e', './bench'],
    message: 'shared/ is the contract: it imports nothing of the layers that use it.',
  },
];

export default tseslint.config(
  {
    ignores: [
      'out/**',
      'dist/**',
      'node_modules/**',
      'test-results/**',
      'playwright-report/**',
      'bench/.corpus/**',
      'build/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver': { node: { extensions: ['.ts', '.tsx', '.js', '.mjs'] } } },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/only-throw-error': 'error',
      'import-x/no-restricted-paths': ['error', { zones: layerZones }],
      'import-x/no-default-export': 'error',
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.name='require']", message: 'Use ES imports.' },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      parserOptions: { projectService: false, project: null },
      globals: globals.node,
    },
  },
  {
    files: ['shared/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [banNode, banElectron, banUi] }] },
  },
  {
    files: ['renderer/**'],
    languageOptions: { globals: globals.browser },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': ['error', { patterns: [banNode, banElectron] }],
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.name='window'][property.name='familiar']",
          message: 'Only renderer/ipc/ touches window.familiar.',
        },
      ],
    },
  },
  {
    files: ['renderer/ipc/**'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    files: ['main/**'],
    ignores: ['main/electron/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [banElectron] }] },
  },
  {
    files: ['preload/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [banNode] }] },
  },
  {
    // Tools expect default exports from their config files; React.lazy needs them at lazy boundaries.
    files: ['*.config.ts', '*.config.js', 'e2e/global-setup.ts', 'renderer/**/*.lazy.tsx'],
    rules: { 'import-x/no-default-export': 'off' },
  },
);
