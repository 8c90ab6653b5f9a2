/**
 * The providers the service connects to, by the name the API, the import
 * document and the table spell. Each has its folder, shared/providers/<name>/,
 * and its line in shared/providers/registry.ts, whose type makes a name here
 * without its parts (facts, client, webhook adapter) a compile error
 * (docs/architecture.md, Adding a provider). The list sits in the lowest layer
 * because the import document's schema and the table's item schemas, which are
 * below the providers' layer, validate the name.
 */
export const PROVIDERS = ['smartlead', 'instantly', 'lemlist', 'heyreach'] as const;
export type Provider = (typeof PROVIDERS)[number];
