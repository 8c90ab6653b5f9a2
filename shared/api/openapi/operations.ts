import type { routes } from '#definitions/routes.ts';
import type { OperationDescription } from './operations/helpers.ts';
import { protocolOperations } from './operations/protocols.ts';
import { publicApiOperations } from './operations/public-api.ts';
import { siteOperations } from './operations/site.ts';

export {
  type CustomOperation,
  type EndpointOperation,
  type HandlerErrors,
  isEndpointOperation,
  type Json,
  type OperationDescription,
  ref,
  TAGS,
  type Tag,
} from './operations/helpers.ts';

/**
 * What the OpenAPI document says about each route of the manifest, by route
 * name. JSON endpoints name the zod schemas their handler is built with
 * (`defineEndpoint`), from which parameters, bodies and responses are
 * generated, and add only prose and the statuses their domain code answers.
 * Handlers that speak other formats (MCP's JSON-RPC, OAuth, the reference
 * page) give their operation in OpenAPI terms here. The mapped type makes a
 * route without a description a type error; the generator also refuses one.
 */

export const operations: { [Name in (typeof routes)[number]['name']]: OperationDescription } = {
  ...publicApiOperations,
  ...protocolOperations,
  ...siteOperations,
};
