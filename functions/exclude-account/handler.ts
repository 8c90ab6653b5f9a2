import { defineEndpoint } from '#api/http/endpoint.ts';
import { excludeAccountEndpoint } from '#schemas/accounts.ts';
import { excludeAccount } from '#use-cases/exclude-account.ts';

/** POST /public/v1/accounts/exclude — puts the company's domain on the exclusion list (idempotent). */
export const handler = defineEndpoint(excludeAccountEndpoint, (input) => excludeAccount(input));
