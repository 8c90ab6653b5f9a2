import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createConfig, lintFromString, lint as redoclyLint } from '@redocly/openapi-core';
import { Document, type ISpectralDiagnostic, Spectral } from '@stoplight/spectral-core';
import spectralParsers from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { OPENAPI_FILE } from '../../infra/build-docs.ts';

/**
 * docs/openapi.json (kept equal to a fresh generation by test/unit/openapi.test.ts) as outside tools
 * read it: Redocly's linter with its recommended rules, Spectral's OpenAPI ruleset, and the TypeScript
 * that openapi-typescript generates from it with its default settings, compiled strictly. Each of
 * them once tripped on it: an `operationId` used twice (`testWebhook`, by the operation that sends the
 * test event and by that event in `webhooks`), which Redocly refuses and which made the generated
 * TypeScript declare an identifier twice; no `info.license`; and request fields with a default that
 * the generated request types required.
 */

const source = readFileSync(OPENAPI_FILE, 'utf8');

type Finding = { severity: string; ruleId: string; location: { pointer?: string }[]; message: string };
const describeFinding = ({ severity, ruleId, location, message }: Finding) =>
  `${severity} ${ruleId} at ${location[0]?.pointer}: ${message}`;

/**
 * What Redocly's recommended rules may say of the document: nothing. The consent form's submission
 * (`POST /oauth/authorize`) has no 2xx (every outcome is a 302, as OAuth requires, or an error page):
 * its `default` response, the gateway's other answers, is what the rule accepts in place of one.
 */
const ACCEPTED_REDOCLY_FINDINGS: string[] = [];

const recommended = () => createConfig({ extends: ['recommended'] });
/** Linting takes a few seconds on a busy machine, over Vitest's default 5. */
const LINT_TIMEOUT = 30_000;

/** Spectral's OpenAPI ruleset as test/unit/openapi.test.ts runs it on the generated document. */
async function spectralFindings(text: string): Promise<string[]> {
  const spectral = new Spectral();
  spectral.setRuleset({
    extends: [[oas as never, 'recommended']],
    rules: {
      'oas3-parameter-description': 'error',
      'tag-description': 'error',
      'operation-singular-tag': 'error',
    },
  });
  const findings: ISpectralDiagnostic[] = await spectral.run(
    new Document(text, spectralParsers.Json, 'openapi.json'),
  );
  return findings.map((finding) => `${finding.code} at ${finding.path.join('.')}: ${finding.message}`);
}

describe('docs/openapi.json, linted', () => {
  it(
    'passes Redocly’s recommended rules with no error and no warning',
    async () => {
      const problems = await redoclyLint({ ref: OPENAPI_FILE, config: await recommended() });
      expect(problems.map(describeFinding)).toEqual(ACCEPTED_REDOCLY_FINDINGS);
    },
    LINT_TIMEOUT,
  );

  it(
    'would fail Redocly’s rules with an operationId used twice, and be warned without a license',
    async () => {
      const broken = JSON.parse(source);
      broken.webhooks.test.post.operationId = 'testWebhook';
      delete broken.info.license;
      const problems = await lintFromString({
        source: JSON.stringify(broken),
        absoluteRef: OPENAPI_FILE,
        config: await recommended(),
      });
      expect(problems.map(describeFinding)).toEqual(
        expect.arrayContaining([
          expect.stringMatching(
            /^error operation-operationId-unique at #\/webhooks\/test\/post\/testWebhook:/,
          ),
          expect.stringMatching(/^warn info-license at #\/info:/),
        ]),
      );
    },
    LINT_TIMEOUT,
  );

  it(
    'passes Spectral’s OpenAPI ruleset without a finding',
    async () => {
      expect(await spectralFindings(source)).toEqual([]);
    },
    LINT_TIMEOUT,
  );
});

describe('the TypeScript openapi-typescript generates from docs/openapi.json', () => {
  const directory = mkdtempSync(join(tmpdir(), 'openapi-typescript-'));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('compiles under strict settings, with the defaulted fields of request bodies optional', async () => {
    // Default settings, as `npx openapi-typescript docs/openapi.json` has them (defaultNonNullable among them).
    const generated = astToString(await openapiTS(pathToFileURL(OPENAPI_FILE)));
    writeFileSync(join(directory, 'openapi.ts'), generated);
    // A client's use of the generated types: requests that leave every defaulted field out.
    writeFileSync(
      join(directory, 'client.ts'),
      [
        "import type { operations } from './openapi.ts';",
        "type JsonBody<Operation> = Operation extends { requestBody: { content: { 'application/json': infer Body } } } ? Body : never;",
        "export type PushRequest = JsonBody<operations['pushRawContacts']>;",
        "export type EligibilityRequest = JsonBody<operations['checkEligibility']>;",
        "export const push: PushRequest = { contacts: [{ email: 'ada@example.com' }] };",
        "export const check: EligibilityRequest = { emails: ['ada@example.com'] };",
        '',
      ].join('\n'),
    );
    const program = ts.createProgram([join(directory, 'openapi.ts'), join(directory, 'client.ts')], {
      strict: true,
      skipLibCheck: false,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      allowImportingTsExtensions: true,
      lib: ['lib.es2022.d.ts'],
      types: [],
    });
    const diagnostics = ts
      .getPreEmitDiagnostics(program)
      .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    expect(diagnostics).toEqual([]);

    const checker = program.getTypeChecker();
    const client = program.getSourceFile(join(directory, 'client.ts'))!;
    const optionality = (alias: string) => {
      const declaration = client.statements.find(
        (statement): statement is ts.TypeAliasDeclaration =>
          ts.isTypeAliasDeclaration(statement) && statement.name.text === alias,
      )!;
      const type = checker.getTypeAtLocation(declaration.name);
      return Object.fromEntries(
        checker
          .getPropertiesOfType(type)
          .map((property) => [property.name, (property.flags & ts.SymbolFlags.Optional) !== 0]),
      );
    };
    const bypassFlags = {
      bypassCooldownOtherSequences: true,
      bypassGlobalExcluded: true,
      takeoverUnapproved: true,
    };
    expect(optionality('PushRequest')).toEqual({
      contacts: false,
      triggerIntake: true,
      skipIneligible: true,
      ...bypassFlags,
      sequenceId: true,
    });
    expect(optionality('EligibilityRequest')).toEqual({ emails: false, ...bypassFlags, sequenceId: true });
  }, 120_000);
});
