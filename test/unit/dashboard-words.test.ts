import { describe, expect, it } from 'vitest';
import {
  auditActionLabel,
  clientKindLabel,
  deliveryEventLabel,
  eventLabel,
  formatCount,
  formatDate,
  formatDateTime,
  formatRate,
  formatWhen,
  providerLabel,
  scopeLabel,
  sequenceLabel,
  statusLabel,
  subscriptionName,
} from '#api/dashboard/words.ts';

describe('the words the dashboard shows for identifiers', () => {
  it('names events, scopes and providers as a person reads them', () => {
    expect(eventLabel('first_touch')).toBe('First touch');
    expect(scopeLabel('read')).toBe('Read only');
    expect(scopeLabel('read-write')).toBe('Read and write');
    expect(providerLabel('heyreach')).toBe('HeyReach');
    expect(providerLabel('smartlead')).toBe('Smartlead');
  });

  it('formats counts with thousands separators, rates of an empty whole as a dash, instants in UTC', () => {
    expect(formatCount(1234567)).toBe('1,234,567');
    expect(formatRate(1, 8)).toBe('12.5%');
    expect(formatRate(0, 0)).toBe('–');
    expect(formatDateTime('2026-11-29T01:05:00.000Z')).toBe('Nov 29, 2026, 1:05 AM UTC');
    expect(formatDateTime('not a date')).toBe('not a date');
  });

  it('writes counts, rates and instants as Intl writes them in en-US (UTC)', () => {
    const integer = new Intl.NumberFormat('en-US');
    const percent = new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 1 });
    const dateTime = new Intl.DateTimeFormat('en-US', {
      dateStyle: 'medium',
      timeStyle: 'short',
      timeZone: 'UTC',
    });
    const date = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' });
    for (const value of [0, 7, 999, 1000, 12_345, 999_999, 1_000_000, 123_456_789, -4321]) {
      expect(formatCount(value)).toBe(integer.format(value));
    }
    // Every rate of up to 64 contacts, and some of thousands: ties included (1/16 is 6.25%).
    for (let whole = 1; whole <= 64; whole++) {
      for (let part = 0; part <= whole; part++) {
        expect(formatRate(part, whole), `${part}/${whole}`).toBe(percent.format(part / whole));
      }
    }
    for (const [part, whole] of [
      [1234, 5678],
      [1, 3000],
      [2999, 3000],
      [50_000, 40_000],
    ] as const) {
      expect(formatRate(part, whole), `${part}/${whole}`).toBe(percent.format(part / whole));
    }
    // Each hour of a day, each month, and days and years of several widths.
    const instants = [
      ...Array.from({ length: 24 }, (_, hour) => Date.UTC(2026, 10, 29, hour, hour * 2)),
      ...Array.from({ length: 12 }, (_, month) => Date.UTC(2025 + month, month, 1 + month * 2, 12, 0)),
      Date.UTC(1999, 11, 31, 23, 59),
      Date.UTC(2030, 0, 1, 0, 0),
    ];
    for (const instant of instants) {
      const iso = new Date(instant).toISOString();
      expect(formatDateTime(iso)).toBe(`${dateTime.format(instant)} UTC`);
      expect(formatDate(iso)).toBe(date.format(instant));
    }
  });

  it('says a date alone, and "Never" for an instant that is not there', () => {
    expect(formatDate('2026-11-29T23:59:00.000Z')).toBe('Nov 29, 2026');
    expect(formatWhen(null)).toBe('Never');
    expect(formatWhen(undefined, '—')).toBe('—');
    expect(formatWhen('2026-11-29T01:05:00.000Z')).toBe('Nov 29, 2026, 1:05 AM UTC');
  });

  it('names a subscription by its URL host, and a URL that does not parse by itself', () => {
    expect(subscriptionName('https://hooks.example.com/outreach?x=1')).toBe('hooks.example.com');
    expect(subscriptionName('http://127.0.0.1:8080/in')).toBe('127.0.0.1:8080');
    expect(subscriptionName('not a url')).toBe('not a url');
  });

  it('names deliveries, statuses, sequences, client kinds and audit actions in words', () => {
    expect(deliveryEventLabel('test')).toBe('Test event');
    expect(deliveryEventLabel('positive_reply')).toBe('Positive reply');
    expect(statusLabel('delivered')).toBe('Delivered');
    expect(statusLabel('in-progress')).toBe('In progress');
    expect(sequenceLabel({ provider: 'smartlead', channel: 'email' })).toBe('Smartlead email sequence');
    expect(sequenceLabel({ provider: 'heyreach', channel: 'linkedin' })).toBe('HeyReach LinkedIn sequence');
    expect(clientKindLabel('dynamic')).toBe('Registered itself');
    expect(auditActionLabel('api-key.create')).toBe('Created an API key');
    // An action recorded before it had words is shown as recorded, not hidden.
    expect(auditActionLabel('something.new')).toBe('something.new');
  });
});
