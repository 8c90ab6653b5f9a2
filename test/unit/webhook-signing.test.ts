import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_RETRY_SCHEDULE_SECONDS,
  parseRetrySchedule,
  retryDelaySeconds,
} from '#domain/webhook-retry-schedule.ts';
import { generateSecret, sign, webhookHeaders } from '#domain/webhook-signing.ts';

/**
 * Standard Webhooks signing, checked against the reference verifier (the
 * `standardwebhooks` npm package), and the retry schedule's arithmetic.
 */

const now = () => Math.floor(Date.now() / 1000);
const body = JSON.stringify({
  type: 'first_touch',
  timestamp: '2026-04-01T00:00:00.000Z',
  data: { assignment_id: 1 },
});

describe('webhook signing', () => {
  it('makes whsec_ secrets of 32 random bytes, different every time', () => {
    const secret = generateSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(generateSecret()).not.toBe(secret);
  });

  it('signs so that the standardwebhooks package verifies the message and returns the payload', () => {
    // Prepare
    const secret = generateSecret();
    const headers = webhookHeaders({ webhookId: 'msg_1', timestampSeconds: now(), body, secrets: [secret] });

    // Act
    const verified = new Webhook(secret).verify(body, headers);

    // Assess
    expect(verified).toEqual(JSON.parse(body));
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
  });

  it('produces the same signature as the reference implementation', () => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const timestamp = 1_614_265_330;
    expect(sign(secret, 'msg_p5jXN8AQM9LWM0D4loKWxJek', timestamp, '{"test": 2432232314}')).toBe(
      new Webhook(secret).sign(
        'msg_p5jXN8AQM9LWM0D4loKWxJek',
        new Date(timestamp * 1000),
        '{"test": 2432232314}',
      ),
    );
  });

  it('fails verification when the body, the id or the timestamp was changed, or the secret is another', () => {
    const secret = generateSecret();
    const timestamp = now();
    const headers = webhookHeaders({
      webhookId: 'msg_1',
      timestampSeconds: timestamp,
      body,
      secrets: [secret],
    });
    const webhook = new Webhook(secret);
    expect(() => webhook.verify(`${body} `, headers)).toThrow(WebhookVerificationError);
    expect(() => webhook.verify(body, { ...headers, 'webhook-id': 'msg_2' })).toThrow(
      WebhookVerificationError,
    );
    expect(() => webhook.verify(body, { ...headers, 'webhook-timestamp': String(timestamp - 1) })).toThrow(
      WebhookVerificationError,
    );
    expect(() => new Webhook(generateSecret()).verify(body, headers)).toThrow(WebhookVerificationError);
  });

  it('signs with the current and the previous secret during a rotation, so either verifies', () => {
    const [current, previous] = [generateSecret(), generateSecret()];
    const headers = webhookHeaders({
      webhookId: 'msg_1',
      timestampSeconds: now(),
      body,
      secrets: [current, previous],
    });
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(current).verify(body, headers)).toEqual(JSON.parse(body));
    expect(new Webhook(previous).verify(body, headers)).toEqual(JSON.parse(body));
  });
});

describe('the webhook retry schedule', () => {
  it('waits each step of the schedule within 10 % jitter, repeating the last step', () => {
    const schedule = [5, 300, 1800];
    expect(retryDelaySeconds(schedule, 1, () => 0.5)).toBe(5);
    expect(retryDelaySeconds(schedule, 2, () => 0)).toBe(270);
    expect(retryDelaySeconds(schedule, 2, () => 1)).toBe(330);
    expect(retryDelaySeconds(schedule, 3, () => 0.5)).toBe(1800);
    expect(retryDelaySeconds(schedule, 9, () => 0.5)).toBe(1800);
  });

  it('spans more than 24 hours over the queue’s eight attempts by default, even with the least jitter', () => {
    const attempts = 8;
    let total = 0;
    for (let attempt = 1; attempt < attempts; attempt++)
      total += retryDelaySeconds(DEFAULT_RETRY_SCHEDULE_SECONDS, attempt, () => 0);
    expect(total).toBeGreaterThan(24 * 60 * 60);
    for (let attempt = 1; attempt < attempts; attempt++) {
      expect(retryDelaySeconds(DEFAULT_RETRY_SCHEDULE_SECONDS, attempt, () => 1)).toBeLessThanOrEqual(
        12 * 60 * 60,
      );
    }
  });

  it('reads a schedule from the environment and refuses a malformed one', () => {
    expect(parseRetrySchedule(undefined)).toEqual([...DEFAULT_RETRY_SCHEDULE_SECONDS]);
    expect(parseRetrySchedule('1, 1,2')).toEqual([1, 1, 2]);
    for (const raw of ['1,x', '-1', '1.5', '50000']) {
      expect(() => parseRetrySchedule(raw)).toThrow(/WEBHOOK_RETRY_SCHEDULE_SECONDS/);
    }
  });
});
