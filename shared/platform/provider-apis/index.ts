/**
 * The outbound client of each provider (see types.ts: smartlead.ts,
 * instantly.ts, lemlist.ts, heyreach.ts): pure request builders and response
 * readers over the `ProviderHttp` the caller gives them. What each sends, and
 * the documentation it follows, is in its file's header; a function loads the
 * one a connection needs (load-client.ts).
 */

export { statusError } from './responses.ts';
export * from './types.ts';
