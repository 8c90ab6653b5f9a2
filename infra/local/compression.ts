import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { MIN_COMPRESSION_BYTES } from '#definitions/http-conventions.ts';

/**
 * Content coding as the deployed REST API applies it with its `minimumCompressionSize`
 * (shared/definitions/http-conventions.ts): an answer at least that large, and not encoded already, is
 * compressed with the coding of the client's `Accept-Encoding` it weighs highest (gzip, br or deflate,
 * the ones API Gateway supports:
 * https://docs.aws.amazon.com/apigateway/latest/developerguide/api-gateway-enable-compression.html),
 * and says `Vary: Accept-Encoding` whether or not this client accepted one, for the caches between.
 */

const CODINGS = {
  gzip: gzipSync,
  br: brotliCompressSync,
  deflate: deflateSync,
} as const;
type Coding = keyof typeof CODINGS;

/** The coding the client weighs highest among ours (RFC 9110 §12.5.3), or null for none. */
export function chosenCoding(acceptEncoding: string | undefined): Coding | null {
  let best: { coding: Coding; weight: number } | null = null;
  for (const entry of (acceptEncoding ?? '').toLowerCase().split(',')) {
    const [name = '', ...parameters] = entry.split(';').map((part) => part.trim());
    const q = parameters.find((parameter) => parameter.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    if (!(weight > 0)) continue;
    const codings =
      name === '*' ? (Object.keys(CODINGS) as Coding[]) : name in CODINGS ? [name as Coding] : [];
    for (const coding of codings) if (!best || weight > best.weight) best = { coding, weight };
  }
  return best?.coding ?? null;
}

type HeaderValues = Record<string, string | string[]>;

const headerNamed = (headers: HeaderValues, name: string): string | undefined => {
  const found = Object.entries(headers).find(([key]) => key.toLowerCase() === name);
  return found && [found[1]].flat().join(', ');
};

/** The answer's headers and body as sent to a client with this `Accept-Encoding`. */
export function compressed(
  headers: HeaderValues,
  body: Buffer,
  acceptEncoding: string | undefined,
): { headers: HeaderValues; body: Buffer } {
  if (body.length < MIN_COMPRESSION_BYTES || headerNamed(headers, 'content-encoding') !== undefined)
    return { headers, body };
  const vary = headerNamed(headers, 'vary');
  const kept = Object.fromEntries(Object.entries(headers).filter(([key]) => key.toLowerCase() !== 'vary'));
  const varied = { ...kept, vary: vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding' };
  const coding = chosenCoding(acceptEncoding);
  if (!coding) return { headers: varied, body };
  return { headers: { ...varied, 'content-encoding': coding }, body: CODINGS[coding](body) };
}
