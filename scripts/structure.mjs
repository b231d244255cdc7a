#!/usr/bin/env node
// The shape of the code, measured from its imports and lengths (docs/architecture.md, "Measuring
// the structure"):
//   - per source root, the folder graph: its knots (folders that import each other in a circle,
//     directly or around) and the imports that run back up against the best folder order found;
//   - production files over the line limit, functions over theirs.
// Usage: node scripts/structure.mjs [--max-file 450] [--max-function 80] [--json]
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const root = path.resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 ? Number(args[at + 1]) : fallback;
};
const MAX_FILE = option('--max-file', 450);
const MAX_FUNCTION = option('--max-function', 80);

/** The source roots whose folders are measured, and how a file names its unit (folder). */
const ROOTS = [
  { dir: 'apps/gateway/src', unit: (rel) => (rel.includes('/') ? rel.split('/')[0] : '.') },
  {
    dir: 'frontend/src',
    unit: (rel) => {
      const parts = rel.split('/');
      if (parts.length === 1) return '.';
      return parts[0] === 'features' && parts.length > 2 ? `features/${parts[1]}` : parts[0];
    },
  },
];

const SKIP_DIRS = new Set(['node_modules', 'dist', 'coverage', 'test-artifacts']);
const isTest = (file) =>
  /\.(spec|test)\.tsx?$/.test(file) ||
  /(^|\/)(test|testing)\//.test(file) ||
  file.startsWith('test/') ||
  file.startsWith('tools/');

function walk(dir, out = []) {
  for (const name of readdirSync(dir)) {
    if (SKIP_DIRS.has(name) || name.startsWith('.')) continue;
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) walk(full, out);
    else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

const IMPORT =
  /(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

/** Resolves a relative or `@tollgate/gateway/*` / `@/` specifier to a path relative to `base`. */
function resolveWithin(base, fromFile, spec) {
  let target;
  if (spec.startsWith('.')) target = path.resolve(path.dirname(fromFile), spec);
  else if (spec.startsWith('@tollgate/gateway/') && base.endsWith('apps/gateway/src'))
    target = path.join(base, spec.slice('@tollgate/gateway/'.length));
  else if (spec.startsWith('@/') && base.endsWith('frontend/src'))
    target = path.join(base, spec.slice(2));
  else return undefined;
  const rel = path.relative(base, target);
  return rel.startsWith('..') ? undefined : rel.split(path.sep).join('/');
}

/** Tarjan's strongly connected components. */
function knots(nodes, edges) {
  let index = 0;
  const stack = [];
  const info = new Map();
  const out = [];
  const visit = (v) => {
    info.set(v, { index, low: index, on: true });
    index += 1;
    stack.push(v);
    for (const w of edges.get(v)?.keys() ?? []) {
      if (!info.has(w)) {
        visit(w);
        info.get(v).low = Math.min(info.get(v).low, info.get(w).low);
      } else if (info.get(w).on) info.get(v).low = Math.min(info.get(v).low, info.get(w).index);
    }
    if (info.get(v).low === info.get(v).index) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        info.get(w).on = false;
        component.push(w);
      } while (w !== v);
      if (component.length > 1) out.push(component.sort());
    }
  };
  for (const v of nodes) if (!info.has(v)) visit(v);
  return out;
}

/**
 * An order of the folders, importers before what they import, with few imports against it: greedy
 * (sources first, sinks last, else the folder with the most weight out over in), then single moves
 * while they lower the count. The count is the "imports running back up".
 */
function backwardImports(nodes, edges) {
  const weight = (a, b) => edges.get(a)?.get(b) ?? 0;
  const left = new Set(nodes);
  const head = [];
  const tail = [];
  const degree = (v, dir) =>
    [...left].reduce((s, w) => s + (dir === 'out' ? weight(v, w) : weight(w, v)), 0) -
    (dir === 'out' ? weight(v, v) : weight(v, v));
  while (left.size > 0) {
    let moved = true;
    while (moved) {
      moved = false;
      for (const v of [...left]) {
        if (degree(v, 'out') === 0) {
          tail.unshift(v);
          left.delete(v);
          moved = true;
        } else if (degree(v, 'in') === 0) {
          head.push(v);
          left.delete(v);
          moved = true;
        }
      }
    }
    if (left.size === 0) break;
    const best = [...left].sort(
      (a, b) => degree(b, 'out') - degree(b, 'in') - (degree(a, 'out') - degree(a, 'in')),
    )[0];
    head.push(best);
    left.delete(best);
  }
  let order = [...head, ...tail];
  const cost = (o) => {
    let c = 0;
    o.forEach((v, i) => o.slice(0, i).forEach((u) => (c += weight(v, u))));
    return c;
  };
  let current = cost(order);
  for (let improved = true; improved;) {
    improved = false;
    for (let i = 0; i < order.length; i += 1) {
      for (let j = 0; j < order.length; j += 1) {
        if (i === j) continue;
        const next = [...order];
        const [v] = next.splice(i, 1);
        next.splice(j, 0, v);
        const c = cost(next);
        if (c < current) {
          order = next;
          current = c;
          improved = true;
        }
      }
    }
  }
  const back = [];
  order.forEach((v, i) =>
    order.slice(0, i).forEach((u) => {
      if (weight(v, u) > 0) back.push({ from: v, to: u, imports: weight(v, u) });
    }),
  );
  return { count: current, back };
}

function measureRoot({ dir, unit }) {
  const base = path.join(root, dir);
  const files = walk(base).filter((f) => !isTest(path.relative(root, f)));
  const edges = new Map();
  const nodes = new Set();
  for (const file of files) {
    const from = unit(path.relative(base, file).split(path.sep).join('/'));
    nodes.add(from);
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(IMPORT)) {
      const target = resolveWithin(base, file, match[1] ?? match[2]);
      if (target === undefined) continue;
      const to = unit(target.includes('/') ? target : target);
      if (to === from) continue;
      nodes.add(to);
      const row = edges.get(from) ?? new Map();
      row.set(to, (row.get(to) ?? 0) + 1);
      edges.set(from, row);
    }
  }
  const { count, back } = backwardImports([...nodes].sort(), edges);
  return {
    dir,
    folders: nodes.size,
    knots: knots([...nodes].sort(), edges),
    backImports: count,
    back,
  };
}

/** Functions (declarations, methods, arrows, function expressions) longer than the limit. */
function longFunctions(file, text) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found = [];
  const visit = (node) => {
    if (
      ts.isFunctionDeclaration(node) ||
      ts.isMethodDeclaration(node) ||
      ts.isConstructorDeclaration(node) ||
      ts.isArrowFunction(node) ||
      ts.isFunctionExpression(node) ||
      ts.isGetAccessor(node) ||
      ts.isSetAccessor(node)
    ) {
      if (node.body) {
        const start = source.getLineAndCharacterOfPosition(node.getStart()).line;
        const end = source.getLineAndCharacterOfPosition(node.end).line;
        if (end - start + 1 > MAX_FUNCTION) {
          const name =
            node.name?.getText() ??
            (ts.isVariableDeclaration(node.parent) ? node.parent.name.getText() : '(anonymous)');
          found.push({ file, line: start + 1, name, lines: end - start + 1 });
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Data tables (lists of prices, providers, messages) are allowed to be long. */
const isDataTable = (file, text) =>
  /(^|\/)(locales|messages)(\/|\.)|\.data\.ts$|-table\.ts$|\/data\//.test(file) ||
  /^\/\/ data table/m.test(text);

function measureLengths() {
  const files = ['apps', 'libs', 'frontend/src', 'tools', 'scripts']
    .flatMap((d) => walk(path.join(root, d)))
    .map((f) => path.relative(root, f).split(path.sep).join('/'))
    .filter((f) => !isTest(f) || f.startsWith('tools/') || f.startsWith('scripts/'))
    .filter((f) => !isTest(f));
  const longFiles = [];
  const functions = [];
  for (const file of files) {
    const text = readFileSync(path.join(root, file), 'utf8');
    const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
    if (lines > MAX_FILE && !isDataTable(file, text)) longFiles.push({ file, lines });
    functions.push(...longFunctions(file, text));
  }
  return {
    longFiles: longFiles.sort((a, b) => b.lines - a.lines),
    functions: functions.sort((a, b) => b.lines - a.lines),
  };
}

const roots = ROOTS.map(measureRoot);
const lengths = measureLengths();
if (args.includes('--json')) {
  console.log(JSON.stringify({ roots, ...lengths }, null, 2));
} else {
  for (const r of roots) {
    const largest = Math.max(0, ...r.knots.map((k) => k.length));
    console.log(
      `${r.dir}: ${r.folders} folders, ${r.backImports} imports running back up, largest knot ${largest} folders`,
    );
    for (const k of r.knots) console.log(`  knot: ${k.join(' ')}`);
    for (const b of r.back.sort((a, c) => c.imports - a.imports))
      console.log(`  back up: ${b.from} -> ${b.to} (${b.imports})`);
  }
  console.log(`production files over ${MAX_FILE} lines: ${lengths.longFiles.length}`);
  for (const f of lengths.longFiles) console.log(`  ${f.file} ${f.lines}`);
  console.log(`functions over ${MAX_FUNCTION} lines: ${lengths.functions.length}`);
  for (const f of lengths.functions) console.log(`  ${f.file}:${f.line} ${f.name} ${f.lines}`);
}
