import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { openApiDocument } from '#api/openapi/document.ts';
import { WEBHOOK_EXAMPLES } from '#api/openapi/examples.ts';
import type { Json } from '#api/openapi/operations.ts';
import { DOMAIN_PATTERN, domainString } from '#schemas/params.ts';
import { ADDRESS_LIST_PATTERN, replyEndpoint } from '#schemas/replies.ts';
import { webhookPayload } from '#schemas/webhooks.ts';

/**
 * The OpenAPI document's examples and the formats and patterns it gives checked fields: every
 * example is valid against the schema it illustrates, none is a safe-integer bound, and each
 * pattern is never stricter than the check it describes (whatever the service accepts matches it).
 */

const document = openApiDocument('https://api.example.com/dev');
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(document, 'openapi');

/** Every `examples` of a schema node and `example` of a media type, with its JSON pointer. */
function examplesIn(
  node: unknown,
  pointer = '',
): { pointer: string; schemaPointer: string; value: unknown }[] {
  if (typeof node !== 'object' || node === null) return [];
  const found: { pointer: string; schemaPointer: string; value: unknown }[] = [];
  const object = node as Json;
  if (Array.isArray(object.examples) && typeof object.type !== 'undefined')
    for (const value of object.examples) found.push({ pointer, schemaPointer: pointer, value });
  if (Array.isArray(object.examples) && object.type === undefined && object.anyOf)
    for (const value of object.examples) found.push({ pointer, schemaPointer: pointer, value });
  if ('example' in object && object.schema)
    found.push({ pointer, schemaPointer: `${pointer}/schema`, value: object.example });
  for (const [key, child] of Object.entries(object)) {
    if (key === 'examples' || key === 'example') continue;
    found.push(...examplesIn(child, `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`));
  }
  return found;
}

describe('the examples of the OpenAPI document', () => {
  const examples = examplesIn(document);

  it('are many: every id, count, email and domain of the resources has one', () => {
    expect(examples.length).toBeGreaterThan(200);
    const schemas = document.components.schemas as Record<string, { properties: Record<string, Json> }>;
    for (const [component, field] of [
      ['Account', 'id'],
      ['Account', 'domain'],
      ['CampaignStats', 'sent'],
      ['Contact', 'email'],
      ['WebhookDelivery', 'latency_ms'],
      ['AnalyticsOverview', 'total_campaigns'],
    ] as const)
      expect({ component, field, examples: schemas[component]!.properties[field]!.examples }).toMatchObject({
        examples: [expect.anything()],
      });
  });

  it('are each valid against the schema they illustrate', () => {
    const invalid = examples.flatMap(({ pointer, schemaPointer, value }) => {
      const validate = ajv.compile({ $ref: `openapi#${schemaPointer}` });
      return validate(value) ? [] : [`${pointer}: ${ajv.errorsText(validate.errors)}`];
    });
    expect(invalid).toEqual([]);
  });

  it('are never a safe-integer bound, and the service’s own integers start at 0 or 1', () => {
    const text = JSON.stringify(document);
    for (const { value } of examples) expect(JSON.stringify(value)).not.toMatch(/9007199254740991/);
    const outsideTheSdk = JSON.stringify({
      ...document,
      components: { ...document.components, schemas: {} },
    });
    expect(outsideTheSdk).not.toContain('-9007199254740991');
    expect(text).toContain('"minimum":1');
  });

  it('include a whole payload of every webhook event, which the payload schema accepts', () => {
    for (const [type, item] of Object.entries(document.webhooks)) {
      const body = (item.post.requestBody as Json).content as Record<string, Json>;
      expect(body['application/json']!.example).toEqual(
        WEBHOOK_EXAMPLES[type as keyof typeof WEBHOOK_EXAMPLES],
      );
      expect(
        z.safeParse(webhookPayload, WEBHOOK_EXAMPLES[type as keyof typeof WEBHOOK_EXAMPLES]).success,
      ).toBe(true);
    }
  });
});

describe('the patterns the document gives checked fields', () => {
  const domainPattern = new RegExp(DOMAIN_PATTERN, 'u');
  const addressPattern = new RegExp(ADDRESS_LIST_PATTERN, 'u');
  const domainText = fc.string({
    unit: fc.constantFrom(...'aZ0-.。．｡%2Ee3Ff/:@ üw'.split(''), 'www.', 'http://', '%2E', '%E3%80%82'),
    maxLength: 30,
  });

  it('a domain: whatever the service takes as one matches it', () => {
    fc.assert(
      fc.property(
        domainText,
        (input) => !z.safeParse(domainString, input).success || domainPattern.test(input),
      ),
      { numRuns: 3000 },
    );
    for (const accepted of ['acme.com', 'https://www.Acme.com/about', 'bücher。de', 'http://acme%2Ecom'])
      expect({
        accepted,
        parsed: z.safeParse(domainString, accepted).success,
        matches: domainPattern.test(accepted),
      }).toEqual({
        accepted,
        parsed: true,
        matches: true,
      });
  });

  it('a reply’s recipients: whatever list the service takes matches it', () => {
    const to = replyEndpoint.body.shape.to;
    const address = fc.oneof(fc.emailAddress(), fc.constantFrom('ada@acme.com', 'a@b', 'not-an-email', ''));
    const list = fc
      .tuple(
        fc.array(address, { maxLength: 4 }),
        fc.constantFrom(',', ', ', ' ,', ',,', '\t,\n'),
        fc.constantFrom('', ' ', ','),
      )
      .map(([addresses, separator, edge]) => `${edge}${addresses.join(separator)}${edge}`);
    fc.assert(
      fc.property(list, (input) => !z.safeParse(to, input).success || addressPattern.test(input)),
      {
        numRuns: 2000,
      },
    );
    expect(addressPattern.test('ada@acme.com, grace@acme.com')).toBe(true);
    expect(addressPattern.test('ada')).toBe(false);
  });
});
