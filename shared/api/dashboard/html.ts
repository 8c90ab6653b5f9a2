import { escapeHtml } from '#platform/html.ts';

/**
 * Markup built with the `html` tag: every interpolated value is escaped
 * unless it is itself markup (`Html`, or an array of it), so a page cannot
 * put a user's text into the document unescaped by forgetting to.
 */
export class Html {
  constructor(readonly text: string) {}
}

type Fragment = Html | string | number | boolean | null | undefined | readonly Fragment[];

function render(value: Fragment): string {
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === null || value === undefined || value === false || value === true) return '';
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: Fragment[]): Html {
  let text = strings[0]!;
  values.forEach((value, index) => {
    text += render(value) + strings[index + 1]!;
  });
  return new Html(text);
}
