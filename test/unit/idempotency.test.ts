import { describe, expect, it } from 'vitest';
import { requestFingerprint } from '#domain/idempotency.ts';

/** The fingerprint an Idempotency-Key is bound to: the same for the same request, whatever it holds. */
describe('requestFingerprint', () => {
  it('is the same for members in another order and differs for another body or target', () => {
    const body = { contacts: [{ email: 'a@b.com', variables: { z: '1', a: '2' } }], skipIneligible: true };
    const reordered = {
      skipIneligible: true,
      contacts: [{ variables: { a: '2', z: '1' }, email: 'a@b.com' }],
    };
    expect(requestFingerprint('raw-push:101', reordered)).toBe(requestFingerprint('raw-push:101', body));
    expect(requestFingerprint('raw-push:102', body)).not.toBe(requestFingerprint('raw-push:101', body));
    expect(requestFingerprint('raw-push:101', { ...body, skipIneligible: false })).not.toBe(
      requestFingerprint('raw-push:101', body),
    );
    // Array order is part of the request.
    expect(requestFingerprint('raw-push:101', { list: [1, 2] })).not.toBe(
      requestFingerprint('raw-push:101', { list: [2, 1] }),
    );
  });

  it.each([
    [
      'a push body',
      {
        contacts: [{ email: 'a@b.com', variables: { z: '1', a: '2' } }],
        skipIneligible: true,
        sequenceId: 201,
      },
      '29750b48658a3d52a3b3a8a50c964031ab44bfbf64c7531507986cea958ce5b7',
    ],
    [
      'nested arrays, objects and scalars',
      { b: [1, 'x', null, true, { d: [], c: {} }], a: -0.5, ['__proto__']: 'p' },
      'c1d6329bca34f656876d3a2dfd7ef1e61c189ab18923c91bb61e14d1c29fb86c',
    ],
    [
      'members named like Object.prototype members',
      JSON.parse('{"__proto__": {"x": 1}, "constructor": "c", "a": [[{"b": 2}]]}'),
      '5facab1e14310152e3f8728093d078bb182d819d97df647f7a7e5675942573ea',
    ],
    ['an empty array', [], '295328387556684440d476f0377bf954cf94596ea4e5fe15ae9c7131a7e73617'],
  ])('keeps the fingerprints of keys stored before it became iterative (%s)', (_case, body, expected) => {
    expect(requestFingerprint('raw-push:101', body)).toBe(expected);
  });

  it.each([
    ['arrays', (inner: unknown) => [inner]],
    ['objects', (inner: unknown) => ({ a: inner })],
  ])('fingerprints %s nested 200,000 deep without exhausting the call stack', (_kind, wrap) => {
    let deep: unknown = 'bottom';
    for (let level = 0; level < 200_000; level++) deep = wrap(deep);
    expect(requestFingerprint('raw-push:101', { contacts: deep })).toMatch(/^[0-9a-f]{64}$/);
  });
});
