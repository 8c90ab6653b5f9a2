import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as z from 'zod/mini';
import { toolList } from '#api/mcp/tool-listing.ts';
import { mcpTools } from '#api/mcp/tools.ts';
import { openApiDocument } from '#api/openapi/document.ts';
import {
  accountInput,
  assignmentInput,
  campaignInput,
  campaignQualificationInput,
  contactInput,
  exclusionInput,
  importDocument,
  jobInput,
  messageInput,
  providerEvent,
  sequenceInput,
} from '#schemas/import.ts';
import { signal } from '#schemas/resources.ts';
import { PROJECT_ROOT } from './paths.ts';

/**
 * `npm run build`: generates the documents derived from the
 * zod schemas, which unit tests compare with a fresh generation:
 * - docs/openapi.json, the OpenAPI document (shared/api/openapi/), naming the
 *   local stack's default URL as its server; a deployment serves its own at
 *   `GET /openapi.json`;
 * - docs/import.schema.json, from the zod schemas of the import
 *   (shared/schemas/import.ts), so the documented format cannot drift from
 *   what `outreach-admin import` accepts. The schema describes the input as
 * written in a file (`io: 'input'`: defaulted fields are optional). The
 * provider event is also the line format of `outreach-admin events record`,
 * so it is a named definition: `#/$defs/ProviderEvent`;
 * - shared/api/mcp/tool-list.json, what the MCP server's `tools/list`
 *   answers, converted from its tools' zod schemas, so the mcp function
 *   carries the listing and not zod's JSON Schema converter.
 */

export const IMPORT_SCHEMA_FILE = resolve(PROJECT_ROOT, 'docs/import.schema.json');
export const OPENAPI_FILE = resolve(PROJECT_ROOT, 'docs/openapi.json');
/** The server of the committed document: where `npm start` serves by default. */
const COMMITTED_SERVER_URL = 'http://127.0.0.1:3000';

interface Metadata {
  id?: string;
  title?: string;
  description?: string;
}

/** The named definitions and the descriptions the generated schema carries. */
function registry() {
  const metadata = z.registry<Metadata>();
  const add = (schema: z.core.$ZodType, id: string, description: string) =>
    metadata.add(schema, { id, description });
  add(campaignInput, 'Campaign', 'A campaign (ICP) with one or more provider sequences. Its id is kept.');
  add(sequenceInput, 'Sequence', 'A provider sequence: provider, channel and ordered steps. Ids are unique.');
  add(
    accountInput,
    'Account',
    'A company, org-wide, with its qualifications into campaigns. Domains are unique.',
  );
  add(
    campaignQualificationInput,
    'Qualification',
    "An account's qualification into a campaign of the document: its score and signals there.",
  );
  add(signal, 'Signal', 'A buying signal with its score.');
  add(contactInput, 'Contact', 'A person, org-wide. Emails are unique (case-insensitive).');
  add(
    assignmentInput,
    'Assignment',
    'A contact in one sequence of a campaign, with its initial status and timestamps.',
  );
  add(messageInput, 'Message', 'A past message of an assignment.');
  add(
    providerEvent,
    'ProviderEvent',
    'What a provider reports about an assignment; also one line of an `events record` JSONL file.',
  );
  add(jobInput, 'Job', 'A job opening of a company domain.');
  add(exclusionInput, 'Exclusion', 'An email or a domain that raw pushes skip as globally_excluded.');
  return metadata;
}

/** The JSON Schema of the import document, freshly generated. */
export function importJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(importDocument, { io: 'input', metadata: registry() });
  const { $schema, ...rest } = schema;
  return {
    $schema,
    title: 'Outreach import document',
    description:
      'The file `outreach-admin import --org ID FILE` loads. Every section is optional. See docs/import-format.md.',
    ...rest,
  };
}

/** Writes the schema and formats it as the rest of the repository (Biome), so `npm run lint` passes. */
export function writeImportJsonSchema(file = IMPORT_SCHEMA_FILE): void {
  writeFileSync(file, `${JSON.stringify(importJsonSchema(), null, 2)}\n`);
  execFileSync(resolve(PROJECT_ROOT, 'node_modules/.bin/biome'), ['format', '--write', file], {
    cwd: PROJECT_ROOT,
    stdio: 'ignore',
  });
}

/** The committed OpenAPI document, freshly generated. */
export const committedOpenApiDocument = () =>
  openApiDocument(COMMITTED_SERVER_URL, {
    serverDescription:
      'The local stack (`npm start`); a deployment serves its own document at `/openapi.json`',
  });

/** Writes the OpenAPI document (Biome leaves this generated file alone). */
export function writeOpenApiDocument(file = OPENAPI_FILE): void {
  writeFileSync(file, `${JSON.stringify(committedOpenApiDocument(), null, 2)}\n`);
}

/** The MCP server's `tools/list` listing, converted from its tools' schemas (shared/api/mcp/tool-listing.ts). */
export const MCP_TOOL_LIST_FILE = resolve(PROJECT_ROOT, 'shared/api/mcp/tool-list.json');

export const mcpToolList = () => toolList(mcpTools());

export function writeMcpToolList(file = MCP_TOOL_LIST_FILE): void {
  writeFileSync(file, `${JSON.stringify(mcpToolList(), null, 2)}\n`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  writeOpenApiDocument();
  console.log(`Wrote ${OPENAPI_FILE}`);
  writeMcpToolList();
  console.log(`Wrote ${MCP_TOOL_LIST_FILE}`);
  writeImportJsonSchema();
  console.log(`Wrote ${IMPORT_SCHEMA_FILE}`);
}
