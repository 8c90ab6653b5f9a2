import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PROVIDER_EVENT_TYPES } from '#schemas/import.ts';
import { IMPORT_SCHEMA_FILE, importJsonSchema } from '../../infra/build-docs.ts';

/** The committed JSON Schema of the import format is generated from the zod schemas and must stay so. */
describe('docs/import.schema.json', () => {
  it('equals a fresh generation from the import zod schemas (run `npm run build` after changing them)', () => {
    const committed: unknown = JSON.parse(readFileSync(IMPORT_SCHEMA_FILE, 'utf8'));
    expect(committed).toStrictEqual(JSON.parse(JSON.stringify(importJsonSchema())));
  });

  it('names the provider event, the line format of `events record`, and uses it for the events section', () => {
    const schema = importJsonSchema() as {
      properties: Record<string, { items?: { $ref?: string } }>;
      $defs: Record<string, { oneOf?: { properties: { type: { const: string } } }[] }>;
    };
    expect(Object.keys(schema.properties)).toEqual([
      'campaigns',
      'accounts',
      'contacts',
      'assignments',
      'messages',
      'events',
      'jobs',
      'exclusions',
    ]);
    expect(schema.properties.events?.items?.$ref).toBe('#/$defs/ProviderEvent');
    const types = schema.$defs.ProviderEvent?.oneOf?.map((variant) => variant.properties.type.const);
    expect(types).toEqual([...PROVIDER_EVENT_TYPES]);
  });
});
