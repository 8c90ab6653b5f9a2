import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Plugin } from 'esbuild';

/** An AWS SDK client's schema modules, where each operation's and shape's schema is declared. */
const SCHEMA_MODULE = /[\\/]@aws-sdk[\\/]client-[^\\/]+[\\/]dist-es[\\/]schemas[\\/]schemas_\d+\.js$/;
/** `const _h = "http";`: a schema module names every string it uses once, at its top. */
const STRING_CONSTANT = /^const (_\w+) = ("(?:[^"\\\n]|\\.)*");$/gm;
/** `{ [_h]: … }`: a trait keyed by one of those constants. */
const COMPUTED_KEY = /\[(_\w+)\]:/g;

/**
 * The schema modules of the AWS SDK's REST clients key their HTTP traits by
 * those constants (`{ [_h]: ["POST", "/v2/email/outbound-emails", 200] }`).
 * esbuild cannot tell that a computed key has no side effects, so it keeps the
 * schema of every operation of such a client in every bundle that uses one of
 * them (all of SESv2's, about 45 KiB, for the mail sender's one SendEmail).
 * This puts back the string each key's constant holds — the same object — so
 * unused schemas drop out like any other unused declaration.
 */
export const sdkSchemaKeys: Plugin = {
  name: 'sdk-schema-literal-keys',
  setup(build) {
    build.onLoad({ filter: SCHEMA_MODULE }, async ({ path }) => {
      const source = await readFile(path, 'utf8');
      const strings = new Map(
        [...source.matchAll(STRING_CONSTANT)].map(([, name, literal]) => [name, literal]),
      );
      const contents = source.replace(COMPUTED_KEY, (key, name: string) => {
        const literal = strings.get(name);
        return literal === undefined ? key : `${literal}:`;
      });
      return { contents, loader: 'js', resolveDir: dirname(path) };
    });
  },
};
