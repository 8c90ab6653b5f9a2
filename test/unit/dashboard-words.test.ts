import { describe, expect, it } from 'vitest';
import {
  eventLabel,
  formatCount,
  formatDateTime,
  formatRate,
  providerLabel,
  scopeLabel,
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
});
