import { type Html, html } from './html.ts';
import { csrfField, type Frame } from './layout.ts';

/**
 * What the organization's pages are built of, beside the frame (layout.ts):
 * tables, secrets shown once, one-button forms. A module of its own, so that
 * a cold start of the dashboard, which builds the frame, reads none of it
 * until a page is loaded (docs/architecture.md, Bundles).
 */

/**
 * A table with a caption (screen readers announce it) and header cells scoped
 * to their columns, in a box that scrolls sideways on a narrow screen so the
 * page never does. The box is a named region that takes focus, so a keyboard
 * can scroll it too (axe: scrollable-region-focusable).
 */
export function table(
  caption: string,
  headings: readonly string[],
  rows: readonly Html[],
  empty: string,
): Html {
  if (rows.length === 0) return html`<p class="muted">${empty}</p>`;
  return html`<div class="table-scroll" role="region" tabindex="0" aria-label="${caption}"><table><caption>${caption}</caption><thead><tr>${headings.map(
    (heading) => html`<th scope="col">${heading}</th>`,
  )}</tr></thead><tbody>${rows}</tbody></table></div>`;
}

/** A secret shown once, with a copy button the script reveals. */
export function secretOnce(label: string, id: string, value: string): Html {
  return html`<div class="secret" role="status"><strong>${label}</strong> <code id="${id}">${value}</code>
<button type="button" data-copy="${id}" hidden>Copy</button><span class="muted">Shown once: store it now.</span></div>`;
}

/** A POST form with the CSRF token and one submit button (an action on a row, say). */
export function actionForm(
  frame: Pick<Frame, 'csrfToken'>,
  action: string,
  fields: Record<string, string>,
  label: string,
  options: { danger?: string; accessibleName?: string } = {},
): Html {
  return html`<form class="inline" method="post" action="${action}">${csrfField(frame.csrfToken)}${Object.entries(
    fields,
  ).map(
    ([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`,
  )}<button type="submit"${
    options.danger ? html` class="danger" data-confirm="${options.danger}"` : ''
  }${options.accessibleName ? html` aria-label="${options.accessibleName}"` : ''}>${label}</button></form>`;
}
