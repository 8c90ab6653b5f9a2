import * as z from 'zod/mini';
import '#definitions/zod-english.ts';

// Built in pure-annotated closures: a bundle keeps them only if its function uses them
// (esbuild cannot tell that zod's builders have no side effects; docs/architecture.md, Bundles).

/**
 * The organization (tenant) item as read, in a module of its own: the
 * dashboard's session check names organizations without the rest of the
 * organizations store (organizations.ts re-exports it).
 */

const throttle = /* @__PURE__ */ (() => z.object({ rateLimit: z.number(), burstLimit: z.number() }))();

/** The organization item as read; settings never set are null. */
export const organizationItem = /* @__PURE__ */ (() =>
  z.object({
    orgId: z.number(),
    name: z.string(),
    createdAt: z.string(),
    cooldownDays: z._default(z.nullable(z.number()), null),
    rateLimit: z._default(z.nullable(throttle), null),
  }))();
export type OrganizationItem = z.infer<typeof organizationItem>;
