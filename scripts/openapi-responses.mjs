#!/usr/bin/env node
// `npm run openapi:responses`: writes apps/gateway/src/openapi/generated/response-schemas.json, the
// JSON Schema of the `data` each console handler answers in its envelope, read by the TypeScript
// checker from the handlers' return types (`ok(value)` → ApiEnvelope<T>) and the contracts lib's
// interfaces. The running gateway puts them in GET /api/openapi.json; nothing is kept by hand.
//
//   node scripts/openapi-responses.mjs            write the file
//   node scripts/openapi-responses.mjs --stdout   print what it would write (the staleness spec)
import { readFileSync, readdirSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import ts from 'typescript';

const root = join(import.meta.dirname, '..');
const SOURCE = join(root, 'apps', 'gateway', 'src');
const CONTRACTS = join(root, 'libs', 'contracts', 'src') + sep;
export const OUTPUT = join(SOURCE, 'openapi', 'generated', 'response-schemas.json');
const REF = '#/components/schemas/';
const HTTP_DECORATORS = new Set([
  'Get',
  'Post',
  'Put',
  'Patch',
  'Delete',
  'All',
  'Options',
  'Head',
]);
const ENVELOPE = 'ApiEnvelope';

/** Non-spec .ts files under apps/gateway/src that declare a controller: the program's roots. */
function controllerFiles(dir) {
  const files = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...controllerFiles(path));
    else if (
      entry.name.endsWith('.ts') &&
      !entry.name.endsWith('.spec.ts') &&
      readFileSync(path, 'utf8').includes('@Controller(')
    )
      files.push(path);
  }
  return files.sort();
}

function createProgram() {
  const configPath = join(root, 'tsconfig.json');
  const { config, error } = ts.readConfigFile(configPath, ts.sys.readFile);
  if (error) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, '\n'));
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, root, undefined, configPath);
  const options = { ...parsed.options, noEmit: true, types: ['node'] };
  return ts.createProgram({ rootNames: controllerFiles(SOURCE), options });
}

const posix = (path) => relative(root, path).split(sep).join('/');
const isContracts = (declaration) => declaration.getSourceFile().fileName.startsWith(CONTRACTS);

/** The decorator's name when it is one of @nestjs/common's (`Get`, `Controller`, …). */
function nestDecorator(checker, decorator) {
  const call = decorator.expression;
  if (!ts.isCallExpression(call) || !ts.isIdentifier(call.expression)) return undefined;
  let symbol = checker.getSymbolAtLocation(call.expression);
  if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  const file = symbol?.declarations?.[0]?.getSourceFile().fileName ?? '';
  return file.includes(`${sep}@nestjs${sep}common${sep}`) ? symbol.name : undefined;
}

const decoratorNames = (checker, node) =>
  (ts.canHaveDecorators(node) ? (ts.getDecorators(node) ?? []) : [])
    .map((d) => nestDecorator(checker, d))
    .filter(Boolean);

/** Keys sorted at every level (arrays keep their order): the same input gives the same bytes. */
function sortKeys(value) {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, sortKeys(value[key])]),
    );
  return value;
}

const stable = (value) => JSON.stringify(sortKeys(value));
const compare = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

/** Converts checker types to JSON Schema; contracts' named types go to `schemas` as $refs. */
class SchemaWriter {
  /** @param {ts.TypeChecker} checker */
  constructor(checker) {
    this.checker = checker;
    this.schemas = {};
    /** Component name → the type it was made from, to catch two types under one name. */
    this.named = new Map();
    /** Anonymous or app-local types being inlined: a type met again inside itself is left open. */
    this.inlining = new Set();
  }

  /** The JSDoc text of one declaration (a type and a const of one name share a symbol). */
  description(declaration) {
    const text = (declaration ? ts.getJSDocCommentsAndTags(declaration) : [])
      .filter(ts.isJSDoc)
      .map((doc) => ts.getTextOfJSDocComment(doc.comment) ?? '')
      .join('\n')
      .trim();
    return text ? { description: text } : {};
  }

  /** A component name for a contracts type (PageOf<UserDto> → PageOfUserDto), or undefined. */
  nameOf(type) {
    const alias = type.aliasSymbol;
    const symbol = alias ?? type.symbol;
    const declaration = symbol?.declarations?.[0];
    if (!declaration || !isContracts(declaration)) return undefined;
    if (!alias && !(symbol.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.Enum)))
      return undefined;
    const args = alias
      ? (type.aliasTypeArguments ?? [])
      : type.objectFlags & ts.ObjectFlags.Reference
        ? this.checker.getTypeArguments(type)
        : [];
    const argNames = args.map((arg) => this.argName(arg));
    if (argNames.some((n) => n === undefined)) return undefined;
    return symbol.name + argNames.join('');
  }

  argName(type) {
    if (type.flags & ts.TypeFlags.String) return 'String';
    if (type.flags & ts.TypeFlags.Number) return 'Number';
    if (type.flags & ts.TypeFlags.Boolean) return 'Boolean';
    if (this.checker.isArrayType(type)) {
      const item = this.argName(this.checker.getTypeArguments(type)[0]);
      return item && `${item}Array`;
    }
    return this.nameOf(type);
  }

  /** The schema of a type: a $ref for contracts' named types, inline otherwise. */
  schemaOf(type) {
    const name = this.nameOf(type);
    if (name === undefined) return this.inline(type);
    const known = this.named.get(name);
    if (known !== undefined && known !== type)
      throw new Error(`two contracts types would both be the schema ${name}`);
    if (known === undefined) {
      this.named.set(name, type);
      this.schemas[name] = {}; // placeholder: a type that contains itself refers to its name
      const symbol = type.aliasSymbol ?? type.symbol;
      const declaration = symbol.declarations?.find(
        (d) =>
          ts.isTypeAliasDeclaration(d) || ts.isInterfaceDeclaration(d) || ts.isEnumDeclaration(d),
      );
      this.schemas[name] = { ...this.description(declaration), ...this.inline(type) };
    }
    return { $ref: `${REF}${name}` };
  }

  inline(type) {
    const { flags } = type;
    const checker = this.checker;
    if (flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown | ts.TypeFlags.Never)) return {};
    if (flags & ts.TypeFlags.TypeParameter) return {};
    if (flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Void)) return {};
    if (flags & ts.TypeFlags.Null) return { type: 'null' };
    if (flags & ts.TypeFlags.BooleanLiteral)
      return { type: 'boolean', const: type === checker.getTrueType() };
    if (flags & ts.TypeFlags.StringLiteral) return { type: 'string', const: type.value };
    if (flags & ts.TypeFlags.NumberLiteral)
      return { type: Number.isInteger(type.value) ? 'integer' : 'number', const: type.value };
    if (flags & ts.TypeFlags.StringLike) return { type: 'string' };
    if (flags & ts.TypeFlags.NumberLike) return { type: 'number' };
    if (flags & ts.TypeFlags.BigIntLike) return { type: 'integer' };
    if (flags & ts.TypeFlags.BooleanLike) return { type: 'boolean' };
    if (flags & ts.TypeFlags.Union) return this.union(type.types);
    if (flags & ts.TypeFlags.Intersection) {
      const primitive = type.types.find((t) => t.flags & ts.TypeFlags.Primitive);
      if (primitive) return this.inline(primitive);
    }
    // The standard library's Date (JSON.stringify writes its ISO string).
    const declarations = type.symbol?.declarations ?? [];
    if (
      type.symbol?.name === 'Date' &&
      declarations.length > 0 &&
      declarations.every((d) => d.getSourceFile().hasNoDefaultLib)
    )
      return { type: 'string', format: 'date-time' };
    if (checker.isTupleType(type)) {
      const { elementFlags, minLength } = type.target;
      const elements = checker.getTypeArguments(type).map((t) => this.schemaOf(t));
      const variable = (i) => elementFlags[i] & (ts.ElementFlags.Rest | ts.ElementFlags.Variadic);
      const fixed = elements.filter((_, i) => !variable(i));
      const rest = elements.find((_, i) => variable(i));
      return {
        type: 'array',
        ...(fixed.length > 0 && { prefixItems: fixed }),
        ...(rest ? { items: rest } : { maxItems: fixed.length }),
        ...(minLength > 0 && { minItems: minLength }),
      };
    }
    if (checker.isArrayType(type))
      return { type: 'array', items: this.schemaOf(checker.getTypeArguments(type)[0]) };
    if (flags & (ts.TypeFlags.Object | ts.TypeFlags.Intersection)) return this.object(type);
    return {};
  }

  union(members) {
    const kept = members.filter((t) => !(t.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Void)));
    const bools = kept.filter((t) => t.flags & ts.TypeFlags.BooleanLiteral);
    const strings = kept.filter((t) => t.flags & ts.TypeFlags.StringLiteral);
    const numbers = kept.filter((t) => t.flags & ts.TypeFlags.NumberLiteral);
    const hasNull = kept.some((t) => t.flags & ts.TypeFlags.Null);
    const rest = kept.filter(
      (t) =>
        !(
          t.flags &
          (ts.TypeFlags.BooleanLiteral |
            ts.TypeFlags.StringLiteral |
            ts.TypeFlags.NumberLiteral |
            ts.TypeFlags.Null)
        ),
    );
    if (kept.length === 0) return {};
    const parts = rest.map((t) => this.schemaOf(t));
    if (bools.length === 2) parts.push({ type: 'boolean' });
    else if (bools.length === 1) parts.push(this.inline(bools[0]));
    if (strings.length > 0)
      parts.push({ type: 'string', enum: strings.map((t) => t.value).sort(compare) });
    if (numbers.length > 0) {
      const values = numbers.map((t) => t.value).sort((a, b) => a - b);
      parts.push({ type: values.every(Number.isInteger) ? 'integer' : 'number', enum: values });
    }
    // A lone literal stays a const; an enum of one is the same thing.
    const single = parts.map((p) =>
      Array.isArray(p.enum) && p.enum.length === 1 ? { type: p.type, const: p.enum[0] } : p,
    );
    if (parts.some((p) => Object.keys(p).length === 0)) return {};
    const open = (p) => Object.keys(p).every((k) => k === 'type') && typeof p.type === 'string';
    if (single.every(open)) {
      const types = [...new Set(single.map((p) => p.type))].sort(compare);
      if (hasNull) types.push('null');
      return { type: types.length === 1 ? types[0] : types };
    }
    if (hasNull && single.length === 1 && Array.isArray(single[0].enum) && !single[0].$ref)
      return { type: [single[0].type, 'null'], enum: [...single[0].enum, null] };
    const anyOf = [...single, ...(hasNull ? [{ type: 'null' }] : [])];
    if (anyOf.length === 1) return anyOf[0];
    return { anyOf: anyOf.sort((a, b) => compare(stable(a), stable(b))) };
  }

  object(type) {
    const checker = this.checker;
    if (this.inlining.has(type)) return {};
    this.inlining.add(type);
    try {
      const properties = {};
      const required = [];
      for (const property of checker.getPropertiesOfType(type)) {
        const declaration = property.valueDeclaration ?? property.declarations?.[0];
        const propertyType = declaration
          ? checker.getTypeOfSymbolAtLocation(property, declaration)
          : checker.getTypeOfSymbol(property);
        // Methods are not JSON.
        if (
          property.flags & ts.SymbolFlags.Method ||
          (propertyType.getCallSignatures().length > 0 && propertyType.getProperties().length === 0)
        )
          continue;
        const optional =
          property.flags & ts.SymbolFlags.Optional ||
          (propertyType.flags & ts.TypeFlags.Union &&
            propertyType.types.some((t) => t.flags & ts.TypeFlags.Undefined)) ||
          propertyType.flags & ts.TypeFlags.Undefined;
        if (!optional) required.push(property.name);
        const schema = this.schemaOf(propertyType);
        const doc = this.description(declaration);
        properties[property.name] =
          doc.description && Object.keys(schema).length > 0 ? { ...schema, ...doc } : schema;
      }
      const index = checker.getIndexInfoOfType(type, ts.IndexKind.String);
      const numberIndex = checker.getIndexInfoOfType(type, ts.IndexKind.Number);
      const additional = index ?? numberIndex;
      return {
        type: 'object',
        ...(Object.keys(properties).length > 0 && { properties }),
        ...(required.length > 0 && { required: required.sort(compare) }),
        ...(additional && { additionalProperties: this.schemaOf(additional.type) }),
      };
    } finally {
      this.inlining.delete(type);
    }
  }
}

/** The data type of an envelope type (ApiEnvelope<T> → T), or undefined when it is no envelope. */
function envelopeData(checker, type) {
  const parts =
    type.flags & ts.TypeFlags.Union && !type.aliasSymbol
      ? type.types.filter((t) => !(t.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Void)))
      : [type];
  const data = [];
  for (const part of parts) {
    const symbol = part.aliasSymbol ?? part.symbol;
    const declaration = symbol?.declarations?.[0];
    if (symbol?.name !== ENVELOPE || !declaration || !isContracts(declaration)) return undefined;
    const args = part.aliasTypeArguments ?? checker.getTypeArguments(part);
    data.push(args[0]);
  }
  return data;
}

/**
 * An answer with `success` and `message` at the top but more than `data` beside them (a channel
 * test's `time`, the pricing's `group_ratio`): documented whole, not as ApiEnvelope<T>.
 */
function isEnvelopeShaped(checker, type) {
  if (!(type.flags & ts.TypeFlags.Object)) return false;
  const names = checker.getPropertiesOfType(type).map((p) => p.name);
  return names.includes('success') && names.includes('message');
}

/**
 * Every controller handler's answer: `routes["UsersController.get"]` is the schema of the data it
 * answers in its envelope, `answers[…]` the whole answer of an envelope-shaped type with more
 * fields; `plain[…]` names the type of a handler that answers anything else (text, a raw
 * document, a redirect), also listed in `skipped`.
 */
export function generate(skipped = []) {
  const program = createProgram();
  const checker = program.getTypeChecker();
  const writer = new SchemaWriter(checker);
  const routes = {};
  const answers = {};
  const plain = {};
  const roots = new Set(program.getRootFileNames());
  for (const file of program.getSourceFiles()) {
    if (!roots.has(file.fileName)) continue;
    ts.forEachChild(file, function visit(node) {
      if (!ts.isClassDeclaration(node) || !node.name) return;
      if (!decoratorNames(checker, node).includes('Controller')) return;
      const classType = checker.getTypeAtLocation(node);
      for (const property of checker.getPropertiesOfType(classType)) {
        const method = property.valueDeclaration;
        if (!method || !ts.isMethodDeclaration(method)) continue;
        if (!decoratorNames(checker, method).some((d) => HTTP_DECORATORS.has(d))) continue;
        const signature = checker.getSignatureFromDeclaration(method);
        if (!signature) continue;
        const answer = checker.getAwaitedType(checker.getReturnTypeOfSignature(signature));
        const key = `${node.name.text}.${property.name}`;
        const data = answer && envelopeData(checker, answer);
        if (data)
          routes[key] =
            data.length === 1 ? writer.schemaOf(data[0]) : writer.union(data.flatMap(flatten));
        else if (answer && isEnvelopeShaped(checker, answer))
          answers[key] = writer.schemaOf(answer);
        else {
          plain[key] = checker.typeToString(answer);
          skipped.push(`${key}: ${plain[key]}`);
        }
      }
    });
  }
  return sortKeys({
    $comment: `Generated by scripts/openapi-responses.mjs (npm run openapi:responses) from the controllers' return types and ${posix(CONTRACTS)}; do not edit.`,
    schemas: writer.schemas,
    routes,
    answers,
    plain,
  });
}

const flatten = (type) => (type.flags & ts.TypeFlags.Union ? type.types : [type]);

export const serialize = (document) => `${JSON.stringify(document, null, 2)}\n`;

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  const skipped = [];
  const document = generate(skipped);
  const text = serialize(document);
  if (process.argv.includes('--stdout')) process.stdout.write(text);
  else {
    mkdirSync(dirname(OUTPUT), { recursive: true });
    writeFileSync(OUTPUT, text);
    const { routes, answers, schemas } = document;
    const open = Object.entries(routes).filter(([, s]) => Object.keys(s).length === 0);
    console.log(
      [
        `${posix(OUTPUT)}: ${Object.keys(schemas).length} schemas;`,
        `${Object.keys(routes).length - open.length} handlers with a data schema,`,
        `${Object.keys(answers).length} with a whole-answer schema,`,
        `${open.length} with open data (ok() or unknown): ${open.map(([k]) => k).join(', ')};`,
        `${skipped.length} answering no envelope:\n  ${skipped.join('\n  ')}`,
      ].join('\n'),
    );
  }
}
