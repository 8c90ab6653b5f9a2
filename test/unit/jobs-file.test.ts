import { describe, expect, it } from 'vitest';
import { parseCsv, parseJobFile } from '#admin/jobs-file.ts';

describe('parseCsv', () => {
  it('reads quoted fields with commas, doubled quotes and line breaks', () => {
    expect(parseCsv('a,b,c\r\n"x, y","say ""hi""","line\nbreak"\n\n1,,3')).toEqual([
      ['a', 'b', 'c'],
      ['x, y', 'say "hi"', 'line\nbreak'],
      ['1', '', '3'],
    ]);
  });
});

describe('parseJobFile', () => {
  const header = 'id,domain,title,url,first_seen_at,last_seen_at,status,location,description';

  it('reads a CSV with a header row and normalizes domains', () => {
    const result = parseJobFile(
      `${header}\nj1,https://WWW.Acme.com/jobs,CFO,https://acme.com/1,2026-01-01T00:00:00Z,2026-01-02T00:00:00Z,open,Remote,"Lead, finance"\n`,
      'csv',
    );
    expect(result).toEqual({
      ok: true,
      jobs: [
        {
          id: 'j1',
          domain: 'acme.com',
          title: 'CFO',
          url: 'https://acme.com/1',
          first_seen_at: '2026-01-01T00:00:00.000Z',
          last_seen_at: '2026-01-02T00:00:00.000Z',
          status: 'open',
          location: 'Remote',
          description: 'Lead, finance',
        },
      ],
    });
  });

  it('reads JSON as an array or as {"jobs": [...]}', () => {
    const job = {
      id: 'j2',
      domain: 'globex.io',
      title: 'CTO',
      url: 'https://globex.io/2',
      first_seen_at: '2026-01-01T00:00:00Z',
      last_seen_at: '2026-01-01T00:00:00Z',
    };
    expect(parseJobFile(JSON.stringify([job]), 'json').ok).toBe(true);
    expect(parseJobFile(JSON.stringify({ jobs: [job] }), 'json').ok).toBe(true);
  });

  it('names the row and field of every error', () => {
    const result = parseJobFile(
      `${header}\nj1,acme.com,CFO,https://acme.com/1,yesterday,2026-01-02T00:00:00Z,open,,\nj2,nodomain,CTO,https://x/2,2026-01-01T00:00:00Z,2026-01-01T00:00:00Z,sold,,\n`,
      'csv',
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.map((error) => error.path)).toEqual(['row 2, first_seen_at', 'row 3, status']);
    expect(parseJobFile('{', 'json')).toMatchObject({ ok: false, errors: [{ path: '$' }] });
  });
});
