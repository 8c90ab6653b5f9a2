/**
 * The dashboard's one style sheet and one script, served from the dashboard's
 * own routes (`/dashboard/assets/…`) so the CSP allows nothing else. The
 * script only enhances: every page works without it (forms post, secrets are
 * in the page to select and copy by hand).
 */

const STYLE_SHEET = `
:root { color-scheme: light; --ink: #1b1f24; --muted: #57606a; --line: #d0d7de; --accent: #0b57d0; --danger: #b42318; --ok: #116329; --bg: #f6f8fa; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--ink); background: #fff; }
a { color: var(--accent); }
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible, summary:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.skip { position: absolute; left: -10000px; }
.skip:focus { left: 1rem; top: 1rem; background: #fff; padding: .5rem; z-index: 1; }
header { display: flex; flex-wrap: wrap; gap: 1rem; align-items: center; justify-content: space-between; padding: .75rem 1.5rem; border-bottom: 1px solid var(--line); background: var(--bg); }
header .brand { font-weight: 700; }
header nav ul { display: flex; flex-wrap: wrap; gap: .25rem 1rem; list-style: none; margin: 0; padding: 0; }
header nav a[aria-current="page"] { font-weight: 700; color: var(--ink); }
.who { display: flex; gap: .75rem; align-items: center; color: var(--muted); }
.who form { margin: 0; }
main { max-width: 72rem; margin: 0 auto; padding: 1.5rem; }
h1 { font-size: 1.6rem; margin: 0 0 1rem; }
h2 { font-size: 1.2rem; margin: 2rem 0 .75rem; }
table { border-collapse: collapse; width: 100%; margin: .5rem 0 1rem; }
th, td { text-align: left; padding: .4rem .6rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-weight: 600; background: var(--bg); }
td.number, th.number { text-align: right; font-variant-numeric: tabular-nums; }
form.inline { display: inline; }
fieldset { border: 1px solid var(--line); border-radius: 6px; padding: 1rem; margin: 0 0 1rem; }
legend { font-weight: 600; padding: 0 .25rem; }
label { display: block; margin: .5rem 0 .25rem; font-weight: 500; }
label.check { display: inline-flex; gap: .4rem; align-items: center; font-weight: 400; margin-right: 1rem; }
input[type=text], input[type=url], input[type=number], input[type=email], input[type=password], select { width: 100%; max-width: 32rem; padding: .45rem .5rem; border: 1px solid #8c959f; border-radius: 6px; font: inherit; }
button { font: inherit; padding: .4rem .9rem; border-radius: 6px; border: 1px solid #8c959f; background: #fff; cursor: pointer; }
button.primary { background: var(--accent); border-color: var(--accent); color: #fff; }
button.danger { color: var(--danger); border-color: var(--danger); }
.notice { padding: .75rem 1rem; border-radius: 6px; margin: 0 0 1rem; border: 1px solid; }
.notice.ok { border-color: var(--ok); color: var(--ok); background: #dafbe1; }
.notice.error { border-color: var(--danger); color: var(--danger); background: #ffebe9; }
.secret { display: flex; gap: .5rem; align-items: center; flex-wrap: wrap; padding: .75rem 1rem; border: 2px solid var(--accent); border-radius: 6px; margin: 0 0 1rem; }
.secret code { font-size: 1rem; word-break: break-all; }
.muted { color: var(--muted); }
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(11rem, 1fr)); gap: .75rem; margin: 0 0 1rem; padding: 0; list-style: none; }
.cards li { border: 1px solid var(--line); border-radius: 6px; padding: .75rem; }
.cards .value { display: block; font-size: 1.5rem; font-weight: 700; }
.chart { max-width: 100%; height: auto; }
.legend { display: flex; flex-wrap: wrap; gap: .25rem 1rem; list-style: none; padding: 0; }
.swatch { display: inline-block; width: .8rem; height: .8rem; border-radius: 2px; margin-right: .3rem; vertical-align: middle; }
.s-pending-approval { background: #bf8700; } .s-scheduled { background: #0969da; } .s-in-progress { background: #8250df; }
.s-completed { background: #57606a; } .s-replied { background: #1a7f37; } .s-bounced { background: #cf222e; } .s-unsubscribed { background: #e16f24; }
.status-ok { color: var(--ok); } .status-failed { color: var(--danger); }
.badge { display: inline-block; padding: 0 .5rem; border: 1px solid; border-radius: 1rem; font-size: .85rem; font-weight: 600; }
.badge.ok { color: var(--ok); } .badge.failing { color: var(--danger); background: #ffebe9; }
.actions { display: flex; flex-wrap: wrap; gap: .5rem; margin: .5rem 0 1rem; }
`;

const SCRIPT = `
// Copy buttons: <button data-copy="id"> copies the text of #id.
for (const button of document.querySelectorAll('button[data-copy]')) {
  button.hidden = false;
  button.addEventListener('click', async () => {
    const source = document.getElementById(button.dataset.copy);
    if (!source) return;
    try {
      await navigator.clipboard.writeText(source.textContent.trim());
      button.textContent = 'Copied';
    } catch {
      button.textContent = 'Select and copy by hand';
    }
  });
}
// Destructive buttons ask first: <button data-confirm="Revoke key 4?">.
for (const button of document.querySelectorAll('button[data-confirm]')) {
  button.addEventListener('click', (event) => {
    if (!window.confirm(button.dataset.confirm)) event.preventDefault();
  });
}
// "Select all" checkboxes: <input type=checkbox data-select-all="name">.
for (const box of document.querySelectorAll('input[data-select-all]')) {
  box.hidden = false;
  box.closest('label')?.removeAttribute('hidden');
  box.addEventListener('change', () => {
    for (const item of document.querySelectorAll('input[type=checkbox][name="' + box.dataset.selectAll + '"]')) {
      item.checked = box.checked;
    }
  });
}
`;

/** A plain mark, so browsers asking for an icon get one from the dashboard itself. */
const ICON =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#0b57d0"/><path d="M4 8h8M8 4v8" stroke="#fff" stroke-width="2"/></svg>';

export const DASHBOARD_ASSETS: Record<string, { contentType: string; body: string }> = {
  'icon.svg': { contentType: 'image/svg+xml', body: ICON },
  'app.css': { contentType: 'text/css; charset=utf-8', body: STYLE_SHEET },
  'app.js': { contentType: 'text/javascript; charset=utf-8', body: SCRIPT },
};
