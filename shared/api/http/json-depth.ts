/**
 * How deeply a request's JSON may nest. No resource of the API nests deeper
 * than a handful of levels; the bound keeps recursive code (validation,
 * canonical forms, the DynamoDB marshaller) far from the call-stack limit.
 */
export const MAX_JSON_DEPTH = 32;

/** The message every edge answers a too-deep body with (400). */
export const JSON_TOO_DEEP_MESSAGE = `Request body nests deeper than ${MAX_JSON_DEPTH} levels`;

/**
 * Whether JSON text nests arrays and objects deeper than `max`. It scans the
 * text once without parsing (brackets inside strings do not count), so a
 * hostile body is refused before any recursive code sees it.
 */
export function nestsDeeperThan(text: string, max: number = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c /* \ */) index++;
      else if (code === 0x22 /* " */) inString = false;
    } else if (code === 0x22) {
      inString = true;
    } else if (code === 0x5b /* [ */ || code === 0x7b /* { */) {
      if (++depth > max) return true;
    } else if (code === 0x5d /* ] */ || code === 0x7d /* } */) {
      depth--;
    }
  }
  return false;
}
