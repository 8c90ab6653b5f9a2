/** The CloudWatch namespace of the service's metrics, and the `service` dimension Powertools adds to each. */
export const METRICS_NAMESPACE = 'OutreachPublicApi';
export const METRICS_SERVICE = 'outreach-public-api';
