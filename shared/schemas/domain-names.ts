/**
 * Domain normalization, the same everywhere a domain enters the service
 * (account lookup, exclusion, job search, eligibility): case, scheme, `www.`,
 * port, path, query, fragment, credentials and a trailing dot are ignored, and
 * internationalized names are stored in their ASCII (punycode) form, so
 * `HTTPS://WWW.Acme.com/about?x=1` and `acme.com.` are both `acme.com`, and
 * `bücher.de` is `xn--bcher-kva.de`.
 */

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** The canonical domain of a URL, host or domain; null when there is no usable domain in it. */
export function normalizeDomain(input: string): string | null {
  const trimmed = input.trim();
  if (trimmed === '' || trimmed.length > 2048) return null;
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `http://${trimmed}`;
  let hostname: string;
  try {
    hostname = new URL(withScheme).hostname;
  } catch {
    return null;
  }
  let domain = hostname.toLowerCase().replace(/\.$/, '');
  if (domain.startsWith('www.') && domain.indexOf('.', 4) > 0) domain = domain.slice(4);
  const labels = domain.split('.');
  if (domain.length > 253 || labels.length < 2) return null;
  if (!labels.every((label) => LABEL.test(label))) return null;
  // An IPv4 address is not a company domain.
  if (/^[0-9]+$/.test(labels.at(-1)!)) return null;
  return domain;
}

/** The canonical domain of an email address; null when it has none. */
export function emailDomain(email: string): string | null {
  const at = email.lastIndexOf('@');
  return at < 0 ? null : normalizeDomain(email.slice(at + 1));
}
