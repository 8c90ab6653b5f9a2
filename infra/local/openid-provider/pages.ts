import type { ServerResponse } from 'node:http';
import { escapeHtml } from '#platform/html.ts';
import { PASSWORD_MIN_LENGTH } from './users.ts';

/**
 * The provider's pages, rendered on the server: no script, no external
 * asset, one inline style sheet. Each field has a real label, an error is
 * announced from a `role="alert"` element, and the fields it concerns point
 * to it (`aria-describedby`, `aria-invalid`). The browser tests find the
 * fields by these label texts and the buttons by their names, so they are
 * part of the provider's interface.
 */

export const LABELS = {
  email: 'Email',
  password: 'Password',
  newPassword: 'New password',
  confirmPassword: 'Confirm new password',
  signIn: 'Sign in',
  setPassword: 'Set password',
  signOut: 'Sign out',
} as const;

/**
 * The pages' HTTP headers. A form here posts to the provider itself, which
 * then redirects to a client (the code, or the end of a sign-out): browsers
 * hold such redirects to `form-action` too, so the clients' origins are in it.
 */
export function pageHeaders(formTargetOrigins: readonly string[]): Record<string, string> {
  const formAction = ["'self'", ...formTargetOrigins].join(' ');
  return {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': `default-src 'none'; style-src 'unsafe-inline'; form-action ${formAction}; frame-ancestors 'none'`,
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
  };
}

export function sendPage(
  response: ServerResponse,
  status: number,
  html: string,
  formTargetOrigins: readonly string[],
): void {
  response
    .writeHead(status, { ...pageHeaders(formTargetOrigins), 'content-length': Buffer.byteLength(html) })
    .end(html);
}

const STYLE = `
body{font:16px/1.5 system-ui,sans-serif;color:#1a1a1a;background:#f4f4f5;margin:0}
main{max-width:24rem;margin:3rem auto;padding:2rem;background:#fff;border:1px solid #d4d4d8;border-radius:8px}
h1{font-size:1.5rem;margin:0 0 1rem}
.field{margin:0 0 1rem}
label{display:block;font-weight:600;margin:0 0 .25rem}
input{box-sizing:border-box;width:100%;padding:.5rem;font:inherit;border:1px solid #71717a;border-radius:4px}
button{font:inherit;font-weight:600;padding:.5rem 1rem;border:0;border-radius:4px;background:#1d4ed8;color:#fff;cursor:pointer}
:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
.alert{padding:.75rem;border:1px solid #b91c1c;border-radius:4px;background:#fef2f2;color:#991b1b}
.note{color:#3f3f46}
`;

function layout(title: string, content: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Local OpenID provider</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
${content}
</main>
</body>
</html>
`;
}

const ERROR_ID = 'form-error';

const alert = (error: string | undefined) =>
  error === undefined ? '' : `<p class="alert" role="alert" id="${ERROR_ID}">${escapeHtml(error)}</p>\n`;

/** The attributes that tie a field to the page's error, when there is one. */
const invalidWhen = (error: string | undefined) =>
  error === undefined ? '' : ` aria-invalid="true" aria-describedby="${ERROR_ID}"`;

export function signInPage(page: { action: string; email?: string; error?: string }): string {
  return layout(
    LABELS.signIn,
    `${alert(page.error)}<form method="post" action="${escapeHtml(page.action)}">
<div class="field">
<label for="email">${LABELS.email}</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(page.email ?? '')}"${invalidWhen(page.error)}>
</div>
<div class="field">
<label for="password">${LABELS.password}</label>
<input id="password" name="password" type="password" autocomplete="current-password" required${invalidWhen(page.error)}>
</div>
<button type="submit">${LABELS.signIn}</button>
</form>`,
  );
}

export function setPasswordPage(page: { action: string; email: string; error?: string }): string {
  const newPasswordDescription =
    page.error === undefined
      ? ' aria-describedby="password-rule"'
      : ` aria-invalid="true" aria-describedby="${ERROR_ID} password-rule"`;
  return layout(
    'Choose a new password',
    `${alert(page.error)}<p class="note" id="password-rule">You signed in as ${escapeHtml(page.email)} with a one-time password. Choose a new password of at least ${PASSWORD_MIN_LENGTH} characters to finish signing in.</p>
<form method="post" action="${escapeHtml(page.action)}">
<input type="text" autocomplete="username" value="${escapeHtml(page.email)}" hidden readonly>
<div class="field">
<label for="new_password">${LABELS.newPassword}</label>
<input id="new_password" name="new_password" type="password" autocomplete="new-password" required${newPasswordDescription}>
</div>
<div class="field">
<label for="confirm_password">${LABELS.confirmPassword}</label>
<input id="confirm_password" name="confirm_password" type="password" autocomplete="new-password" required${invalidWhen(page.error)}>
</div>
<button type="submit">${LABELS.setPassword}</button>
</form>`,
  );
}

/** A page that ends the flow here: what went wrong, and what to do about it. */
export function problemPage(page: { title: string; message: string; detail?: string }): string {
  const detail = page.detail === undefined ? '' : `\n<p class="note">${escapeHtml(page.detail)}</p>`;
  return layout(page.title, `<p class="alert" role="alert">${escapeHtml(page.message)}</p>${detail}`);
}

/** The end-session confirmation around oidc-provider's form (`op.logoutForm`, its hidden xsrf field). */
export function signOutPage(form: string): string {
  return layout(
    LABELS.signOut,
    `<p>Sign out of the local OpenID provider?</p>
${form}
<button type="submit" form="op.logoutForm" name="logout" value="yes">${LABELS.signOut}</button>`,
  );
}

export function signedOutPage(): string {
  return layout('Signed out', '<p>You are signed out of the local OpenID provider.</p>');
}
