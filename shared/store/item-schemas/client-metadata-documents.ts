import * as z from 'zod/mini';

// The item schemas of client-metadata-documents.ts: what its store reads (and checks) items with.

export const metadataDocumentItem = z.object({
  /** The document's URL, which the key holds only as a hash. */
  clientId: z.string(),
  /** The client the document described when it was accepted; null when it was refused. */
  client: z.nullable(
    z.object({
      name: z.string(),
      redirectUris: z.array(z.string()),
    }),
  ),
  /** Why it could not be fetched or was refused; null when it was accepted. */
  refusal: z.nullable(z.string()),
  fetchedAt: z.string(),
  /** Epoch seconds: the end of its cache period. */
  expiresAt: z.number(),
});

export type MetadataDocumentItem = z.infer<typeof metadataDocumentItem>;
