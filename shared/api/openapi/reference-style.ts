/**
 * The reference page's styles over Swagger UI's own (`GET /docs/reference.css`):
 * the dashboard's header and mark, and colours that meet WCAG AA contrast
 * (4.5:1) where Swagger UI's do not (white on its light method colours, its
 * light grey and light blue text), so axe finds no serious violation.
 */
export const REFERENCE_STYLE = `
body { margin: 0; background: #fff; color: #1b1f24; font-family: system-ui, -apple-system, "Segoe UI", sans-serif; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
.reference-header { display: flex; gap: .75rem; align-items: center; padding: .75rem 1.25rem; border-bottom: 1px solid #d0d7de; background: #f6f8fa; }
.reference-brand { font-weight: 700; color: #1b1f24; text-decoration: none; }
.reference-brand::before { content: ""; display: inline-block; width: 1.25rem; height: 1.25rem; margin-right: .4rem; vertical-align: -.2rem; border-radius: .3rem; background: #0b57d0; }
.reference-sections > section { max-width: 1460px; margin: 2rem auto; padding: 0 20px; }
:focus-visible { outline: 3px solid #0b57d0; outline-offset: 2px; }
.swagger-ui a, .swagger-ui .info a, .swagger-ui .info .base-url, .swagger-ui .opblock-tag a { color: #0b57d0; }
.swagger-ui .opblock .opblock-summary-method { color: #fff; }
.swagger-ui .opblock.opblock-get .opblock-summary-method { background: #1a5fb4; }
.swagger-ui .opblock.opblock-post .opblock-summary-method { background: #146c43; }
.swagger-ui .opblock.opblock-put .opblock-summary-method { background: #8a4b00; }
.swagger-ui .opblock.opblock-delete .opblock-summary-method { background: #b42318; }
.swagger-ui .opblock.opblock-patch .opblock-summary-method { background: #0e6b5e; }
.swagger-ui .opblock.opblock-head .opblock-summary-method { background: #6f2dbd; }
.swagger-ui .opblock.opblock-options .opblock-summary-method { background: #0d5aa7; }
.swagger-ui .btn.authorize, .swagger-ui .btn.authorize svg { color: #146c43; fill: #146c43; border-color: #146c43; }
.swagger-ui .btn.execute { background: #1a5fb4; border-color: #1a5fb4; }
.swagger-ui .parameter__type, .swagger-ui .parameter__in, .swagger-ui .prop-format, .swagger-ui .parameter__deprecated,
.swagger-ui .opblock-summary-operation-id, .swagger-ui .renderedMarkdown code, .swagger-ui .model .property.primitive,
.swagger-ui .model-title, .swagger-ui .response-col_links { color: #3b4151; }
.swagger-ui .info .title small, .swagger-ui .info .title small.version-stamp { background: #57606a; }
.swagger-ui .info .title small pre { color: #fff; }
.swagger-ui .json-schema-2020-12-expand-deep-button { color: #57606a; }
.swagger-ui .btn.try-out__btn { color: #3b4151; border-color: #57606a; }
.swagger-ui .btn.try-out__btn.cancel { color: #b42318; border-color: #b42318; }
.swagger-ui .download-contents { background: #3b4151; color: #fff; }
.swagger-ui .auth-container .scopes h2 a { color: #0b57d0; }
.swagger-ui .parameter__name.required span, .swagger-ui .parameter__name.required::after { color: #b42318; }
.swagger-ui .highlight-code .microlight, .swagger-ui .highlight-code .microlight span { background: #1b1f24 !important; color: #f0f3f6 !important; }
`;
