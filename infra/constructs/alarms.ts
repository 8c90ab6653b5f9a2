import { CfnCondition, CfnParameter, Duration, Fn, Stack } from 'aws-cdk-lib';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import {
  type Alarm,
  ComparisonOperator,
  MathExpression,
  Metric,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { CfnSubscription, Topic } from 'aws-cdk-lib/aws-sns';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { METRICS_NAMESPACE, METRICS_SERVICE } from '#definitions/metrics.ts';

/** Unmatched provider events per 15 minutes above which the operator is paged. */
const UNMATCHED_SURGE_PER_15_MINUTES = 500;

export interface OperationalAlarmsProps {
  api: RestApi;
  /** Dead-letter queues: any message in one is an alarm. */
  deadLetterQueues: Record<string, IQueue>;
  /** Functions whose errors page the operator (the authorizer, the webhook dispatcher). */
  watchedFunctions: Record<string, IFunction>;
}

/**
 * The alarms an operator is paged for, all sent to one SNS topic. Its email
 * subscription is a deploy parameter (`AlarmEmail`; empty: no subscription,
 * subscribe something else to the topic output).
 */
export class OperationalAlarms extends Construct {
  readonly topic: Topic;
  /** Sends an alarm made elsewhere in the stack to the operator too. */
  readonly page: (alarm: Alarm) => void;

  constructor(scope: Construct, id: string, props: OperationalAlarmsProps) {
    super(scope, id);
    this.topic = new Topic(this, 'Topic', { enforceSSL: true });
    const email = new CfnParameter(Stack.of(this), 'AlarmEmail', {
      type: 'String',
      default: '',
      description: 'Email address that receives the service alarms (empty: none).',
    });
    const hasEmail = new CfnCondition(this, 'HasAlarmEmail', {
      expression: Fn.conditionNot(Fn.conditionEquals(email.valueAsString, '')),
    });
    const subscription = new CfnSubscription(this, 'EmailSubscription', {
      topicArn: this.topic.topicArn,
      protocol: 'email',
      endpoint: email.valueAsString,
    });
    subscription.cfnOptions.condition = hasEmail;
    const action = new SnsAction(this.topic);
    const alarm = (created: Alarm) => created.addAlarmAction(action);
    this.page = alarm;

    for (const [name, queue] of Object.entries(props.deadLetterQueues)) {
      alarm(
        queue
          .metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5), statistic: 'Maximum' })
          .createAlarm(this, `${name}DeadLetters`, {
            alarmDescription: `Messages in the ${name} dead-letter queue: deliveries gave up; inspect and redrive.`,
            threshold: 0,
            comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
            evaluationPeriods: 1,
            treatMissingData: TreatMissingData.NOT_BREACHING,
          }),
      );
    }

    const errorRate = new MathExpression({
      expression: '100 * errors / MAX([requests, 1])',
      usingMetrics: {
        errors: props.api.metricServerError({ period: Duration.minutes(5), statistic: 'Sum' }),
        requests: props.api.metricCount({ period: Duration.minutes(5), statistic: 'Sum' }),
      },
      label: '5xx rate (%)',
      period: Duration.minutes(5),
    });
    alarm(
      errorRate.createAlarm(this, 'Api5xxRate', {
        alarmDescription: 'More than 1% of API requests answered 5xx over 5 minutes (two periods in a row).',
        threshold: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 2,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      }),
    );

    alarm(
      new Metric({
        namespace: 'AWS/Lambda',
        metricName: 'Throttles',
        period: Duration.minutes(5),
        statistic: 'Sum',
      }).createAlarm(this, 'LambdaThrottles', {
        alarmDescription:
          'Lambda throttled invocations in this account and region: raise concurrency or find the burst.',
        threshold: 0,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      }),
    );
    alarm(
      props.api
        .metricClientError({ period: Duration.minutes(5), statistic: 'Sum' })
        .createAlarm(this, 'Api4xxSurge', {
          alarmDescription: 'A surge of 4xx answers (throttling included) over 15 minutes.',
          threshold: 1000,
          comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
          evaluationPeriods: 3,
          treatMissingData: TreatMissingData.NOT_BREACHING,
        }),
    );

    // Provider events that matched nothing are kept and listed per connection; a surge means a campaign
    // or its contacts were never linked, or a provider changed its payloads (docs/providers.md).
    alarm(
      new Metric({
        namespace: METRICS_NAMESPACE,
        metricName: 'ProviderEventUnmatched',
        dimensionsMap: { service: METRICS_SERVICE },
        period: Duration.minutes(15),
        statistic: 'Sum',
      }).createAlarm(this, 'ProviderEventsUnmatchedSurge', {
        alarmDescription:
          'More than 500 provider events matched nothing in 15 minutes, twice in a row: check the connections’ unmatched lists.',
        threshold: UNMATCHED_SURGE_PER_15_MINUTES,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 2,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      }),
    );

    // Any enrollment a provider refused (a bad key, a missing campaign, invalid emails) waits for an operator:
    // `outreach-admin provider failures` lists them (docs/providers.md#enrollment).
    alarm(
      new Metric({
        namespace: METRICS_NAMESPACE,
        metricName: 'EnrollmentFailed',
        dimensionsMap: { service: METRICS_SERVICE },
        period: Duration.minutes(15),
        statistic: 'Sum',
      }).createAlarm(this, 'EnrollmentFailures', {
        alarmDescription:
          'A provider refused enrollments in the last 15 minutes: see `outreach-admin provider failures --org ID`.',
        threshold: 0,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      }),
    );

    // A connection turned failing (a refused key, a provider that cannot be reached): its enrollments,
    // stops and replies fail until the key is replaced or the provider answers (docs/providers.md,
    // Connection health). Counted once per turn, not per call.
    alarm(
      new Metric({
        namespace: METRICS_NAMESPACE,
        metricName: 'ProviderConnectionFailing',
        dimensionsMap: { service: METRICS_SERVICE },
        period: Duration.minutes(5),
        statistic: 'Sum',
      }).createAlarm(this, 'ProviderConnectionFailing', {
        alarmDescription:
          'A provider connection turned failing in the last 5 minutes: its last_error says why (`outreach-admin provider list --org ID`); replace the key or check the provider.',
        threshold: 0,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      }),
    );

    for (const [name, fn] of Object.entries(props.watchedFunctions)) {
      alarm(
        fn
          .metricErrors({ period: Duration.minutes(5), statistic: 'Sum' })
          .createAlarm(this, `${name}Errors`, {
            alarmDescription: `${name} failed invocations (function errors, not rejected keys or failed deliveries it reported).`,
            threshold: 0,
            comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
            evaluationPeriods: 1,
            treatMissingData: TreatMissingData.NOT_BREACHING,
          }),
      );
    }
  }
}
