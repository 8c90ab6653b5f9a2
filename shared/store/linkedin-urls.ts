/**
 * LinkedIn profile URLs as contacts are found by them (HeyReach's events name
 * a lead by its profile URL, spelled as the provider saw it). One profile has
 * many spellings: with or without scheme, `www.` or a country subdomain
 * (`uk.linkedin.com`), query, fragment, trailing slash, percent-encoding,
 * letter case. The normalized form drops all of these:
 * `https://www.linkedin.com/in/John-Doe-123/?utm=x` and
 * `linkedin.com/in/john-doe-123` are both `linkedin.com/in/john-doe-123`.
 */

/** `www.`, the mobile site and two-letter country subdomains all serve the same profiles. */
const LINKEDIN_HOST = /^(?:(?:www|m|[a-z]{2})\.)?linkedin\.com$/;

/**
 * The profile paths, by how many segments name the profile: `/in/<slug>` and
 * `/sales/lead/<id>` one (later segments are sub-pages of it, such as
 * `/in/<slug>/details/experience`), the legacy `/pub/<name>/<a>/<b>/<c>` all.
 */
const PROFILE_PATHS: readonly { prefix: readonly string[]; segments: number | 'all' }[] = [
  { prefix: ['in'], segments: 1 },
  { prefix: ['sales', 'lead'], segments: 1 },
  { prefix: ['pub'], segments: 'all' },
];

/**
 * Longest normalized URL in UTF-8 bytes: it becomes part of an index key
 * (DynamoDB allows 2048 bytes), and real profile slugs are far shorter.
 */
const MAX_NORMALIZED_BYTES = 1024;

function parse(url: string): URL | null {
  const trimmed = url.trim();
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed)
    ? trimmed
    : `https://${trimmed.replace(/^\/\//, '')}`;
  try {
    return new URL(withScheme);
  } catch {
    return null;
  }
}

/** A path segment percent-decoded and lower-cased; one that does not decode is kept as written. */
function segmentOf(segment: string): string {
  try {
    return decodeURIComponent(segment).toLowerCase();
  } catch {
    return segment.toLowerCase();
  }
}

/** The profile part of a path's segments, or null when they name no profile. */
function profilePath(segments: string[]): string | null {
  for (const { prefix, segments: count } of PROFILE_PATHS) {
    if (!prefix.every((part, index) => segments[index] === part)) continue;
    const rest = segments.slice(prefix.length);
    const profile = count === 'all' ? rest : rest.slice(0, count);
    if (profile.length === 0) return null;
    return [...prefix, ...profile].join('/');
  }
  return null;
}

/**
 * The normalized form of a LinkedIn profile URL (`linkedin.com/in/<slug>`,
 * `linkedin.com/pub/…`, `linkedin.com/sales/lead/<id>`), or null when `url`
 * is not one: another host or scheme, a company page, a profile path without
 * the profile, or a form too long to be an index key.
 */
export function normalizeLinkedinUrl(url: string): string | null {
  const parsed = parse(url);
  if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')) return null;
  if (parsed.username || parsed.password || parsed.port) return null;
  if (!LINKEDIN_HOST.test(parsed.hostname.toLowerCase())) return null;
  const segments = parsed.pathname
    .split('/')
    .filter((segment) => segment !== '')
    .map(segmentOf);
  const path = profilePath(segments);
  if (!path) return null;
  const normalized = `linkedin.com/${path}`;
  return Buffer.byteLength(normalized) <= MAX_NORMALIZED_BYTES ? normalized : null;
}
