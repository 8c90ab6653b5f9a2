import * as z from 'zod/mini';
import { normalizeDomain } from '#schemas/domain-names.ts';
import { type JobInput, jobInput } from '#schemas/import.ts';
import { type ImportError, jsonPath } from './import.ts';

/**
 * The job file of `outreach-admin jobs import --file F`: JSON (an array of
 * jobs, or `{"jobs": [...]}`, as in the import document) or CSV with a header
 * row naming the Job fields (`id,domain,title,url,first_seen_at,last_seen_at,
 * status,location,description`). Every row is validated before anything is
 * written; errors name the row.
 */

/** Parses RFC 4180 CSV: quoted fields may hold commas, quotes (doubled) and line breaks. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let index = 0; index < text.length; index++) {
    const character = text[index]!;
    if (quoted) {
      if (character === '"' && text[index + 1] === '"') {
        field += '"';
        index += 1;
      } else if (character === '"') quoted = false;
      else field += character;
    } else if (character === '"' && field === '') quoted = true;
    else if (character === ',') {
      row.push(field);
      field = '';
    } else if (character === '\n' || character === '\r') {
      if (character === '\r' && text[index + 1] === '\n') index += 1;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += character;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((candidate) => candidate.some((value) => value !== ''));
}

/** The jobs of a file's text, or every error with its location (`$[3].url` / `row 4, url`). */
export function parseJobFile(
  text: string,
  format: 'json' | 'csv',
): { ok: true; jobs: (JobInput & { domain: string })[] } | { ok: false; errors: ImportError[] } {
  let records: unknown[];
  if (format === 'json') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      return { ok: false, errors: [{ path: '$', message: `not JSON: ${(error as Error).message}` }] };
    }
    const list = Array.isArray(parsed) ? parsed : (parsed as { jobs?: unknown } | null)?.jobs;
    if (!Array.isArray(list))
      return { ok: false, errors: [{ path: '$', message: 'expected an array of jobs or {"jobs": [...]}' }] };
    records = list;
  } else {
    const [header, ...rows] = parseCsv(text);
    if (!header) return { ok: false, errors: [{ path: 'row 1', message: 'the CSV has no header row' }] };
    records = rows.map((values) =>
      Object.fromEntries(header.map((name, column) => [name.trim(), values[column] ?? ''])),
    );
  }
  const result = z.array(jobInput).safeParse(records);
  if (!result.success) {
    return {
      ok: false,
      errors: result.error.issues.map((issue) => ({
        path:
          format === 'json'
            ? jsonPath(issue.path)
            : `row ${Number(issue.path[0]) + 2}, ${String(issue.path[1] ?? '')}`,
        message: issue.message,
      })),
    };
  }
  const errors: ImportError[] = [];
  const jobs = result.data.map((job, index) => {
    const domain = normalizeDomain(job.domain);
    if (!domain)
      errors.push({
        path: format === 'json' ? `$[${index}].domain` : `row ${index + 2}, domain`,
        message: 'not a usable domain',
      });
    return { ...job, domain: domain ?? job.domain };
  });
  return errors.length > 0 ? { ok: false, errors } : { ok: true, jobs };
}
