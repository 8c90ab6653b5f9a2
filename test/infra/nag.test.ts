import { App, Aspects } from 'aws-cdk-lib';
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import { OutreachApiStack, type StageName } from '../../infra/stack.ts';

/**
 * cdk-nag's AwsSolutions rules over the whole stack: every finding is either
 * fixed or acknowledged next to its construct with a written reason, so an
 * unacknowledged one fails the suite.
 */
function findings(stage: StageName) {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new OutreachApiStack(app, `Nag-${stage}`, { stage });
  Aspects.of(app).add(new AwsSolutionsChecks({ verbose: true }));
  app.synth();
  const annotations = Annotations.fromStack(stack);
  return [
    ...annotations.findError('*', Match.stringLikeRegexp('AwsSolutions-.*')),
    ...annotations.findWarning('*', Match.stringLikeRegexp('AwsSolutions-.*')),
  ].map((finding) => `${finding.id}: ${String(finding.entry.data).split('\n')[0]}`);
}

describe('cdk-nag AwsSolutions', () => {
  it.each([['dev'], ['prod']] as const)('finds nothing unacknowledged in the %s stack', (stage) => {
    expect(findings(stage)).toEqual([]);
  });
});
