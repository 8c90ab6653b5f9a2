import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { OutreachApiStack, type OutreachApiStackProps, type StageName } from '../../infra/stack.ts';

/**
 * Synthesizes the stack for template assertions. Bundling is skipped (an empty
 * `aws:cdk:bundling-stacks`), since what is asserted is the wiring; the built
 * bundles are exercised by `cdk synth` and the bundle smoke test.
 */
export function synthesize(
  stage: StageName = 'dev',
  props: Omit<OutreachApiStackProps, 'stage'> = {},
): { stack: OutreachApiStack; template: Template } {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new OutreachApiStack(app, `Test-${stage}`, { stage, ...props });
  return { stack, template: Template.fromStack(stack) };
}
