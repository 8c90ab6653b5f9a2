import { Duration, Stack } from 'aws-cdk-lib';
import type { Stage } from 'aws-cdk-lib/aws-apigateway';
import { type Alarm, ComparisonOperator, Metric, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { CfnWebACL, CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { gatewayResponses } from '#definitions/gateway-responses.ts';
import { CLIENT_ADDRESS_LIMIT_PER_WINDOW, CLIENT_ADDRESS_WINDOW_SECONDS } from '#definitions/rate-limits.ts';

export interface ClientAddressFirewallProps {
  stage: Stage;
  /** Where the flood alarm goes. */
  onAlarm(alarm: Alarm): void;
}

const RULE = 'RequestsPerClientAddress';
const THROTTLED_BODY = 'Throttled';

/**
 * A WAF web ACL in front of the stage with one rate-based rule per client
 * address. API Gateway's stage throttle counts every caller together and runs
 * before the authorizer, so without it one anonymous client could spend the
 * stage's bucket and throttle every tenant. The rule refuses an address over
 * its limit with the stage's own throttled answer (429, `{message}`,
 * `Retry-After`), and an alarm tells the operator a flood is being cut.
 * The local gateway applies the same limit as a bucket (shared/definitions/rate-limits.ts).
 */
export class ClientAddressFirewall extends Construct {
  readonly webAcl: CfnWebACL;

  constructor(scope: Construct, id: string, props: ClientAddressFirewallProps) {
    super(scope, id);
    const metricName = (name: string) => `${Stack.of(this).stackName}-${name}`;
    const throttled = gatewayResponses.THROTTLED;
    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      name: metricName('api'),
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      visibilityConfig: {
        cloudWatchMetricsEnabled: true,
        metricName: metricName('api'),
        sampledRequestsEnabled: true,
      },
      customResponseBodies: {
        [THROTTLED_BODY]: {
          contentType: 'APPLICATION_JSON',
          content: JSON.stringify({ message: throttled.message }),
        },
      },
      rules: [
        {
          name: RULE,
          priority: 0,
          statement: {
            rateBasedStatement: {
              aggregateKeyType: 'IP',
              limit: CLIENT_ADDRESS_LIMIT_PER_WINDOW,
              evaluationWindowSec: CLIENT_ADDRESS_WINDOW_SECONDS,
            },
          },
          action: {
            block: {
              customResponse: {
                responseCode: throttled.statusCode,
                customResponseBodyKey: THROTTLED_BODY,
                responseHeaders: Object.entries(throttled.headers).map(([name, value]) => ({ name, value })),
              },
            },
          },
          visibilityConfig: {
            cloudWatchMetricsEnabled: true,
            metricName: metricName(RULE),
            sampledRequestsEnabled: true,
          },
        },
      ],
    });
    new CfnWebACLAssociation(this, 'StageAssociation', {
      resourceArn: props.stage.stageArn,
      webAclArn: this.webAcl.attrArn,
    });
    props.onAlarm(
      new Metric({
        namespace: 'AWS/WAFV2',
        metricName: 'BlockedRequests',
        dimensionsMap: {
          WebACL: metricName('api'),
          Rule: metricName(RULE),
          Region: Stack.of(this).region,
        },
        period: Duration.minutes(5),
        statistic: 'Sum',
      }).createAlarm(this, 'FloodCut', {
        alarmDescription:
          'The WAF refused requests from an address over its rate limit: a flood (or a client that needs more than one address) is being cut.',
        threshold: 0,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      }),
    );
  }
}
