// @ts-check
// Tollgate's local ESLint rules: boundaries that depend on where the importing file is. CommonJS so
// that both eslint.config.mjs and the jest tests beside it (rules.spec.ts) can load it.
'use strict';
const path = require('node:path');

/** Folders of a feature that other features must not reach into. `api/` and the index are public. */
const FEATURE_INTERNALS = ['components', 'hooks', 'internal'];

/**
 * Calls `check(specifier, node)` for every static import/export/dynamic import of a module.
 * @param {(spec: string, node: import('estree').Node) => void} check
 */
const onImport = (check) => {
  /** @param {any} node */
  const visit = (node) => {
    const src = node.source;
    if (src && src.type === 'Literal' && typeof src.value === 'string') check(src.value, src);
  };
  return {
    ImportDeclaration: visit,
    ExportNamedDeclaration: visit,
    ExportAllDeclaration: visit,
    ImportExpression: visit,
  };
};

/**
 * The plugin for a repository rooted at `root` (paths in the rules are relative to it).
 * @param {string} root
 * @returns {import('eslint').ESLint.Plugin}
 */
function createTollgatePlugin(root) {
  const rel = (/** @type {string} */ file) => path.relative(root, file).split(path.sep).join('/');
  return {
    meta: { name: 'tollgate-local' },
    rules: {
      'no-relative-cross-package': {
        meta: {
          type: 'problem',
          docs: {
            description:
              'Relative imports stay inside their package (apps/<x>, libs/<x>, frontend).',
          },
          schema: [],
          messages: {
            leaves:
              'Relative import leaves {{pkg}}/: import other packages through their @tollgate/* alias so the boundary rules apply (docs/architecture.md#layers).',
          },
        },
        create(context) {
          const file = context.filename;
          const pkg = /^(apps\/[^/]+|libs\/[^/]+|frontend)\//.exec(rel(file))?.[1];
          if (!pkg) return {};
          const pkgDir = path.join(root, pkg);
          return onImport((spec, node) => {
            if (!spec.startsWith('./') && !spec.startsWith('../')) return;
            const target = path.relative(pkgDir, path.resolve(path.dirname(file), spec));
            if (target.startsWith('..') || path.isAbsolute(target)) {
              context.report({ node, messageId: 'leaves', data: { pkg } });
            }
          });
        },
      },
      'no-feature-internals': {
        meta: {
          type: 'problem',
          docs: {
            description: "A console feature does not import another feature's internals.",
          },
          schema: [],
          messages: {
            internal:
              "Feature '{{own}}' reaches into '{{other}}/{{dir}}': use that feature's api/ or index, or move the shared piece to src/components, src/hooks or src/lib (docs/architecture.md#layers).",
          },
        },
        create(context) {
          const file = context.filename;
          const own = /^frontend\/src\/features\/([^/]+)\//.exec(rel(file))?.[1];
          if (!own) return {};
          const srcDir = path.join(root, 'frontend', 'src');
          const featuresDir = path.join(srcDir, 'features');
          return onImport((spec, node) => {
            let target;
            if (spec.startsWith('./') || spec.startsWith('../')) {
              target = path.resolve(path.dirname(file), spec);
            } else if (spec.startsWith('@/')) {
              target = path.join(srcDir, spec.slice(2));
            } else {
              return;
            }
            const [other, dir] = path.relative(featuresDir, target).split(path.sep);
            if (!other || other === '..' || other === own || !dir) return;
            if (FEATURE_INTERNALS.includes(dir)) {
              context.report({ node, messageId: 'internal', data: { own, other, dir } });
            }
          });
        },
      },
    },
  };
}

module.exports = { createTollgatePlugin, FEATURE_INTERNALS };
