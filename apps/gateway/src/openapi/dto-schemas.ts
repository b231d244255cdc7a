import {
  targetConstructorToSchema,
  validationMetadatasToSchemas,
} from 'class-validator-jsonschema';
import type { DtoClass } from './api-route';

export type JsonSchema = Record<string, unknown>;

export const SCHEMA_REF = '#/components/schemas/';

const ref = (name: string): JsonSchema => ({ $ref: `${SCHEMA_REF}${name}` });

/** Names of the schemas a schema points at ($ref), anywhere inside it. */
function refsIn(schema: unknown, into: Set<string>): Set<string> {
  if (Array.isArray(schema)) for (const item of schema) refsIn(item, into);
  else if (schema && typeof schema === 'object')
    for (const [key, value] of Object.entries(schema))
      if (key === '$ref' && typeof value === 'string' && value.startsWith(SCHEMA_REF))
        into.add(value.slice(SCHEMA_REF.length));
      else refsIn(value, into);
  return into;
}

/**
 * JSON schemas of the request DTOs, from their class-validator decorators (the rules the
 * validation pipe applies): each class under its name, and the classes they nest.
 */
export class DtoSchemas {
  readonly components: Record<string, JsonSchema> = {};
  private readonly classes = new Map<string, DtoClass>();
  /** Every validated class's schema, for the nested ones a DTO points at. */
  private all?: Record<string, JsonSchema>;

  /** The schema of one class: the class's own rules; a class without any is a plain object. */
  schemaOf(dto: DtoClass): JsonSchema {
    const name = dto.name;
    const known = this.classes.get(name);
    if (known && known !== dto) throw new Error(`two request DTO classes are named ${name}`);
    if (!known) {
      this.classes.set(name, dto);
      const schema = targetConstructorToSchema(dto, { refPointerPrefix: SCHEMA_REF }) as JsonSchema;
      this.components[name] = Object.keys(schema).length > 0 ? schema : { type: 'object' };
      this.addNested(schema);
    }
    return ref(name);
  }

  /** A query DTO as OpenAPI query parameters, one per validated property. */
  queryParameters(dto: DtoClass): JsonSchema[] {
    this.schemaOf(dto);
    const schema = this.components[dto.name] as {
      properties?: Record<string, JsonSchema>;
      required?: string[];
    };
    return Object.entries(schema.properties ?? {}).map(([name, property]) => ({
      name,
      in: 'query',
      required: schema.required?.includes(name) ?? false,
      schema: property,
    }));
  }

  private addNested(schema: JsonSchema): void {
    for (const name of refsIn(schema, new Set())) {
      if (this.components[name]) continue;
      this.all ??= validationMetadatasToSchemas({ refPointerPrefix: SCHEMA_REF }) as Record<
        string,
        JsonSchema
      >;
      const nested = this.all[name] ?? { type: 'object' };
      this.components[name] = nested;
      this.addNested(nested);
    }
  }
}
