/**
 * What can go wrong in the domain, named for what went wrong. The domain
 * never knows a protocol: each edge (HTTP, MCP, the operator CLI) maps these
 * to its own answer in one table, by the kind each error is of. Any other
 * error is a fault of the service, answered without detail.
 */

/** The kinds the edges map: each names how the caller is at fault, or that the state stands in the way. */
export type DomainErrorKind =
  /** The request names something the organization does not have (another organization's is the same). */
  | 'not-found'
  /** The request itself is invalid in a way its schema cannot tell (a sequence not in the campaign). */
  | 'invalid'
  /** The request is valid but the current state refuses it; trying again later, or differently, may work. */
  | 'conflict'
  /** The request is well-formed but refused for what it says (an idempotency key reused with another body). */
  | 'refused'
  /** A service the request needs (a provider's API) could not be reached; the same request may work later. */
  | 'unavailable';

/** The base of every domain error. */
export abstract class DomainError extends Error {
  abstract readonly kind: DomainErrorKind;
  /** The request value at fault, when one is (errors of kind `invalid`). */
  readonly field?: InputField;

  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** Where in a request an invalid value was given, so each edge can name it its own way. */
export interface InputField {
  in: 'body' | 'query' | 'path';
  name: string;
}

abstract class NotFound extends DomainError {
  readonly kind = 'not-found';
}

abstract class Invalid extends DomainError {
  readonly kind = 'invalid';

  /** `reason` says what is wrong with the value of `field` (when one value is at fault). */
  constructor(
    reason: string,
    override readonly field?: InputField,
  ) {
    super(reason);
  }
}
abstract class Conflict extends DomainError {
  readonly kind = 'conflict';
}
abstract class Refused extends DomainError {
  readonly kind = 'refused';
}
abstract class Unavailable extends DomainError {
  readonly kind = 'unavailable';
}

export class OrganizationNotFound extends NotFound {
  constructor(orgId: number) {
    super(`Organization ${orgId} not found`);
  }
}

export class CampaignNotFound extends NotFound {
  constructor(campaignId: number) {
    super(`Campaign ${campaignId} not found`);
  }
}

export class AccountNotFound extends NotFound {
  constructor(what: string) {
    super(`Account ${what} not found`);
  }
}

export class AssignmentNotFound extends NotFound {
  constructor(assignmentId: number) {
    super(`Assignment ${assignmentId} not found`);
  }
}

export class WebhookNotFound extends NotFound {
  constructor(webhookId: number) {
    super(`Webhook ${webhookId} not found`);
  }
}

export class DeliveryNotFound extends NotFound {
  constructor(deliveryId: number) {
    super(`Delivery ${deliveryId} not found`);
  }
}

export class ApiKeyNotFound extends NotFound {
  constructor(orgId: number, keyId: number) {
    super(`API key ${keyId} not found for organization ${orgId}`);
  }
}

export class OAuthClientNotFound extends NotFound {
  constructor(orgId: number, clientId: string) {
    super(`OAuth client ${clientId} not found for organization ${orgId}`);
  }
}

/** An assistant the organization never approved (another organization's approval is the same). */
export class AssistantGrantNotFound extends NotFound {
  constructor(orgId: number, clientId: string) {
    super(`Assistant ${clientId} not found for organization ${orgId}`);
  }
}

export class MemberNotFound extends NotFound {
  constructor(orgId: number, who: string) {
    super(`${who} is not a member of organization ${orgId}`);
  }
}

/** A value of a form or request that its schema refused (the dashboard's forms). */
export class InputInvalid extends Invalid {}

/** A cursor of the audit log that no page of it gave. */
export class AuditCursorInvalid extends Invalid {
  constructor() {
    super('cursor is not a position in this audit log', { in: 'query', name: 'cursor' });
  }
}

/** A member's email the identity provider cannot hold. */
export class MemberEmailInvalid extends Invalid {}

/** No identity provider to invite people at (neither the local OpenID provider nor a Cognito user pool is configured). */
export class IdentityProviderMissing extends Unavailable {
  constructor() {
    super('No identity provider is configured to invite people at: ask your operator');
  }
}

/** A change that would leave the organization without an admin: nobody could manage it any more. */
export class LastAdminRequired extends Conflict {
  constructor(email: string, change: 'remove' | 'demote') {
    super(
      `${email} is the organization's only admin and cannot be ${change === 'remove' ? 'removed' : 'made a viewer'}: make another member an admin first`,
    );
  }
}

export class ProviderConnectionNotFound extends NotFound {
  constructor(connectionId: number) {
    super(`Provider connection ${connectionId} not found`);
  }
}

/** The provider refused the API key of a connection being made or given a new key: `message` is the provider client's, naming the provider and its status. */
export class ProviderKeyRefused extends Invalid {}

/** The provider's API could not be reached (a connection failure, a timeout, a 5xx, a 429) to verify a key. */
export class ProviderUnreachable extends Unavailable {
  constructor(providerName: string) {
    super(`${providerName} could not be reached to verify the API key; try again later`);
  }
}

export class SequenceNotFound extends NotFound {
  constructor(sequenceId: number) {
    super(`Sequence ${sequenceId} not found`);
  }
}

/** A sequence that names no provider campaign (never linked, or unlinked since). */
export class SequenceNotLinked extends NotFound {
  constructor(sequenceId: number) {
    super(`Sequence ${sequenceId} is not linked to a provider campaign`);
  }
}

/** A provider campaign id the provider's own list of campaigns does not have. */
export class ProviderCampaignNotFound extends Invalid {
  constructor(providerName: string, campaignId: string, connectionId: number) {
    super(`${providerName} has no campaign ${JSON.stringify(campaignId)} on connection ${connectionId}`, {
      in: 'body',
      name: 'provider_campaign_id',
    });
  }
}

/** A campaign listing cursor that no page of the listing gave (or one the provider no longer takes). */
export class ProviderCampaignCursorInvalid extends Invalid {
  constructor() {
    super('must be the next of a previous page', { in: 'query', name: 'cursor' });
  }
}

/**
 * The provider refused a stored connection's API key (revoked or expired since it was verified): the
 * request is valid and so is the connection's standing, but its key must be replaced first.
 */
export class ProviderConnectionKeyRefused extends Conflict {
  constructor(providerName: string, connectionId: number, status: number) {
    super(
      `${providerName} refused the API key of provider connection ${connectionId} (${status}); give the connection a new key`,
    );
  }
}

/** The provider's API could not be reached (a connection failure, a timeout, a 5xx, a 429) to read its campaigns. */
export class ProviderCampaignsUnreachable extends Unavailable {
  constructor(providerName: string) {
    super(`${providerName} could not be reached to read its campaigns; try again later`);
  }
}

/** A setting outside its bounds (cooldown days, a rate limit). */
export class SettingOutOfRange extends Invalid {}

/** A new API key's scope, name or lifetime outside what a key may have (a 101-character name, 0 days). */
export class ApiKeyOptionInvalid extends Invalid {}

/** A push names a sequence the campaign does not have, or the campaign has no sequence to default to. */
export class SequenceNotInCampaign extends Invalid {}

/** A sequence linked to a campaign of another provider than its own. */
export class SequenceProviderMismatch extends Invalid {
  constructor(sequenceId: number, sequenceProvider: string, provider: string) {
    super(`Sequence ${sequenceId} is a ${sequenceProvider} sequence, not ${provider}`);
  }
}

/** A reply that cannot be sent as asked (too large once rendered, no recipient). */
export class ReplyNotSendable extends Invalid {}

/** A subscriber URL the SSRF rules refuse. */
export class WebhookUrlRefused extends Invalid {
  constructor(reason: string) {
    super(reason, { in: 'body', name: 'url' });
  }
}

/** A provider API base URL the SSRF rules refuse. */
export class ProviderBaseUrlRefused extends Invalid {
  constructor(reason: string) {
    super(reason, { in: 'body', name: 'base_url' });
  }
}

/** A redirect URI that may not be registered for an OAuth client. */
export class RedirectUriRefused extends Invalid {
  constructor(
    readonly uri: string,
    readonly problem: string,
  ) {
    super(`The redirect URI ${JSON.stringify(uri)} ${problem}`);
  }
}

/** A job search cursor that is no position in the searched domain's jobs. */
export class UnknownCursor extends Invalid {
  constructor(cursor: number) {
    super(`cursor ${cursor} is not a position in this search`, { in: 'query', name: 'cursor' });
  }
}

/** A provider event the assignment's lifecycle does not allow from its status. */
export class TransitionNotAllowed extends Conflict {}

/** A provider event whose writes found the state changed under them in a way a retry cannot mend. */
export class EventNotRecordable extends Conflict {}

/** A value that must be unique (an account's domain, a contact's email) is taken by another item. */
export class AlreadyTaken extends Conflict {}

/** An account qualified into a campaign that does not exist (an import referencing nothing). */
export class QualificationTargetMissing extends Conflict {}

export class WebhookLimitReached extends Conflict {
  constructor(limit: number) {
    super(`An organization can have at most ${limit} webhooks`);
  }
}

export class ProviderConnectionLimitReached extends Conflict {
  constructor(max: number) {
    super(`The organization has ${max} provider connections already; disconnect one first`);
  }
}

/** A source address registered as many OAuth clients as an hour allows; the next hour takes more. */
export class RegistrationLimitReached extends Conflict {
  constructor(
    limit: number,
    readonly retryAfterSeconds: number,
  ) {
    super(`At most ${limit} client registrations an hour from one address`);
  }
}

/**
 * A source address made the service fetch as many client ID metadata
 * documents as a minute allows; documents already fetched still resolve, and
 * the next minute takes more.
 */
export class MetadataDocumentFetchLimitReached extends Conflict {
  constructor(
    limit: number,
    readonly retryAfterSeconds: number,
  ) {
    super(`At most ${limit} client metadata documents fetched a minute for one address`);
  }
}

export class WebhookChangedMeanwhile extends Conflict {
  constructor(webhookId: number) {
    super(`Webhook ${webhookId} changed meanwhile; try again`);
  }
}

export class DeliveryExpired extends Conflict {
  constructor(deliveryId: number) {
    super(`Delivery ${deliveryId} can no longer be sent: its event is kept for 30 days`);
  }
}

export class RedeliveryInProgress extends Conflict {
  constructor(deliveryId: number) {
    super(`Delivery ${deliveryId} is being redelivered already`);
  }
}

export class IdempotencyKeyInUse extends Conflict {
  constructor() {
    super('A request with this Idempotency-Key is still in progress');
  }
}

/** Contacts kept changing under a push, which gave up judging them (sending it again finishes it). */
export class ContactsKeptChanging extends Conflict {
  constructor(emails: string[], judgements: number) {
    const named = `${emails.slice(0, 3).join(', ')}${emails.length > 3 ? ', …' : ''}`;
    super(
      `Contacts changed by concurrent requests ${judgements} times while this push ran (${named}): send the push again`,
    );
  }
}

export class IdempotencyKeyReused extends Refused {
  constructor() {
    super('Idempotency-Key was already used with a different request');
  }
}
