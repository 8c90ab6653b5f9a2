/**
 * The files of Swagger UI's distribution (the `swagger-ui-dist` dependency)
 * that the reference page loads. The asset function reads them at run time,
 * and the stack ships exactly these in its bundle (routes.ts `packageFiles`).
 */
export const SWAGGER_UI_FILES = [
  'swagger-ui-dist/swagger-ui-bundle.js',
  'swagger-ui-dist/swagger-ui.css',
] as const;
